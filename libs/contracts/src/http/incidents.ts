import { z } from 'zod';
import { IdText, PageMeta, errorResponses, jsonContent as json, nullableRef, queryObject } from './common.ts';
import { contract, routeFamily } from '../routes.ts';

// Time records (clock-in/out, history, monthly PDF) and their incidents (spec "Time-record
// incidents", 1.1.2, 1.2.1, 1.2.2): request and response schemas of the incidents service.

const id = z.number().int().positive();
const isoDateTime = z.iso.datetime({ offset: true });

/** Where a clock-in or clock-out was made (spec 1.2.2). */
export const CLOCK_SOURCES = ['App', 'Web'] as const;
export const ClockSource = z.enum(CLOCK_SOURCES, { error: 'must be "App" or "Web"' });
export type ClockSource = z.infer<typeof ClockSource>;

/** Stored as PostgreSQL text, which cannot hold a NUL character. */
const noNul = (value: string) => !value.includes('\u0000');

export const ClockBody = z.strictObject({
  source: ClockSource,
  deviceId: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(128, { error: 'must be at most 128 characters' })
    .refine(noNul, { error: 'must not contain NUL characters' })
    .optional()
    .meta({ description: 'The device that made the clock (recorded on the record and on any incident it causes)' }),
});
export type ClockBody = z.infer<typeof ClockBody>;

export const TimeRecord = z
  .object({
    id,
    employeeId: id,
    clockInAt: isoDateTime,
    clockOutAt: isoDateTime.nullable(),
    clockInSource: ClockSource,
    clockInDeviceId: z.string().nullable(),
    clockOutSource: ClockSource.nullable(),
    clockOutDeviceId: z.string().nullable(),
    workedMinutes: z.number().int().meta({ description: 'Whole minutes from clock-in to clock-out (to now while open)' }),
  })
  .meta({ id: 'TimeRecord' });
export type TimeRecord = z.infer<typeof TimeRecord>;

export const ClockInResponse = z.object({ message: z.string(), data: TimeRecord });
export const ClockOutResponse = z.object({ message: z.string(), data: TimeRecord });
export const OpenRecordResponse = z.object({ hasOpenRecord: z.boolean(), record: nullableRef(TimeRecord) }).meta({ id: 'OpenRecord' });

/** `YYYY-MM-DD`, a real calendar day the database stores (years 1–9999: PostgreSQL has no year 0). */
const calendarDay = z.iso
  .date({ error: 'must be a date YYYY-MM-DD' })
  .refine((day) => !day.startsWith('0000'), { error: 'must be between years 1 and 9999' });

export const HISTORY_MAX_DAYS = 366;
export const HISTORY_MAX_PAGE_SIZE = 100;

export const HistoryQuery = queryObject({
  employeeId: IdText.optional().meta({ description: "Admins: whose history (required for an admin without an employee of their own). Users: only their own" }),
  from: calendarDay.optional().meta({ description: 'First day (inclusive); 30 days before `to` when omitted' }),
  to: calendarDay.optional().meta({ description: 'Last day (inclusive); today when omitted' }),
  page: IdText.default(1),
  limit: IdText.max(HISTORY_MAX_PAGE_SIZE, { error: `must be at most ${HISTORY_MAX_PAGE_SIZE}` }).default(31),
}).refine((q) => !q.from || !q.to || q.from <= q.to, { error: '`from` must not be after `to`', path: ['from'] });
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const HistoryDay = z
  .object({
    date: calendarDay,
    workedMinutes: z.number().int(),
    worked: z.string().meta({ description: '`<H>h <M>m`', example: '7h 30m' }),
    /** A record crossing midnight counts on each day for the part inside it. */
    records: z.array(TimeRecord),
  })
  .meta({ id: 'TimeRecordHistoryDay' });
export const HistoryResponse = z.object({
  employeeId: id,
  from: calendarDay,
  to: calendarDay,
  totalWorkedMinutes: z.number().int(),
  data: z.array(HistoryDay),
  meta: PageMeta,
});

