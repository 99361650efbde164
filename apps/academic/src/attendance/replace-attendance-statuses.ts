import type { AttendanceStatusItem, AttendanceStatusesBody } from '@academy/contracts';
import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { statusInUse } from './attendance.errors.ts';
import { lockStatuses, selectStatuses, statusesInUseExcept, writeStatuses } from './attendance.store.ts';

/**
 * An admin replaces the set: the given statuses are upserted in their order, the others removed. A
 * status still used by marks cannot be removed (409 naming it; the foreign key guards a race).
 */
export async function replaceAttendanceStatuses(ctx: AcademicContext, input: AttendanceStatusesBody, _actor: Actor): Promise<AttendanceStatusItem[]> {
  const em = ctx.orm.em;
  await em.transactional(async (tx) => {
    await lockStatuses(tx);
    const used = await statusesInUseExcept(tx, input.statuses.map((status) => status.code));
    if (used.length) throw statusInUse(used);
    await writeStatuses(tx, input.statuses);
  });
  return selectStatuses(em);
}
