import type { AttendanceStatusItem } from '@academy/contracts';
import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { selectStatuses } from './attendance.store.ts';

/** The academy's statuses, in their order: read by every signed-in user. */
export async function listAttendanceStatuses(ctx: AcademicContext, _input: Record<string, never>, _actor: Actor): Promise<AttendanceStatusItem[]> {
  return selectStatuses(ctx.orm.em);
}
