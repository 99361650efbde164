import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { requestNotFound } from './privacy-requests.errors.ts';
import { audit, auditOf, findRequest, partsOf } from './privacy-requests.store.ts';
import { requestDetail } from './privacy-request-view.ts';

/** A request with its parts and audit trail; reading it is audited too (who looked, when). */
export async function readPrivacyRequest(ctx: AcademicContext, input: { id: number }, actor: Actor, options: { audited?: boolean } = {}) {
  const em = ctx.orm.em.fork();
  const request = await findRequest(em, input.id);
  if (!request) throw requestNotFound();
  if (options.audited ?? true) await audit(em, request.request_id, 'viewed', actor.userId, ctx.clock.now());
  return requestDetail(request, await partsOf(em, [request.request_id]), await auditOf(em, request.request_id));
}
