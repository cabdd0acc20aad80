import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { columnWords, fts5Matches } from './fts5-match.ts';

/** The same documents in a real FTS5 table, with the text index's tokenizer. */
const docs = [
  { body: 'Montacargas con falla hidráulica en el andén 5', attrs: 'i1 c12 a0 sopen x1 p2' },
  { body: 'Cámara de refrigeración fuera de rango', attrs: 'i2 c3 a12 sstarted x2 p1' },
  { body: 'Refrigeración: revisión del compresor', attrs: 'i3 c12 a12 sclosed x5 p2' },
  { body: 'Inventario no cuadra, andén norte', attrs: 'i4 c7 a3 sopen x1 p4' },
];

const queries = [
  '{body} : ("refrigeracion")',
  '{body} : ("refri"*)',
  '{body} : (("camara" OR "compresor") AND "refrigeracion")',
  '{body} : ("anden") AND {attrs} : (sopen OR sstarted)',
  '({body} : ("inventario") OR {attrs} : i3)',
  '{attrs} : (c12 OR a12) AND {attrs} : (sclosed)',
  '{body} : ("fuera de")',
  '{body} : ("x1")',
  '"anden"',
  '{attrs} : i2',
];

describe('fts5Matches', () => {
  it('matches what FTS5 matches, query by query', () => {
    const db = new SQLite(':memory:');
    db.exec(`create virtual table f using fts5(body, attrs, tokenize = 'unicode61 remove_diacritics 2')`);
    const insert = db.prepare('insert into f (rowid, body, attrs) values (?, ?, ?)');
    docs.forEach((d, i) => insert.run(i + 1, d.body, d.attrs));
    for (const query of queries) {
      const expected = (
        db.prepare('select rowid from f where f match ? order by rowid').all(query) as { rowid: number }[]
      ).map((r) => r.rowid);
      const actual = docs
        .map((d, i) => (fts5Matches(query, { body: columnWords(d.body), attrs: columnWords(d.attrs) }) ? i + 1 : 0))
        .filter(Boolean);
      expect(actual, query).toEqual(expected);
    }
    db.close();
  });
});