export const ReportQuery = queryObject({
  employeeId: IdText.optional().meta({ description: 'Admins: whose report. Users: only their own (the default)' }),
  month: z
    .string()
    .regex(/^(?!0000)\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a month YYYY-MM (01–12, years 1–9999)' })
    .meta({ example: '2026-01' }),
});
export type ReportQuery = z.infer<typeof ReportQuery>;

// ------------------------------------------------------------------------------- incidents

export const INCIDENT_KINDS = ['CLOCK_IN_WHILE_OPEN', 'CLOCK_OUT_WITHOUT_OPEN', 'RECORD_OPEN_TOO_LONG', 'ABSENCE', 'LATE_CLOCK_IN'] as const;
export const IncidentKind = z.enum(INCIDENT_KINDS);
export type IncidentKind = z.infer<typeof IncidentKind>;
export const IncidentSeverity = z.enum(['low', 'medium', 'high']);
export type IncidentSeverity = z.infer<typeof IncidentSeverity>;
export const IncidentStatus = z.enum(['open', 'closed'], { error: 'must be "open" or "closed"' });
export type IncidentStatus = z.infer<typeof IncidentStatus>;

export const IncidentSummary = z
  .object({
    id,
    employeeId: id,
    employeeName: z.string().nullable(),
    kind: IncidentKind,
    severity: IncidentSeverity,
    status: IncidentStatus,
    description: z.string(),
    source: ClockSource.nullable().meta({ description: 'From the request that caused it; null for the scheduled check' }),
    deviceId: z.string().nullable(),
    timeRecordId: id.nullable(),
    day: calendarDay.nullable().meta({ description: 'The employee-day of a day-based incident (absence, clock-out without record)' }),
    proposedEndAt: isoDateTime.nullable().meta({ description: 'For a record left open: a proposed clock-out time, for the admin to confirm' }),
    messageCount: z.number().int(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    closedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'IncidentSummary' });
export type IncidentSummary = z.infer<typeof IncidentSummary>;

export const IncidentFile = z
  .object({
    id,
    messageId: id,
    fileName: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    url: z.string().meta({ description: 'Download path (same authorization as the incident)' }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'IncidentFile' });

export const IncidentMessage = z
  .object({
    id,
    authorRole: z.enum(['employee', 'admin']),
    authorUserId: id.nullable(),
    message: z.string().meta({ description: 'Stored and returned as plain text (HTML is not interpreted)' }),
    files: z.array(IncidentFile),
    createdAt: isoDateTime,
  })
  .meta({ id: 'IncidentMessage' });

export const IncidentDetail = IncidentSummary.extend({ messages: z.array(IncidentMessage), files: z.array(IncidentFile) }).meta({ id: 'IncidentDetail' });
export type IncidentDetail = z.infer<typeof IncidentDetail>;

export const INCIDENT_MAX_PAGE_SIZE = 100;
const pageFields = {
  page: IdText.default(1),
  limit: IdText.max(INCIDENT_MAX_PAGE_SIZE, { error: `must be at most ${INCIDENT_MAX_PAGE_SIZE}` }).default(20),
};

export const IncidentListQuery = queryObject({
  status: IncidentStatus.optional(),
  employeeId: IdText.optional(),
  kind: IncidentKind.optional(),
  severity: IncidentSeverity.optional(),
  from: calendarDay.optional().meta({ description: 'Created on or after this day (UTC)' }),
  to: calendarDay.optional().meta({ description: 'Created on or before this day (UTC)' }),
  sort: z.enum(['severity', 'newest']).default('severity').meta({ description: '`severity`: most severe first, then newest' }),
  ...pageFields,
}).refine((q) => !q.from || !q.to || q.from <= q.to, { error: '`from` must not be after `to`', path: ['from'] });
export type IncidentListQuery = z.infer<typeof IncidentListQuery>;

export const MyIncidentsQuery = queryObject({ status: IncidentStatus.optional(), ...pageFields });
export type MyIncidentsQuery = z.infer<typeof MyIncidentsQuery>;

export const IncidentPage = z.object({ data: z.array(IncidentSummary), meta: PageMeta }).meta({ id: 'IncidentPage' });

export const INCIDENT_MESSAGE_MAX = 5000;
export const IncidentMessageBody = z.strictObject({
  message: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(INCIDENT_MESSAGE_MAX, { error: `must be at most ${INCIDENT_MESSAGE_MAX} characters` })
    .refine(noNul, { error: 'must not contain NUL characters' }),
});
export type IncidentMessageBody = z.infer<typeof IncidentMessageBody>;

export const INCIDENT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const INCIDENT_FILES_PER_MESSAGE = 5;
export const INCIDENT_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;

export const IncidentMessageResponse = z.object({ message: z.string(), data: IncidentMessage });
export const ThreadsResponse = z.object({ incidentId: id, data: z.array(IncidentMessage) }).meta({ id: 'IncidentThreads' });
export const CloseIncidentBody = z.strictObject({
  message: IncidentMessageBody.shape.message.optional().meta({ description: 'A closing note, added to the thread' }),
});
export const IncidentResponse = z.object({ message: z.string(), data: IncidentSummary });

export const IncidentFileParams = z.object({ id: IdText, fileId: IdText });

// ------------------------------------------------------------------------------- routes

/** `/api/v2/timerecord`: every route needs a token; the token's employee clocks, history and report are own (any for admins). */
export const timeRecordsApi = routeFamily({ prefix: '/api/v2/timerecord', service: 'incidents', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['timerecord'] });

/**
 * `/api/v2/incident`: every route needs a token. Messages carry attachments (multipart): up to
 * INCIDENT_FILES_PER_MESSAGE files of INCIDENT_FILE_MAX_BYTES, checked by the service as they stream.
 */
export const incidentsApi = routeFamily({
  prefix: '/api/v2/incident',
  service: 'incidents',
  access: 'bearer',
  errorStyle: 'default',
  unauthorizedMessage: 'Unauthorized',
  tags: ['incidents'],
  maxBodyBytes: INCIDENT_FILES_PER_MESSAGE * INCIDENT_FILE_MAX_BYTES + 1024 * 1024,
});

const binary = z.string().meta({ format: 'binary' });
const incidentId = z.object({ id: IdText });
const adminOnly = { role: 'admin', roleRefusal: { message: 'Only administrators may do this' } } as const;

const clockErrors = errorResponses({
  400: 'VALIDATION_ERROR (source, deviceId)',
  403: 'NOT_AN_EMPLOYEE (the token has no employee), EMPLOYEE_INACTIVE (clock-in of a deactivated employee), EMPLOYEE_DELETED (clock-out of an erased employee)',
  409: 'See the summary',
});

export const clockInRoute = timeRecordsApi.route({
  method: 'post',
  path: '/api/v2/timerecord/clock-in',
  summary: "Clock in (the token's employee). With a record already open: 409 TIME_RECORD_ALREADY_OPEN and a CLOCK_IN_WHILE_OPEN incident",
  request: { body: ClockBody },
  responses: { 201: json(ClockInResponse, 'The record'), ...clockErrors },
});

export const clockOutRoute = timeRecordsApi.route({
  method: 'post',
  path: '/api/v2/timerecord/clock-out',
  summary:
    'Clock out the open record. Without one: 409 NO_OPEN_TIME_RECORD and a CLOCK_OUT_WITHOUT_OPEN incident (a repeat within minutes of the last clock-out: 409 ALREADY_CLOCKED_OUT, no incident)',
  request: { body: ClockBody },
  responses: { 200: json(ClockOutResponse, 'The record'), ...clockErrors },
});

export const openRecordRoute = timeRecordsApi.route({
  method: 'get',
  path: '/api/v2/timerecord/open',
  summary: 'Whether the employee has an open time record, and which',
  responses: { 200: json(OpenRecordResponse, 'Open record state'), ...errorResponses({ 403: 'NOT_AN_EMPLOYEE' }) },
});

export const historyRoute = timeRecordsApi.route({
  method: 'get',
  path: '/api/v2/timerecord/history',
  summary: 'Clock-in history with worked time per day (newest day first), paginated by day',
  request: { query: HistoryQuery },
  responses: { 200: json(HistoryResponse, 'Days with records'), ...errorResponses({ 400: 'VALIDATION_ERROR', 403: "A user reading another employee's history" }) },
});

export const reportPdfRoute = timeRecordsApi.route({
  method: 'get',
  path: '/api/v2/timerecord/report.pdf',
  summary: 'Monthly PDF report of the records and totals',
  description: 'In Spanish or English as `Accept-Language` asks (English otherwise; the answer names it in `Content-Language`); times in the academy\'s time zone.',
  request: { query: ReportQuery },
  responses: {
    200: { description: 'The report', content: { 'application/pdf': { schema: binary } } },
    ...errorResponses({ 400: 'VALIDATION_ERROR (month YYYY-MM)', 403: "A user reading another employee's report" }),
  },
});

export const listIncidentsRoute = incidentsApi.route({
  method: 'get',
  path: '/api/v2/incident/',
  summary: 'Incidents with filters, most severe first (admin)',
  ...adminOnly,
  request: { query: IncidentListQuery },
  responses: { 200: json(IncidentPage, 'A page of incidents'), ...errorResponses({ 400: 'VALIDATION_ERROR', 403: 'Not an administrator' }) },
});

export const myIncidentsRoute = incidentsApi.route({
  method: 'get',
  path: '/api/v2/incident/my',
  summary: "The employee's own incidents (cached 24 h)",
  request: { query: MyIncidentsQuery },
  responses: { 200: json(IncidentPage, 'A page of incidents'), ...errorResponses({ 400: 'VALIDATION_ERROR', 403: 'NOT_AN_EMPLOYEE' }) },
});

export const readIncidentRoute = incidentsApi.route({
  method: 'get',
  path: '/api/v2/incident/{id}',
  summary: 'Incident detail with files and messages (cached 24 h); a user reads only their own',
  request: { params: incidentId },
  responses: { 200: json(z.object({ data: IncidentDetail }), 'The incident'), ...errorResponses({ 400: 'VALIDATION_ERROR (id)', 404: "INCIDENT_NOT_FOUND (also for another employee's)" }) },
});

export const readThreadsRoute = incidentsApi.route({
  method: 'get',
  path: '/api/v2/incident/{id}/threads',
  summary: 'The conversation of an incident, oldest message first (cached 24 h)',
  request: { params: incidentId },
  responses: { 200: json(ThreadsResponse, 'Messages'), ...errorResponses({ 400: 'VALIDATION_ERROR (id)', 404: 'INCIDENT_NOT_FOUND' }) },
});

/** A thread message as multipart/form-data: its text and up to five files. */
const multipartMessage = z.object({
  message: IncidentMessageBody.shape.message,
  files: z
    .array(binary)
    .max(INCIDENT_FILES_PER_MESSAGE)
    .optional()
    .meta({ description: `Up to ${INCIDENT_FILES_PER_MESSAGE} attachments of at most 10 MB each: ${INCIDENT_FILE_TYPES.join(', ')}` }),
});

const threadRoute = (path: 'thread' | 'admin-thread', who: string, forbidden: string, access: Partial<typeof adminOnly>) =>
  incidentsApi.route({
    method: 'post',
    path: `/api/v2/incident/{id}/${path}`,
    summary: `${who}: JSON \`{message}\`, or multipart/form-data with \`message\` and \`files\``,
    ...access,
    // The handler reads the body in either type: multipart is streamed to storage, file by file.
    request: { params: incidentId, bodies: { 'application/json': IncidentMessageBody, 'multipart/form-data': multipartMessage } },
    responses: {
      201: json(IncidentMessageResponse, 'The message'),
      ...errorResponses({
        400: 'VALIDATION_ERROR (message empty, too long, NUL), MALFORMED_MULTIPART',
        403: forbidden,
        404: 'INCIDENT_NOT_FOUND',
        409: 'INCIDENT_CLOSED',
        413: 'PAYLOAD_TOO_LARGE, FILE_TOO_LARGE (10 MB), TOO_MANY_FILES',
        415: 'FILE_TYPE_NOT_ALLOWED, UNSUPPORTED_MEDIA_TYPE',
      }),
    },
  });

export const employeeThreadRoute = threadRoute('thread', 'The employee replies on their own incident', 'Administrators use admin-thread', {});
export const adminThreadRoute = threadRoute('admin-thread', 'An administrator writes on an incident', 'Not an administrator', adminOnly);

export const incidentFileRoute = incidentsApi.route({
  method: 'get',
  path: '/api/v2/incident/{id}/files/{fileId}',
  summary: 'Download an attachment (whoever may read the incident)',
  request: { params: IncidentFileParams },
  responses: {
    200: { description: 'The file', content: { 'application/octet-stream': { schema: binary } } },
    ...errorResponses({ 400: 'VALIDATION_ERROR', 404: 'INCIDENT_NOT_FOUND or FILE_NOT_FOUND' }),
  },
});

export const closeIncidentRoute = incidentsApi.route({
  method: 'post',
  path: '/api/v2/incident/{id}/close',
  summary: 'Close an incident, with an optional closing note (admin)',
  ...adminOnly,
  request: { params: incidentId, body: CloseIncidentBody, bodyRequired: false },
  responses: { 200: json(IncidentResponse, 'Closed'), ...errorResponses({ 400: 'VALIDATION_ERROR', 403: 'Not an administrator', 404: 'INCIDENT_NOT_FOUND', 409: 'INCIDENT_CLOSED' }) },
});

export const deleteIncidentRoute = incidentsApi.route({
  method: 'delete',
  path: '/api/v2/incident/{id}',
  summary: 'Delete an incident (admin). Soft: its key stays, so the check never re-creates it',
  ...adminOnly,
  request: { params: incidentId },
  responses: { 200: json(IncidentResponse, 'Deleted'), ...errorResponses({ 400: 'VALIDATION_ERROR', 403: 'Not an administrator', 404: 'INCIDENT_NOT_FOUND' }) },
});

/** Time records' routes by name: `time-records.routes.ts` implements each. */
export const timeRecordsContract = contract({
  clockIn: clockInRoute,
  clockOut: clockOutRoute,
  openRecord: openRecordRoute,
  history: historyRoute,
  reportPdf: reportPdfRoute,
});

/** Incidents' routes by name: `incidents.routes.ts` implements each. */
export const incidentsContract = contract({
  list: listIncidentsRoute,
  mine: myIncidentsRoute,
  read: readIncidentRoute,
  readThreads: readThreadsRoute,
  employeeThread: employeeThreadRoute,
  adminThread: adminThreadRoute,
  file: incidentFileRoute,
  close: closeIncidentRoute,
  delete: deleteIncidentRoute,
});
