import type { PageMeta } from '@academy/contracts';

/**
 * The `meta` of a page of a listing (`PageMeta`, libs/contracts): `totalPages` is totalItems
 * divided by the page size, rounded up, and 1 when that is 0 (the spec's rule for the student
 * listing, kept for every listing: an empty list is one empty page).
 */
export function pageMeta(totalItems: number, currentPage: number, pageSize: number): PageMeta {
  return { totalItems, totalPages: Math.max(1, Math.ceil(totalItems / pageSize)), currentPage, pageSize };
}

/**
 * The total of a listing whose page is read with `count(*) over ()` (the total on every row, in the
 * page's own query): the first row's, or, when the page has no row (a page past the last), counted
 * apart by `countAll` (page 1 empty: 0). The total never depends on the page asked for.
 */
export async function pageTotal(rows: readonly { total: number | string }[], page: number, countAll: () => Promise<number | string>): Promise<number> {
  if (rows.length) return Number(rows[0]!.total);
  return page > 1 ? Number(await countAll()) : 0;
}
