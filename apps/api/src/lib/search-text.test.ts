import { describe, expect, it } from 'vitest';
import { createTextWordsCache, textWords } from './search-text.ts';

describe('createTextWordsCache', () => {
  it('gives the words textWords gives, accents composed or combining', () => {
    const cached = createTextWordsCache();
    for (const text of [
      'Refrigeración del almacén 2, folio 10234',
      'Cámara fría: Refrigeracion ALMACÉN',
      'Cafe\u0301 de la mañana — señal-ética',
      '',
      '¿Qué pasó? 3ª revisión',
    ]) {
      expect(cached(text).sort()).toEqual(textWords(text).sort());
      expect(cached(text).sort()).toEqual(textWords(text).sort());
    }
  });
});
