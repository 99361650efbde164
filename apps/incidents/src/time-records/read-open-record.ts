import { ownEmployee, type Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { findOpenRecord } from './time-records.store.ts';

/** `GET /timerecord/open`: the token's employee's open record, if any. The route takes no input. */
export async function readOpenRecord(ctx: IncidentsContext, _input: Record<string, never>, actor: Actor) {
  const record = await findOpenRecord(ctx.db.query, ownEmployee(actor), ctx.clock.now().toISOString());
  return { hasOpenRecord: record !== null, record };
}
