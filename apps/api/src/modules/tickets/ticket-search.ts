import { TICKET_FIELDS, type FoundReference } from '@portal/contract';
import { PG_ATTR_MARK, PG_PREFIX_LENGTH, PG_PREFIX_MARK } from '../../db/ticket-derivations.ts';
import { textWords } from '../../lib/search-text.ts';

export { foldText } from '../../lib/search-text.ts';

/**
 * What a ticket search asks for, read from the text a person typed:
 * - `#1234` is that ticket and nothing else;
 * - a logistics reference typed whole (`EMB-004512`, any case and spacing) that some ticket carries
 *   is exactly the tickets carrying it (`ticket_references`), before any word match: the list
 *   reads it first (ticket-list.repository.ts `resolvedSearch`); a reference no ticket carries is
 *   searched as words;
 * - otherwise every word must start a word of the name or description (case and
 *   accents aside), and a lone number also finds the ticket with that number.
 */
export type TicketSearch =
  | { kind: 'none' }
  | { kind: 'id'; id: number }
  | { kind: 'reference'; refs: FoundReference[] }
  | {
      kind: 'words';
      words: string[];
      id: number | null;
      /** Each word with the whole indexed words it starts, once looked up (`fts5Body`, `pgTsquery`). */
      terms?: WordTerms[];
    };

const MAX_WORDS = 8;
const MAX_ID = 2_147_483_647;

const asId = (digits: string) => {
  const n = Number(digits);
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_ID ? n : null;
};

export function parseTicketSearch(text: string): TicketSearch {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'none' };
  const exact = /^#\s*(\d+)$/.exec(trimmed);
  if (exact) {
    const id = asId(exact[1]!);
    return id === null ? { kind: 'words', words: [], id: null } : { kind: 'id', id };
  }
  const words = textWords(trimmed).slice(0, MAX_WORDS);
  const id = words.length === 1 && /^\d+$/.test(words[0]!) ? asId(words[0]!) : null;
  return { kind: 'words', words, id };
}

/** A searched word with the whole indexed words it starts, or null when there are too many to list. */
export interface WordTerms {
  word: string;
  terms: string[] | null;
}

/**
 * The FTS5 query of the words, all required: each as the whole words it starts
 * (read incrementally) or, when those are too many, as a prefix.
 */
export const fts5Words = (words: WordTerms[]) =>
  words
    .map(({ word, terms }) =>
      terms === null
        ? `"${word.replaceAll('"', '')}"*`
        : `(${terms.map((t) => `"${t.replaceAll('"', '')}"`).join(' OR ')})`,
    )
    .join(' AND ');

const pgLexeme = (text: string) => `'${text.replaceAll(/['\\]/g, '')}'`;

/**
 * PostgreSQL: the prefix lexeme of a searched word (`^14`), when `search_doc` holds one for it
 * (db/ticket-derivations.ts `PG_PREFIX_MARK`): a word of up to PG_PREFIX_LENGTH characters.
 */
export const pgPrefixLexeme = (word: string) =>
  [...word].length <= PG_PREFIX_LENGTH ? `${PG_PREFIX_MARK}${word}` : null;

/**
 * A PostgreSQL tsquery (text for `::tsquery`, lexemes as written) of the words, all
 * required, each as the whole indexed words it starts or, when those are too many, as
 * its prefix lexeme (a word of up to three characters) or a prefix; and of attribute groups
 * (db/ticket-derivations.ts `PG_ATTR_MARK`): in each group one token at least, e.g.
 * `[['creator12', 'assignee12'], ['stageopen', 'stagestarted']]`. Empty when there is nothing to ask.
 */
export function pgTsquery(words: WordTerms[], attrs: string[][]): string {
  const any = (lexemes: string[]) => (lexemes.length === 1 ? lexemes[0]! : `(${lexemes.join(' | ')})`);
  const prefix = (word: string) => {
    const lexeme = pgPrefixLexeme(word);
    return lexeme ? pgLexeme(lexeme) : `${pgLexeme(word)}:*`;
  };
  return [
    ...words.map(({ word, terms }) => (terms === null ? prefix(word) : any(terms.map(pgLexeme)))),
    ...attrs.map((group) => any(group.map((token) => pgLexeme(`${PG_ATTR_MARK}${token}`)))),
  ].join(' & ');
}

/** The words of a search with their whole words once looked up, else each as a prefix. */
export const termsOf = (search: Extract<TicketSearch, { kind: 'words' }>): WordTerms[] =>
  search.terms ?? search.words.map((word) => ({ word, terms: null }));

/** The FTS5 condition on the text of a word search: its words, or the ticket with its number. */
export function fts5Body(search: Extract<TicketSearch, { kind: 'words' }>): string {
  const body = `{body} : (${fts5Words(termsOf(search))})`;
  return search.id === null ? body : `(${body} OR {attrs} : ${TICKET_FIELDS.id.token}${search.id})`;
}
