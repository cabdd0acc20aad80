import { describe, expect, it } from 'vitest';
import { foldText, fts5Words, parseTicketSearch, pgTsquery } from './ticket-search.ts';

describe('parseTicketSearch', () => {
  it('is nothing for blank text', () => {
    expect(parseTicketSearch('   ')).toEqual({ kind: 'none' });
  });

  it('folds case and accents and splits on anything that is not a letter or digit', () => {
    expect(parseTicketSearch('  Refrigeración, MONTERREY-norte ')).toEqual({
      kind: 'words',
      words: ['refrigeracion', 'monterrey', 'norte'],
      id: null,
    });
    expect(foldText('Ñandú Árbol')).toBe('nandu arbol');
  });

  it('reads #1234 as that ticket only, and a lone number as words that also find the ticket', () => {
    expect(parseTicketSearch('#1234')).toEqual({ kind: 'id', id: 1234 });
    expect(parseTicketSearch('# 77')).toEqual({ kind: 'id', id: 77 });
    expect(parseTicketSearch('1234')).toEqual({ kind: 'words', words: ['1234'], id: 1234 });
    expect(parseTicketSearch('folio 1234')).toEqual({ kind: 'words', words: ['folio', '1234'], id: null });
  });

  it('never turns an out-of-range number into an id', () => {
    expect(parseTicketSearch('#99999999999')).toEqual({ kind: 'words', words: [], id: null });
    expect(parseTicketSearch('2147483648')).toEqual({ kind: 'words', words: ['2147483648'], id: null });
  });

  it('finds nothing for text with no word in it, and keeps at most eight distinct words', () => {
    expect(parseTicketSearch('%%% ***')).toEqual({ kind: 'words', words: [], id: null });
    const many = parseTicketSearch('a b c d e f g h i j a');
    expect(many.kind === 'words' && many.words).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('writes index queries of whole words where known, else of quoted prefixes', () => {
    expect(
      fts5Words([
        { word: 'ruta', terms: ['ruta', 'rutas'] },
        { word: 'n', terms: null },
      ]),
    ).toBe('("ruta" OR "rutas") AND "n"*');
  });

  it('writes PostgreSQL queries of whole words, prefixes and attribute groups, all required', () => {
    expect(
      pgTsquery(
        [
          { word: 'ruta', terms: ['ruta', 'rutas'] },
          { word: 'n', terms: null },
          { word: 'norte', terms: ['norte'] },
          { word: 'km14', terms: null },
        ],
        [['creator12', 'assignee12'], ['priority4']],
      ),
    ).toBe("('ruta' | 'rutas') & '^n' & 'norte' & 'km14':* & ('_creator12' | '_assignee12') & '_priority4'");
    expect(pgTsquery([], [['stageclosed']])).toBe("'_stageclosed'");
    expect(pgTsquery([], [])).toBe('');
  });
});
