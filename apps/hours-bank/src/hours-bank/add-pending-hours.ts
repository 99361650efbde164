import type { Actor } from '@academy/auth';
import type { HoursBankContext } from '../shared/hours-bank-context.ts';
import { addHours, type AddHoursInput } from './add-hours.ts';
import { totalsView } from './hours-bank.views.ts';
import { formatMinutes } from './time-string.ts';

/** POST …/pending: first subtracted from completed, the remainder added to pending (rule 2). */
export async function addPendingHours(ctx: HoursBankContext, input: AddHoursInput, actor: Actor) {
  const { schoolCourseId, transactionId, movement } = await addHours(ctx, { ...input, type: 'PENDING' }, actor);
  return {
    employeeId: input.employeeId,
    schoolCourseId,
    totals: totalsView(movement.after),
    details: {
      hoursRegistered: formatMinutes(input.minutes),
      hoursSubtractedFromCompleted: formatMinutes(Math.max(0, -movement.completedAffected)),
      hoursAddedToPending: formatMinutes(Math.max(0, movement.pendingAffected)),
    },
    transactionId,
  };
}
