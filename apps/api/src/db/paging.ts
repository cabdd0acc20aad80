import { sql, type SelectQueryBuilder } from 'kysely';

/** Which page of a list, and how long pages are (SPEC §7). */
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

/** Where a page stands among `total` rows; an empty list still has page 1. */
export const pageMeta = (total: number, { page, per_page }: Paging) => ({
  total,
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / per_page)),
  per_page,
});

/** A page with its position beside the rows, as the catalogue lists answer (SPEC §7). */
export const flatPage = <T>(data: T[], total: number, paging: Paging) => ({ data, ...pageMeta(total, paging) });
