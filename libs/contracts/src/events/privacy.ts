import { z } from 'zod';
import { Locale } from '../locale.ts';

// The personal data requests' saga (issue 35; libs/privacy README): academic opens a request, every
// service that holds personal data answers its part. Ids and what each service needs to find the
// person's rows; no name, no tax id.
const id = z.number().int().positive();
const isoDateTime = z.iso.datetime({ offset: true });

export const PRIVACY_SUBJECT_KINDS = ['employee', 'student', 'guardian'] as const;
/** Whose data: an employee, a student or a guardian of academic's directory. */
export const PrivacySubjectKind = z.enum(PRIVACY_SUBJECT_KINDS);
export type PrivacySubjectKind = z.infer<typeof PrivacySubjectKind>;

export const PRIVACY_REQUEST_KINDS = ['access', 'erasure'] as const;
/** GDPR art. 15 (a copy of everything held) or art. 17 (erase what no law requires keeping). */
export const PrivacyRequestKind = z.enum(PRIVACY_REQUEST_KINDS);
export type PrivacyRequestKind = z.infer<typeof PrivacyRequestKind>;

/**
 * The person a request is about, as every service can find them: `id` is the employee's, student's
 * or guardian's id in academic (what replicas and other services key on: `employeeId`, `studentId`);
 * `userId` their login when they have one (notifications' device tokens and preferences);
 * `email` their address when they have one (so mails to it stop; notifications keeps no directory).
 */
export const PrivacySubject = z.object({
  kind: PrivacySubjectKind,
  id,
  userId: id.nullable(),
  email: z.email().nullable(),
});
export type PrivacySubject = z.infer<typeof PrivacySubject>;

/**
 * An administrator opened an access or erasure request (`privacy.request.opened`): every service
 * that consumes it answers with one `privacy.part.answered`. Redelivered or replayed, a service
 * answers the same request once (its answer is recorded with the request id).
 */
export const PrivacyRequestOpened = z.object({
  /** The request's id (uuid): the key of every answer and of the export's parts. */
  requestId: z.uuid(),
  kind: PrivacyRequestKind,
  subject: PrivacySubject,
  /** The language of the person (the export's README is written in it). */
  locale: Locale,
  openedAt: isoDateTime,
  /** One month after `openedAt` (GDPR art. 12.3). */
  deadline: isoDateTime,
});

/** Something a law requires keeping after an erasure: restricted (no longer shown in lists, mails or pushes) until `until`. */
export const PrivacyKept = z.object({
  /** What is kept, in words an administrator reads ("payslips (3 files)", "daily time records 2024-2026"). */
  what: z.string().min(1).max(500),
  /** The law that requires it ("Estatuto de los Trabajadores art. 34.9"). */
  legalBasis: z.string().min(1).max(500),
  /** The day it will be removed (the academy's date). */
  until: z.iso.date(),
});
export type PrivacyKept = z.infer<typeof PrivacyKept>;

/** One provider's (a feature's) share of a service's answer. */
export const PrivacyFeatureAnswer = z.object({
  /** `<service>.<feature>`, e.g. `incidents.time-records`. */
  feature: z.string().min(1).max(100),
  status: z.enum(['done', 'nothing-held']),
  /** Erasure: what was erased or anonymized, with how many records. */
  erased: z.array(z.object({ what: z.string().min(1).max(500), count: z.number().int().min(0) })),
  /** Erasure: what is kept, with its legal basis and removal date. */
  kept: z.array(PrivacyKept),
  /** Access: the files of the export this feature wrote (its JSON and its attachments). */
  entries: z.number().int().min(0),
});

/**
 * A service answered its part of a request (`privacy.part.answered`). `done`: exported or erased;
 * `nothing-held`: it holds nothing about the person; `failed`: its providers failed every attempt
 * (`reason` says why, never a personal value). An access part is kept by the service, encrypted,
 * until `export.expiresAt`; academic streams it into the ZIP from the service's internal route.
 */
export const PrivacyPartAnswered = z.object({
  requestId: z.uuid(),
  kind: PrivacyRequestKind,
  /** The answering service (an app of APP_EVENTS). */
  service: z.string().min(1).max(50),
  status: z.enum(['done', 'nothing-held', 'failed']),
  reason: z.string().max(2000).nullable(),
  /** How many attempts it took (1 when the first one answered). */
  attempts: z.number().int().positive(),
  features: z.array(PrivacyFeatureAnswer),
  /** Access and done: the part's size, for the request's page; null otherwise. */
  export: z.object({ entries: z.number().int().min(0), sizeBytes: z.number().int().min(0), expiresAt: isoDateTime }).nullable(),
  answeredAt: isoDateTime,
});
