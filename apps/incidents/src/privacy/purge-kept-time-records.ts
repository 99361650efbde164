import type { IncidentsContext } from '../shared/incidents-context.ts';
import { TIME_RECORDS_RETENTION_YEARS } from './incidents.privacy.ts';
import { deleteExpiredTimeRecords } from './privacy.store.ts';

/**
 * The daily time records an erasure kept (restricted) are deleted on the day its outcome listed as
 * `until`: 4 years after the employee's latest day (Estatuto de los Trabajadores art. 34.9). The
 * housekeeping is its caller, no person: `(ctx, input)`.
 */
export async function purgeKeptTimeRecords(ctx: IncidentsContext, input: { now: Date }): Promise<{ timeRecords: number }> {
  const timeRecords = await ctx.orm.em.fork().transactional((em) => deleteExpiredTimeRecords(em, input.now, ctx.config.ACADEMY_TIME_ZONE, TIME_RECORDS_RETENTION_YEARS));
  return { timeRecords };
}
