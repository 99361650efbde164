import { randomUUID } from 'node:crypto';
import type { Actor } from '@academy/auth';
import type { PrivacyRequestKind, PrivacySubjectKind } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import { personNotFound } from './privacy-requests.errors.ts';
import { audit, findErasure, findSubject, insertRequest, readRequest } from './privacy-requests.store.ts';
import { requestDetail } from './privacy-request-view.ts';
import { answeringServices, deadlineOf } from './privacy-services.ts';

/**
 * An admin opens an access or erasure request for a person of the directory: the request, a pending
 * part per answering service and the audit entry commit with `privacy.request.opened`. A person
 * already erased gets the erasure that did it (`created: false`); a second request while one runs is 409.
 */
export async function openPrivacyRequest(ctx: AcademicContext, input: { kind: PrivacyRequestKind; subject: { kind: PrivacySubjectKind; id: number } }, actor: Actor) {
  const now = ctx.clock.now();
  const { kind, subject } = input;
  const opened = await ctx.orm.em.fork().transactional(async (tx) => {
    const person = await findSubject(tx, subject.kind, subject.id);
    if (!person) throw personNotFound(subject.kind);
    if (person.erasedAt) {
      const erasure = await findErasure(tx, subject.kind, subject.id);
      if (erasure) return { id: erasure, created: false };
    }
    const requestId = randomUUID();
    const deadline = deadlineOf(now);
    const locale = person.locale ?? ctx.config.ACADEMY_LOCALE;
    const id = await insertRequest(tx, { id: requestId, kind, subjectKind: subject.kind, subjectId: subject.id, userId: person.userId, locale, services: ctx.config.PRIVACY_SERVICES.length > 0 ? ctx.config.PRIVACY_SERVICES : answeringServices(), openedBy: actor.userId, openedAt: now, deadline });
    await audit(tx, requestId, 'opened', actor.userId, now, kind);
    recordEvent(
      tx,
      'privacy.request.opened',
      { requestId, kind, subject: { kind: subject.kind, id: subject.id, userId: person.userId, email: person.email }, locale, openedAt: now.toISOString(), deadline: deadline.toISOString() },
      { source: SOURCE, correlationId: actor.correlationId },
    );
    await tx.flush();
    return { id, created: true };
  });
  if (opened.created) ctx.relay.nudge();
  const { request, parts, audit: trail } = (await readRequest(ctx.orm.em.fork(), opened.id))!;
  return { created: opened.created, request: requestDetail(request, parts, trail) };
}
