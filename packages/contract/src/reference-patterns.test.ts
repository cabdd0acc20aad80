import { describe, expect, it } from 'vitest';
import {
  compileReferenceType,
  extractReferences,
  normaliseReference,
  REFERENCE_MSG,
  referencePatternError,
  searchedReferences,
} from './reference-patterns.ts';

describe('reference patterns', () => {
  it('accepts the seeded patterns and the restricted syntax', () => {
    for (const p of [
      'EMB-\\d{6}',
      'PED-\\d{6}',
      '\\d{10,12}',
      '[A-Z]{3}-\\d{3}-[A-Z]',
      '(?:MX|US)-\\d+',
      'A(BC)?\\d{2}',
    ]) {
      expect(referencePatternError(p), p).toBeNull();
    }
  });

  it('refuses patterns whose backtracking can blow up', () => {
    for (const p of ['(a+)+$', '(a|aa)*', '(\\d*)*', '\\d+\\d+', '\\d*x\\d*', 'a{1,1000}', '(ab|cd){2,5}']) {
      expect(referencePatternError(p), p).toBe(REFERENCE_MSG.patternUnsafe);
    }
  });

  it('refuses what it does not support, invalid syntax and a pattern matching nothing at all', () => {
    expect(referencePatternError('(a)\\1')).toBe(REFERENCE_MSG.patternUnsupported);
    expect(referencePatternError('(?=a)b')).toBe(REFERENCE_MSG.patternUnsupported);
    expect(referencePatternError('(?<x>a)')).toBe(REFERENCE_MSG.patternUnsupported);
    expect(referencePatternError('(ab')).toBe(REFERENCE_MSG.patternInvalid);
    expect(referencePatternError('*a')).toBe(REFERENCE_MSG.patternInvalid);
    expect(referencePatternError('[a-')).toBe(REFERENCE_MSG.patternInvalid);
    expect(referencePatternError('a?')).toBe(REFERENCE_MSG.patternEmpty);
  });

  it('extracts whole references, normalised, once each', () => {
    const types = [
      compileReferenceType({ id: 1, name: 'Embarque', pattern: 'EMB-\\d{6}' }),
      compileReferenceType({ id: 3, name: 'Guía', pattern: '\\d{10,12}' }),
      compileReferenceType({ id: 4, name: 'Placa', pattern: '[A-Z]{3}\\s?-\\d{3}-[A-Z]' }),
    ];
    expect(
      extractReferences(types, [
        'emb-004512 y EMB-004512; XEMB-000001',
        'guía 1234567890, 1234567890123 no; abc -123-d',
      ]),
    ).toEqual([
      { type_id: 1, value: 'EMB-004512' },
      { type_id: 3, value: '1234567890' },
      { type_id: 4, value: 'ABC-123-D' },
    ]);
    expect(normaliseReference(' abc 123 ')).toBe('ABC123');
    expect(searchedReferences(types, ' emb-004512 ')).toEqual([{ type_id: 1, value: 'EMB-004512' }]);
    expect(searchedReferences(types, 'EMB-004512 retrasado')).toEqual([]);
  });
});
