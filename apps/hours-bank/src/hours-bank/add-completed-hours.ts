import type { Actor } from '@academy/auth';
import type { HoursBankContext } from '../shared/hours-bank-context.ts';
import { addHours, type AddHoursInput } from './add-hours.ts';
import { totalsView } from './hours-bank.views.ts';
import { formatMinutes } from './time-string.ts';

/** POST …/completed: first subtracted from pending, the remainder added to completed (rule 1). */
export async function addCompletedHours(ctx: HoursBankContext, input: AddHoursInput, actor: Actor) {
  const { schoolCourseId, transactionId, movement } = await addHours(ctx, { ...input, type: 'COMPLETED' }, actor);
  return {
    employeeId: input.employeeId,
    schoolCourseId,
    totals: totalsView(movement.after),
    details: {
      hoursRegistered: formatMinutes(input.minutes),
      hoursSubtractedFromPending: formatMinutes(Math.max(0, -movement.pendingAffected)),
      hoursAddedToCompleted: formatMinutes(Math.max(0, movement.completedAffected)),
    },
    transactionId,
  };
}
