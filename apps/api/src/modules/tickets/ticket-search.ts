import { ATTR } from '../../db/ticket-derivations.ts';
import { textWords } from '../../lib/search-text.ts';

export { foldText } from '../../lib/search-text.ts';

/**
 * What a ticket search asks for, read from the text a person typed:
 * - `#1234` is that ticket and nothing else;
 * - otherwise every word must start a word of the name or description (case and
 *   accents aside), and a lone number also finds the ticket with that number.
 */
export type TicketSearch =
  | { kind: 'none' }
  | { kind: 'id'; id: number }
  | {
      kind: 'words';
      words: string[];
      id: number | null;
      /** SQLite: each word with the whole indexed words it starts, once looked up (`fts5Body`). */
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

/** The PostgreSQL tsquery text of the words (`to_tsquery('simple', …)`): each a prefix, all required. */
export const tsqueryWords = (words: string[]) => words.map((w) => `'${w.replaceAll("'", '')}':*`).join(' & ');

/** The FTS5 condition on the text of a word search: its words, or the ticket with its number. */
export function fts5Body(search: Extract<TicketSearch, { kind: 'words' }>): string {
  const body = `{body} : (${fts5Words(search.terms ?? search.words.map((word) => ({ word, terms: null })))})`;
  return search.id === null ? body : `(${body} OR {attrs} : ${ATTR.id}${search.id})`;
}
