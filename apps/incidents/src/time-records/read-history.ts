import { HISTORY_MAX_DAYS, type HistoryQuery } from '@academy/contracts';
import { BadRequestError, pageMeta } from '@academy/kit';
import type { Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { addDays, dayIn, daysBetween } from '../shared/time.ts';
import { knownTargetEmployee } from './target-employee.ts';
import { workedDays } from './time-records.store.ts';

/** `GET /timerecord/history`: worked time per local day, newest first, a page of days at a time (own; admins any). */
export async function readHistory(ctx: IncidentsContext, input: HistoryQuery, actor: Actor) {
  const employeeId = await knownTargetEmployee(ctx, actor, input.employeeId);
  const timeZone = ctx.config.ACADEMY_TIME_ZONE;
  const now = ctx.clock.now();
  const to = input.to ?? dayIn(now, timeZone);
  const from = input.from ?? addDays(to, -30);
  if (daysBetween(from, to) > HISTORY_MAX_DAYS)
    throw new BadRequestError('VALIDATION_ERROR', `Invalid request: the range may span at most ${HISTORY_MAX_DAYS} days`, [{ path: 'from', message: `at most ${HISTORY_MAX_DAYS} days before to` }]);
  const { days, totalDays, totalMinutes } = await workedDays(ctx.db.query, now, employeeId, from, to, timeZone, {
    limit: input.limit,
    offset: (input.page - 1) * input.limit,
  });
  return {
    employeeId,
    from,
    to,
    totalWorkedMinutes: totalMinutes,
    data: days,
    meta: pageMeta(totalDays, input.page, input.limit),
  };
}
