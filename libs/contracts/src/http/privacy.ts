import { z } from 'zod';
import { PrivacyKept, PrivacyRequestKind, PrivacySubjectKind } from '../events/privacy.ts';
import { routeFamily } from '../routes.ts';
import { errorResponses, Id, IdPathParam, jsonContent, NoQuery } from './common.ts';

// Personal data requests (issue 35; libs/privacy README): admins open an access or erasure request
// for a person of academic's directory, follow each service's answer, and download the export.

export const privacyRequestsApi = routeFamily({
  prefix: '/api/v2/privacy-requests',
  service: 'academic',
  access: 'bearer',
  errorStyle: 'default',
  unauthorizedMessage: 'Unauthorized',
  tags: ['Personal data requests'],
});

export const PrivacyRequestOpenBody = z.strictObject({
  kind: PrivacyRequestKind,
  subject: z.strictObject({ kind: PrivacySubjectKind, id: Id }),
});

const isoDateTime = z.iso.datetime({ offset: true });

/** One service's answer as the request shows it: `pending` until it answers. */
export const PrivacyRequestPart = z.object({
  service: z.string(),
  status: z.enum(['pending', 'done', 'nothing-held', 'failed']),
  reason: z.string().nullable(),
  attempts: z.number().int().min(0),
  answeredAt: isoDateTime.nullable(),
  features: z.array(
    z.object({
      feature: z.string(),
      status: z.enum(['done', 'nothing-held']),
      erased: z.array(z.object({ what: z.string(), count: z.number().int() })),
      kept: z.array(PrivacyKept),
      entries: z.number().int(),
    }),
  ),
  export: z.object({ entries: z.number().int(), sizeBytes: z.number().int(), expiresAt: isoDateTime }).nullable(),
});

export const PrivacyRequestAuditEntry = z.object({ action: z.string(), byUserId: z.number().int().nullable(), at: isoDateTime, detail: z.string().nullable() });

export const PrivacyRequestItem = z.object({
  id: z.number().int(),
  /** The saga's key: every service's answer and export part carry it. */
  requestId: z.uuid(),
  kind: PrivacyRequestKind,
  subject: z.object({ kind: PrivacySubjectKind, id: z.number().int() }),
  /** `open` while a service has not answered; `completed` once every one did (`failed` parts included: see `parts`); `failed` when one answered failed. */
  status: z.enum(['open', 'completed', 'failed']),
  openedAt: isoDateTime,
  openedByUserId: z.number().int(),
  /** One month after opening (GDPR art. 12.3). */
  deadline: isoDateTime,
  completedAt: isoDateTime.nullable(),
  /** The services that have not answered yet. */
  waitingFor: z.array(z.string()),
  parts: z.array(PrivacyRequestPart),
});
export const PrivacyRequestDetail = PrivacyRequestItem.extend({ audit: z.array(PrivacyRequestAuditEntry) });
export const PrivacyRequestList = z.object({ data: z.array(PrivacyRequestItem) });


export const openPrivacyRequestRoute = privacyRequestsApi.route({
  method: 'post',
  path: '/api/v2/privacy-requests',
  summary: 'Open an access or erasure request for an employee, a student or a guardian (admin); publishes privacy.request.opened',
  description: 'A person already erased: 200 with that erasure request (its outcome) instead of a new one.',
  role: 'admin',
  request: { body: PrivacyRequestOpenBody },
  responses: {
    201: jsonContent(PrivacyRequestDetail, 'Opened'),
    200: jsonContent(PrivacyRequestDetail, 'The person was already erased: the erasure request that did it'),
    ...errorResponses({ 400: 'Invalid input', 403: 'Not allowed for this role', 404: 'No such person', 409: 'A request for this person is still running' }),
  },
});

export const listPrivacyRequestsRoute = privacyRequestsApi.route({
  method: 'get',
  path: '/api/v2/privacy-requests',
  summary: 'Every request, the newest first, with each service state (admin)',
  role: 'admin',
  request: { query: NoQuery },
  responses: { 200: jsonContent(PrivacyRequestList, 'The requests'), ...errorResponses({ 400: 'Invalid input', 403: 'Not allowed for this role' }) },
});

export const readPrivacyRequestRoute = privacyRequestsApi.route({
  method: 'get',
  path: '/api/v2/privacy-requests/{id}',
  summary: 'A request: its state per service, deadline, outcome and audit trail (admin)',
  role: 'admin',
  request: { params: IdPathParam('id'), query: NoQuery },
  responses: { 200: jsonContent(PrivacyRequestDetail, 'The request'), ...errorResponses({ 400: 'Invalid input', 403: 'Not allowed for this role', 404: 'No such request' }) },
});

export const downloadPrivacyExportRoute = privacyRequestsApi.route({
  method: 'get',
  path: '/api/v2/privacy-requests/{id}/export',
  summary: "An access request's export: one ZIP, streamed, with a JSON file per service and feature, the files and a README in the person's language (admin)",
  role: 'admin',
  request: { params: IdPathParam('id'), query: NoQuery },
  responses: {
    200: { description: 'The ZIP (attachment, private, no-store)', content: { 'application/zip': { schema: z.string().meta({ format: 'binary' }) } } },
    ...errorResponses({
      400: 'Invalid input',
      403: 'Not allowed for this role',
      404: 'No such request',
      409: 'Not an access request, or not every service has answered yet',
      410: 'The export was removed (30 days after the answers)',
      503: 'A service holding a part cannot be reached',
    }),
  },
});
