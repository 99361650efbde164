// The SQL of personal data requests: the requests, each service's part, the audit trail, and the
// people they are about (academic's directory). The only code that knows these tables.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventData, Locale, PrivacyRequestKind, PrivacySubjectKind } from '@academy/contracts';
import { refusalAsConflict } from '../shared/records.store.ts';
import { requestRunning } from './privacy-requests.errors.ts';

export interface SubjectRecord {
  id: number;
  userId: number | null;
  email: string | null;
  locale: Locale | null;
  erasedAt: Date | null;
}

const SUBJECT_SQL: Record<PrivacySubjectKind, string> = {
  employee: `select e.id, coalesce(e.user_id, u.id) as user_id, coalesce(e.email, u.email) as email, u.locale, e.erased_at
             from employees e left join users u on u.employee_id = e.id where e.id = ? limit 1`,
  student: `select s.id, u.id as user_id, coalesce(s.email, u.email) as email, u.locale, s.erased_at
            from students s left join users u on u.student_id = s.id where s.id = ? limit 1`,
  guardian: `select g.id, null::int as user_id, g.email, null as locale, g.erased_at from guardians g where g.id = ?`,
};

/** The person of academic's directory a request is about, or null when there is none. */
export async function findSubject(em: EntityManager, kind: PrivacySubjectKind, id: number): Promise<SubjectRecord | null> {
  const [row] = await em.execute<{ id: number; user_id: number | null; email: string | null; locale: Locale | null; erased_at: Date | null }[]>(SUBJECT_SQL[kind], [id]);
  return row ? { id: row.id, userId: row.user_id, email: row.email, locale: row.locale, erasedAt: row.erased_at } : null;
}

export interface RequestRow {
  id: number;
  request_id: string;
  kind: PrivacyRequestKind;
  subject_kind: PrivacySubjectKind;
  subject_id: number;
  user_id: number | null;
  locale: Locale;
  status: 'open' | 'completed' | 'failed';
  services: string[];
  opened_by_user_id: number;
  opened_at: string | Date;
  deadline: string | Date;
  completed_at: string | Date | null;
}

export interface PartRow {
  request_id: string;
  service: string;
  status: 'pending' | 'done' | 'nothing-held' | 'failed';
  reason: string | null;
  attempts: number;
  answer: EventData<'privacy.part.answered'> | null;
  answered_at: string | Date | null;
}

export interface AuditRow {
  action: string;
  by_user_id: number | null;
  at: string | Date;
  detail: string | null;
}

/** The erasure that erased this person (completed), the latest first, or null. */
export async function findErasure(em: EntityManager, kind: PrivacySubjectKind, id: number): Promise<number | null> {
  const [row] = await em.execute<{ id: number }[]>(
    `select id from privacy_requests where subject_kind = ? and subject_id = ? and kind = 'erasure' and status <> 'open' order by opened_at desc limit 1`,
    [kind, id],
  );
  return row?.id ?? null;
}

/** Inserts a request and a pending part per service; a second running request for the person is a 409 (`privacy_requests_one_running`). */
export async function insertRequest(
  em: EntityManager,
  request: { id: string; kind: PrivacyRequestKind; subjectKind: PrivacySubjectKind; subjectId: number; userId: number | null; locale: Locale; services: string[]; openedBy: number; openedAt: Date; deadline: Date },
): Promise<number> {
  let id: number;
  try {
    const [row] = await em.execute<{ id: number }[]>(
      `insert into privacy_requests (request_id, kind, subject_kind, subject_id, user_id, locale, status, services, opened_by_user_id, opened_at, deadline)
       values (?, ?, ?, ?, ?, ?, 'open', ?::text[], ?, ?, ?) returning id`,
      [request.id, request.kind, request.subjectKind, request.subjectId, request.userId, request.locale, `{${request.services.join(',')}}`, request.openedBy, request.openedAt, request.deadline],
    );
    id = row!.id;
  } catch (error) {
    throw refusalAsConflict(error, { uniqueByConstraint: { privacy_requests_one_running: requestRunning() } });
  }
  await em.execute(`insert into privacy_request_parts (request_id, service) select ?, unnest(?::text[])`, [request.id, `{${request.services.join(',')}}`]);
  return id;
}

export async function audit(em: EntityManager, requestId: string, action: string, byUserId: number | null, at: Date, detail: string | null = null): Promise<void> {
  await em.execute(`insert into privacy_request_audit (request_id, action, by_user_id, at, detail) values (?, ?, ?, ?, ?)`, [requestId, action, byUserId, at, detail]);
}

/** The audit action naming a service that has not answered in time. */
export const notAnsweredBy = (service: string) => `not answered by ${service}`;

