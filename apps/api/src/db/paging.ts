import { sql, type SelectQueryBuilder } from 'kysely';

/** Which page of a list, and how long pages are. */
export interface Paging {
  page: number;
  per_page: number;
}

/** Limits a query to one page of its rows. */
export const paginate =
  ({ page, per_page }: Paging) =>
  <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) =>
    query.limit(per_page).offset((page - 1) * per_page);

/** How many rows a query gives (PostgreSQL answers a count as a string). */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const { total } = await query
    .select(sql<number | string>`count(*)`.as('total'))
    .$castTo<{ total: number | string }>()
    .executeTakeFirstOrThrow();
  return Number(total);
}

/**
 * One page of a query's rows and how many rows it has in all, in one statement
 * (`count(*) over ()` beside each row): a second statement cost more than the
 * count itself on small lists. A page past the end has no row to carry the
 * count, so only then is it counted on its own.
 */
export async function pageWithTotal<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  rowsOf: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, O>,
  paging: Paging,
): Promise<{ rows: O[]; total: number }> {
  const rows = (await rowsOf(query)
    .select(sql<number | string>`count(*) over ()`.as('total_rows__'))
    .$call(paginate(paging))
    .execute()) as (O & { total_rows__: number | string })[];
  if (rows.length === 0) return { rows: [], total: paging.page > 1 ? await countRows(query) : 0 };
  const total = Number(rows[0]!.total_rows__);
  for (const row of rows) delete (row as { total_rows__?: unknown }).total_rows__;
  return { rows, total };
}

/** Where a page stands among `total` rows; an empty list still has page 1. */
export const pageMeta = (total: number, { page, per_page }: Paging) => ({
  total,
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / per_page)),
  per_page,
});

/** A page with its position beside the rows, as the catalogue lists answer. */
export const flatPage = <T>(data: T[], total: number, paging: Paging) => ({ data, ...pageMeta(total, paging) });
