import type { PageMeta } from '@academy/contracts';

/**
 * The `meta` of a page of a listing (`PageMeta`, libs/contracts): `totalPages` is totalItems
 * divided by the page size, rounded up, and 1 when that is 0 (the spec's rule for the student
 * listing, kept for every listing: an empty list is one empty page).
 */
export function pageMeta(totalItems: number, currentPage: number, pageSize: number): PageMeta {
  return { totalItems, totalPages: Math.max(1, Math.ceil(totalItems / pageSize)), currentPage, pageSize };
}