/**
 * Names on each open request opened at or before `openedBefore` every service still pending and not
 * named yet (an audit entry `not answered by <service>`, once): answers the parts named now. Runs in
 * the caller's transaction, which holds the check's lock until it commits.
 */
export async function auditOverdueParts(em: EntityManager, openedBefore: Date, at: Date): Promise<{ requestId: string; id: number; service: string }[]> {
  // One check at a time (every instance runs it): two at once would each see no entry yet and both
  // name the service. Taken before the statement, whose snapshot then sees the other's entries.
  await em.execute(`select pg_advisory_xact_lock(hashtext('academic.privacy-overdue'))`);
  return em.execute(
    `with overdue as (
       select r.request_id, r.id, p.service, r.opened_at
         from privacy_requests r join privacy_request_parts p on p.request_id = r.request_id
        where r.status = 'open' and r.opened_at <= ? and p.status = 'pending'
          and not exists (select 1 from privacy_request_audit a where a.request_id = r.request_id and a.action = 'not answered by ' || p.service)),
     named as (
       insert into privacy_request_audit (request_id, action, by_user_id, at, detail)
       select request_id, 'not answered by ' || service, null, ?, 'waiting since ' || to_char(opened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') from overdue)
     select request_id as "requestId", id, service from overdue order by id, service`,
    [openedBefore, at],
  );
}

export async function findRequest(em: EntityManager, id: number): Promise<RequestRow | null> {
  const [row] = await em.execute<RequestRow[]>(`select * from privacy_requests where id = ?`, [id]);
  return row ?? null;
}

/**
 * A request with its parts and audit trail, or null when there is none. A reading by someone
 * (`viewedBy`) is audited first, so the trail it answers shows it.
 */
export async function readRequest(em: EntityManager, id: number, viewedBy?: { userId: number; at: Date }): Promise<{ request: RequestRow; parts: PartRow[]; audit: AuditRow[] } | null> {
  const request = await findRequest(em, id);
  if (!request) return null;
  if (viewedBy) await audit(em, request.request_id, 'viewed', viewedBy.userId, viewedBy.at);
  return { request, parts: await partsOf(em, [request.request_id]), audit: await auditOf(em, request.request_id) };
}

/** The newest requests first (at most `limit`). */
export async function listRequests(em: EntityManager, limit: number): Promise<RequestRow[]> {
  return em.execute<RequestRow[]>(`select * from privacy_requests order by opened_at desc, id limit ?`, [limit]);
}

/** The parts of the requests, in one query. */
export async function partsOf(em: EntityManager, requestIds: string[]): Promise<PartRow[]> {
  if (requestIds.length === 0) return [];
  return em.execute<PartRow[]>(`select * from privacy_request_parts where request_id = any(?::uuid[]) order by service`, [`{${requestIds.join(',')}}`]);
}

export async function auditOf(em: EntityManager, requestId: string): Promise<AuditRow[]> {
  return em.execute<AuditRow[]>(`select action, by_user_id, at, detail from privacy_request_audit where request_id = ? order by id`, [requestId]);
}

/**
 * Records a service's answer (the first one wins: a redelivered or replayed answer changes nothing)
 * and, once no part is pending, completes the request (`failed` when a part failed). Answers whether
 * this answer was new and the request's status after it. Runs in the caller's transaction, which holds
 * the request's row until it commits.
 */
export async function recordAnswer(em: EntityManager, answer: EventData<'privacy.part.answered'>, at: Date): Promise<{ recorded: boolean; status: RequestRow['status'] | null }> {
  // Answers of one request are taken one at a time: two services answering at once would each see
  // the other's part still pending (neither committed) and neither would complete the request.
  await em.execute(`select 1 from privacy_requests where request_id = ? for update`, [answer.requestId]);
  const recorded = await em.execute<{ service: string }[]>(
    `update privacy_request_parts set status = ?, reason = ?, attempts = ?, answer = ?, answered_at = ?
     where request_id = ? and service = ? and status = 'pending' returning service`,
    [answer.status, answer.reason, answer.attempts, JSON.stringify(answer), answer.answeredAt, answer.requestId, answer.service],
  );
  const [request] = await em.execute<{ status: RequestRow['status'] }[]>(
    `update privacy_requests r set
       status = case when exists (select 1 from privacy_request_parts p where p.request_id = r.request_id and p.status = 'failed') then 'failed' else 'completed' end,
       completed_at = ?
     where r.request_id = ? and r.status = 'open' and not exists (select 1 from privacy_request_parts p where p.request_id = r.request_id and p.status = 'pending')
     returning status`,
    [at, answer.requestId],
  );
  return { recorded: recorded.length > 0, status: request?.status ?? null };
}
