/** Lower case without accents (`Refrigeración` → `refrigeracion`), as both full-text indexes fold text. */
export const foldText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** The distinct folded words of a text: what the full-text indexes hold as its terms. */
export const textWords = (text: string) => [...new Set(foldText(text).split(/[^\p{L}\p{N}]+/u))].filter(Boolean);
