import type { MyIncidentsQuery } from '@academy/contracts';
import { ownEmployee, type Actor } from '../shared/actor.ts';
import type { IncidentsContext } from '../shared/incidents-context.ts';
import { listOfEmployee } from './incidents.store.ts';

/** `GET /incident/my`: the caller's employee's own, newest first; cached per employee, status and page. */
export async function listMyIncidents(ctx: IncidentsContext, input: MyIncidentsQuery, actor: Actor) {
  const employeeId = ownEmployee(actor);
  const status = input.status ?? null;
  return ctx.cache.read({ employee: employeeId }, `my:${employeeId}:${status ?? 'all'}:${input.page}:${input.limit}`, () =>
    listOfEmployee(ctx.db.query, employeeId, { status, page: input.page, limit: input.limit }),
  );
}
