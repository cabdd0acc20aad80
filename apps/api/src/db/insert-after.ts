import { sql, type RawBuilder } from 'kysely';
import type { DB } from './schema.ts';

/**
 * PostgreSQL: the insert of `rows` into `table` as a CTE of a statement whose CTE `after` writes
 * the row they depend on (a new ticket and its notifications): each row is inserted once for
 * each row `after` wrote, so none when it wrote none (a creation refused in that statement).
 * The rows travel as one JSON parameter read as the table's own row type; their keys are the
 * columns written, the others take their defaults. `returning`, when given, is the insert's
 * RETURNING list (a data-modifying CTE runs whether the statement reads it or not).
 */
export function insertAfter(
  table: keyof DB & string,
  rows: readonly Record<string, unknown>[],
  after: string,
  returning?: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const columns = Object.keys(rows[0] ?? {});
  if (rows.length === 0 || columns.length === 0) throw new Error('insertAfter needs rows with columns');
  return sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    select ${sql.join(columns.map((c) => sql.ref(`x.${c}`)))}
    from ${sql.table(after)}, jsonb_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::jsonb) as x
    ${returning ? sql`returning ${returning}` : sql``}`;
}

/** Named CTEs, each followed by a comma: a part of another statement's WITH list. */
export function namedCtes(named: Record<string, RawBuilder<unknown>>): RawBuilder<unknown> {
  if (Object.keys(named).length === 0) return sql``;
  return sql.join(
    Object.entries(named).map(([name, query]) => sql`${sql.id(name)} as (${query}),`),
    sql` `,
  );
}

/**
 * PostgreSQL: the CTE a statement's writes wait on. A statement given one (CTEs that end with
 * it) writes only when it has a row: what the writes were decided on still holds when they run.
 */
export const GATE_CTE = 'gate';
