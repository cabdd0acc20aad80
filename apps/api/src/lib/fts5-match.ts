import { foldText } from './search-text.ts';

/** A document's columns as FTS5 tokenizes them (`unicode61 remove_diacritics 2`): folded words, in order. */
export type Columns = Record<string, string[]>;

/** The words of a text as the text index holds them, in order (lib/search-text.ts's word rule). */
export const columnWords = (text: string) =>
  foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

type Node =
  | { kind: 'and' | 'or'; of: Node[] }
  | { kind: 'column'; column: string; of: Node }
  | { kind: 'phrase'; words: string[]; isPrefix: boolean };

/**
 * Parses the FTS5 queries the ticket lists build: quoted or bare terms, a trailing `*` for a
 * prefix, `AND` / `OR` (AND binds tighter, as in FTS5), parentheses and `{column} :` filters.
 */
function parse(query: string): Node {
  const tokens = query.match(/"[^"]*"|\{[^}]*\}|[():*]|[^\s():*"{}]+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const or = (): Node => {
    const of = [and()];
    while (peek() === 'OR') {
      next();
      of.push(and());
    }
    return of.length === 1 ? of[0]! : { kind: 'or', of };
  };
  const and = (): Node => {
    const of = [primary()];
    while (peek() !== undefined && peek() !== ')' && peek() !== 'OR') {
      if (peek() === 'AND') next();
      of.push(primary());
    }
    return of.length === 1 ? of[0]! : { kind: 'and', of };
  };
  const primary = (): Node => {
    const token = next();
    if (token === undefined) throw new Error(`fts5 query ends early: ${query}`);
    if (token === '(') {
      const node = or();
      if (next() !== ')') throw new Error(`fts5 query lacks ')': ${query}`);
      return node;
    }
    if (token.startsWith('{')) {
      if (next() !== ':') throw new Error(`fts5 column filter lacks ':': ${query}`);
      return { kind: 'column', column: token.slice(1, -1).trim(), of: primary() };
    }
    const isPrefix = peek() === '*';
    if (isPrefix) next();
    return { kind: 'phrase', words: columnWords(token.replaceAll('"', '')), isPrefix };
  };
  const node = or();
  if (at !== tokens.length) throw new Error(`fts5 query not understood: ${query}`);
  return node;
}

function phraseIn(words: string[], phrase: string[], isPrefix: boolean): boolean {
  if (phrase.length === 0) return false;
  const last = phrase.length - 1;
  for (let i = 0; i + last < words.length; i++) {
    if (phrase.every((p, j) => (isPrefix && j === last ? words[i + j]!.startsWith(p) : words[i + j] === p))) {
      return true;
    }
  }
  return false;
}

function evaluate(node: Node, columns: Columns, only: string | null): boolean {
  switch (node.kind) {
    case 'and':
      return node.of.every((n) => evaluate(n, columns, only));
    case 'or':
      return node.of.some((n) => evaluate(n, columns, only));
    case 'column':
      return evaluate(node.of, columns, node.column);
    case 'phrase':
      return Object.entries(columns).some(
        ([name, words]) => (only === null || only === name) && phraseIn(words, node.words, node.isPrefix),
      );
  }
}

const parsed = new Map<string, Node>();
const PARSED_KEPT = 200;

/**
 * Whether a document matches an FTS5 query, by the same word rule as the index: what a search
 * asks of the tickets still waiting to enter SQLite's text index.
 */
export function fts5Matches(query: string, columns: Columns): boolean {
  let node = parsed.get(query);
  if (!node) {
    node = parse(query);
    if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
    parsed.set(query, node);
  }
  return evaluate(node, columns, null);
}
