import { runEvery } from '@academy/kit';
import type { AcademicContext } from '../shared/academic-context.ts';
import { auditOverdueParts } from './privacy-requests.store.ts';

/**
 * A request never hangs silently: a service that has not answered PRIVACY_OVERDUE_AFTER_MS after the
 * request opened (down for long, its queue never declared, a release without its provider) is named
 * on the request once, in its audit trail (`not answered by <service>`, with since when), and in a
 * warning. The request stays open and keeps waiting for it (`waitingFor`): its answer still completes
 * it. The schedule is its caller, no person: `(ctx, input)`.
 */
export async function flagOverdueParts(ctx: AcademicContext, input: { now: Date }) {
  const openedBefore = new Date(input.now.getTime() - ctx.config.PRIVACY_OVERDUE_AFTER_MS);
  const named = await ctx.orm.em.fork().transactional((em) => auditOverdueParts(em, openedBefore, input.now));
  const byRequest = new Map<number, { requestId: string; services: string[] }>();
  for (const part of named) {
    const entry = byRequest.get(part.id) ?? { requestId: part.requestId, services: [] };
    entry.services.push(part.service);
    byRequest.set(part.id, entry);
  }
  for (const [id, { requestId, services }] of byRequest) {
    ctx.logger.warn({ privacyRequest: id, requestId, services }, 'privacy request: services have not answered in time');
  }
  return named;
}

/** Every PRIVACY_OVERDUE_CHECK_INTERVAL_MS at the service's clock (0: off); answers a stop that waits for a run in flight. */
export function startOverdueCheck(ctx: AcademicContext): () => Promise<void> {
  return runEvery(
    ctx.config.PRIVACY_OVERDUE_CHECK_INTERVAL_MS,
    () => flagOverdueParts(ctx, { now: ctx.clock.now() }),
    (error) => ctx.logger.warn({ err: error }, 'privacy request overdue check failed; the next run retries'),
    'privacy requests overdue check',
  );
}
