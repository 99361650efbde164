import type { Actor } from '@academy/auth';
import type { AcademicContext } from '../shared/academic-context.ts';
import { listRequests, partsOf } from './privacy-requests.store.ts';
import { requestItem } from './privacy-request-view.ts';

const LIST_LIMIT = 200;

/** The newest requests first (200 at most), each with its parts: two queries. */
export async function listPrivacyRequests(ctx: AcademicContext, _input: Record<string, never>, _actor: Actor) {
  const em = ctx.orm.em.fork();
  const requests = await listRequests(em, LIST_LIMIT);
  const parts = await partsOf(em, requests.map((request) => request.request_id));
  return { data: requests.map((request) => requestItem(request, parts)) };
}
