import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv.ts';

describe('csv', () => {
  it('quotes fields with commas, quotes and line breaks, doubling quotes (RFC 4180)', () => {
    expect(csvField('simple')).toBe('simple');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('dijo "hola"')).toBe('"dijo ""hola"""');
    expect(csvField('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField(-3)).toBe('-3');
  });

  it('neutralises texts a spreadsheet would run as formulas', () => {
    for (const formula of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx']) {
      expect(csvField(formula).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('ends each record with CRLF', () => {
    expect(csvLine(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
  });
});
