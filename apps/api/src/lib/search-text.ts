/** Lower case without accents (`Refrigeración` → `refrigeracion`), as both full-text indexes fold text. */
export const foldText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** The distinct folded words of a text: what the full-text indexes hold as its terms. */
export const textWords = (text: string) => [...new Set(foldText(text).split(/[^\p{L}\p{N}]+/u))].filter(Boolean);

/** How many distinct raw words `createTextWordsCache` keeps folded before it starts afresh. */
const WORD_CACHE_SIZE = 200_000;

/**
 * `textWords` for bulk loads: the same words, folding each distinct raw word once (texts of one
 * organisation repeat their words), instead of normalising every text whole. The text is cut at
 * what is neither letter, digit nor combining mark, so a word written with combining accents stays
 * one word until it is folded.
 */
export function createTextWordsCache(): (text: string) => string[] {
  let folded = new Map<string, string[]>();
  return (text) => {
    const words = new Set<string>();
    for (const raw of text.split(/[^\p{L}\p{N}\p{M}]+/u)) {
      if (raw === '') continue;
      let parts = folded.get(raw);
      if (parts === undefined) {
        if (folded.size >= WORD_CACHE_SIZE) folded = new Map();
        parts = textWords(raw);
        folded.set(raw, parts);
      }
      for (const word of parts) words.add(word);
    }
    return [...words];
  };
}
