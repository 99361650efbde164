import type { Actor } from '@academy/auth';
import type { AdministrativeListingQuery } from '@academy/contracts';
import { pageMeta } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { readListingVersion, selectListingPage } from './listing.store.ts';

/**
 * Admin-only, as its name and the OpenAPI document say: the students, newest first, a page at a
 * time, each with `renews`. Answered as JSON text from the listing cache (under the listing's version).
 */
export async function listStudentsAdministratively(ctx: AcademicContext, input: AdministrativeListingQuery, _actor: Actor): Promise<string> {
  const em = ctx.orm.em;
  return ctx.listings.json(() => readListingVersion(em), input, async () => {
    const rows = await selectListingPage(em, input);
    const totalItems = rows[0]?.total ?? 0;
    const data = rows.filter((row) => row.id !== null).map((row) => ({ id: row.id!, name: row.name, lastname: row.lastname, status: row.status, renews: row.renews }));
    return { data, meta: pageMeta(totalItems, input.page, input.limit) };
  });
}
