/**
 * What a ticket search asks for, read from the text a person typed:
 * - `#1234` is that ticket and nothing else;
 * - otherwise every word must start a word of the name or description (case and
 *   accents aside), and a lone number also finds the ticket with that number.
 */
export type TicketSearch =
  { kind: 'none' } | { kind: 'id'; id: number } | { kind: 'words'; words: string[]; id: number | null };

const MAX_WORDS = 8;
const MAX_ID = 2_147_483_647;

/** Lower case without accents (`Refrigeración` → `refrigeracion`), as both indexes fold text. */
export const foldText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

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
  const words = [...new Set(foldText(trimmed).split(/[^\p{L}\p{N}]+/u))].filter(Boolean).slice(0, MAX_WORDS);
  const id = words.length === 1 && /^\d+$/.test(words[0]!) ? asId(words[0]!) : null;
  return { kind: 'words', words, id };
}

/** The FTS5 query of the words: each a quoted prefix, all required. */
export const fts5Words = (words: string[]) => words.map((w) => `"${w.replaceAll('"', '')}"*`).join(' AND ');

/** The PostgreSQL tsquery text of the words (`to_tsquery('simple', …)`): each a prefix, all required. */
export const tsqueryWords = (words: string[]) => words.map((w) => `'${w.replaceAll("'", '')}':*`).join(' & ');
