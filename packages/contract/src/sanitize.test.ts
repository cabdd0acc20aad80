import { describe, expect, it } from 'vitest';
import { isClean, sanitize } from './sanitize.ts';

describe('sanitize', () => {
  it('strips straight, curly and backtick quotes from every type', () => {
    expect(sanitize('textWithSymbols', `a"b'c\`d“e”f‘g’h`)).toBe('abcdefgh');
  });

  it('keeps Spanish letters and spaces for onlyLetters and drops the rest', () => {
    expect(sanitize('onlyLetters', 'Logística Ñandú 42!')).toBe('Logística Ñandú ');
  });

  it('keeps only digits for onlyNumbers', () => {
    expect(sanitize('onlyNumbers', 'a1b2 3-')).toBe('123');
  });

  it('keeps letters, digits, accents and spaces for alphanumeric', () => {
    expect(sanitize('alphanumeric', 'Camión 12; <b>')).toBe('Camión 12 b');
  });

  it('keeps the e-mail alphabet', () => {
    expect(sanitize('email', 'ana.pérez_1-x@correo.mx ')).toBe('ana.prez_1-x@correo.mx');
  });

  it('drops accents and symbols for noSpecialChars', () => {
    expect(sanitize('noSpecialChars', 'Año 2024, ok')).toBe('Ao 2024 ok');
  });

  it('keeps the safe punctuation for safeText', () => {
    expect(sanitize('safeText', 'tickets_main, ruta-1; a:b. #x')).toBe('tickets_main, ruta-1; a:b. x');
  });

  it('keeps accented letters and logistics references for safeText', () => {
    expect(sanitize('safeText', 'Cámara fría: EMB-004512, placa ABC-123-D. <ok>')).toBe(
      'Cámara fría: EMB-004512, placa ABC-123-D. ok',
    );
  });

  it('keeps the listed symbols for textWithSymbols', () => {
    expect(sanitize('textWithSymbols', 'Clave#2024!(x)=y?/<z>-ñ~')).toBe('Clave#2024!(x)=y?/<z>-ñ');
  });

  it('reports whether a value is already clean', () => {
    expect(isClean('onlyLetters', 'Almacén Norte')).toBe(true);
    expect(isClean('onlyLetters', "Almacén' OR 1=1")).toBe(false);
    expect(isClean('safeText', 'ar_main')).toBe(true);
    expect(isClean('safeText', 'drop table;--\u0000')).toBe(false);
  });
});
