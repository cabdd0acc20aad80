import { SECTIONS } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { sectionLabel } from './sections.ts';

describe('sectionLabel', () => {
  it('names every section of the contract in Spanish, never by its code', () => {
    for (const code of Object.values(SECTIONS)) {
      expect(sectionLabel(code), code).not.toBe(code);
      expect(sectionLabel(code), code).not.toMatch(/_/);
    }
    expect(sectionLabel(SECTIONS.example)).toBe('Componentes');
  });

  it('shows the code of a section it does not know', () => {
    expect(sectionLabel('nuevo_main')).toBe('nuevo_main');
    expect(sectionLabel('toString')).toBe('toString');
  });
});
