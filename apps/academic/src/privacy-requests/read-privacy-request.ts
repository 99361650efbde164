import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { requestNotFound } from './privacy-requests.errors.ts';
import { readRequest } from './privacy-requests.store.ts';
import { requestDetail } from './privacy-request-view.ts';

/** A request with its parts and audit trail; reading it is audited too (who looked, when). */
export async function readPrivacyRequest(ctx: AcademicContext, input: { id: number }, actor: Actor) {
  const found = await readRequest(ctx.orm.em.fork(), input.id, { userId: actor.userId, at: ctx.clock.now() });
  if (!found) throw requestNotFound();
  return requestDetail(found.request, found.parts, found.audit);
}
