import { z } from 'zod';
import { Id, IdPathParam, IdText, PageMeta, errorResponses, jsonContent, queryObject } from './common.ts';
import { contract, routeFamily } from '../routes.ts';

// Payslips (spec capability "payslips", 1.1.0: several per month, deletion from the admin panel,
// the full date in the list): one payslip, the month's combined PDF (batches), lists, download.

/** `YYYY-MM-DD`, a real calendar day the database stores (years 1–9999: PostgreSQL has no year 0). */
const calendarDay = z.iso
  .date({ error: 'must be a date YYYY-MM-DD' })
  .refine((day) => !day.startsWith('0000'), { error: 'must be between years 1 and 9999' });
const noNul = (value: string) => !value.includes('\u0000');
const text = (min: number, max: number) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
    .max(max, { error: `must be at most ${max} characters` })
    .refine(noNul, { error: 'must not contain NUL characters' });
const yearText = z
  .string({ error: 'must be a year YYYY' })
  .regex(/^[1-9][0-9]{3}$/, { error: 'must be a year YYYY' })
  .transform(Number);
const endNotBeforeStart = <T extends { periodStart?: string; periodEnd?: string }>(value: T) =>
  !value.periodStart || !value.periodEnd || value.periodStart <= value.periodEnd;
const endRule = { error: '`periodEnd` must not be before `periodStart`', path: ['periodEnd'] };

export const PAYSLIP_LABEL_MAX = 120;
/** Largest combined PDF the gateway lets through (the service's BATCH_MAX_MB default; it checks its own limit as the bytes stream). */
export const PAYSLIP_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;
export const PAYSLIP_MATCH_BY = ['taxId', 'payrollCode'] as const;

/** The text fields of `POST /api/v2/payslips` (multipart, with the PDF as `file`). */
export const PayslipUploadFields = z
  .strictObject({
    employeeId: IdText,
    periodStart: calendarDay,
    periodEnd: calendarDay,
    issuedOn: calendarDay.optional().meta({ description: "Today in the academy's time zone when omitted" }),
    label: text(1, PAYSLIP_LABEL_MAX).meta({ example: 'Nómina noviembre' }),
  })
  .refine(endNotBeforeStart, endRule);
export type PayslipUploadFields = z.infer<typeof PayslipUploadFields>;

/** The text fields of `POST /api/v2/payslips/:id/replace`: what is not given is kept from the corrected payslip. */
export const PayslipReplaceFields = z
  .strictObject({
    periodStart: calendarDay.optional(),
    periodEnd: calendarDay.optional(),
    issuedOn: calendarDay.optional().meta({ description: "Today in the academy's time zone when omitted" }),
    label: text(1, PAYSLIP_LABEL_MAX).optional(),
  })
  .refine(endNotBeforeStart, endRule);
export type PayslipReplaceFields = z.infer<typeof PayslipReplaceFields>;

/** The text fields of `POST /api/v2/payslips/batches` (multipart, with the combined PDF as `file`). */
export const PayslipBatchFields = z
  .strictObject({
    periodStart: calendarDay,
    periodEnd: calendarDay,
    issuedOn: calendarDay.optional().meta({ description: "Today in the academy's time zone when omitted" }),
    label: text(1, PAYSLIP_LABEL_MAX),
    matchBy: z.enum(PAYSLIP_MATCH_BY, { error: 'must be "taxId" or "payrollCode"' }),
  })
  .refine(endNotBeforeStart, endRule);
export type PayslipBatchFields = z.infer<typeof PayslipBatchFields>;

export const MyPayslipsQuery = queryObject({ year: yearText.optional() });
export type MyPayslipsQuery = z.infer<typeof MyPayslipsQuery>;

export const PAYSLIPS_MAX_PAGE_SIZE = 100;
export const AdminPayslipsQuery = queryObject({
  employeeId: IdText.optional(),
  year: yearText.optional(),
  month: IdText.max(12, { error: 'must be a month 1–12' }).optional().meta({ description: 'Month of `periodStart` (needs `year`)' }),
  include: z.literal('deleted', { error: 'must be "deleted"' }).optional().meta({ description: '`deleted`: deleted and superseded payslips too' }),
  page: IdText.default(1),
  limit: IdText.max(PAYSLIPS_MAX_PAGE_SIZE, { error: `must be at most ${PAYSLIPS_MAX_PAGE_SIZE}` }).default(20),
}).refine((query) => query.month === undefined || query.year !== undefined, { error: '`month` needs `year`', path: ['month'] });
export type AdminPayslipsQuery = z.infer<typeof AdminPayslipsQuery>;

export const DeletePayslipBody = z.strictObject({ reason: text(3, 500).meta({ description: 'Why (kept in the audit until the retention period ends)' }) });
export type DeletePayslipBody = z.infer<typeof DeletePayslipBody>;

export const AssignPageBody = z.strictObject({ employeeId: Id });
export type AssignPageBody = z.infer<typeof AssignPageBody>;

export const BatchPageParams = z.object({ id: IdText, page: IdText });

/** A payslip as its employee sees it. */
export const MyPayslip = z
  .object({
    id: Id,
    label: z.string(),
    periodStart: calendarDay,
    periodEnd: calendarDay,
    issuedOn: calendarDay,
    sizeBytes: z.number().int(),
    /** It corrects an earlier payslip (which is no longer listed). */
    correction: z.boolean(),
    publishedAt: z.iso.datetime(),
  })
  .meta({ id: 'MyPayslip' });
export type MyPayslip = z.infer<typeof MyPayslip>;

/** A payslip as an administrator sees it: who it is for, when they first opened it, and its history. */
export const AdminPayslip = MyPayslip.extend({
  employeeId: Id,
  employeeName: z.string().nullable(),
  status: z.enum(['visible', 'deleted', 'superseded']),
  firstViewedAt: z.iso.datetime().nullable().meta({ description: 'The first download by its employee (a receipt)' }),
  supersedesPayslipId: Id.nullable(),
  supersededByPayslipId: Id.nullable(),
  batchId: Id.nullable(),
  deletedAt: z.iso.datetime().nullable(),
  deletedByUserId: Id.nullable(),
  deleteReason: z.string().nullable(),
}).meta({ id: 'AdminPayslip' });
export type AdminPayslip = z.infer<typeof AdminPayslip>;

export const MyPayslipsResponse = z.object({ data: z.array(MyPayslip) }).meta({ id: 'MyPayslips' });
export const PayslipsPage = z
  .object({
    data: z.array(AdminPayslip),
    meta: PageMeta,
  })
  .meta({ id: 'PayslipsPage' });
export const PayslipResponse = z.object({ message: z.string(), data: AdminPayslip });

export const BATCH_STATUSES = ['reading', 'ready', 'published', 'discarded', 'failed'] as const;

export const PayslipBatch = z
  .object({
    id: Id,
    status: z.enum(BATCH_STATUSES),
    failureReason: z.string().nullable().meta({ description: 'Why the batch could not be read (status `failed`)' }),
    label: z.string(),
    periodStart: calendarDay,
    periodEnd: calendarDay,
    issuedOn: calendarDay,
    matchBy: z.enum(PAYSLIP_MATCH_BY),
    pageCount: z.number().int(),
    sizeBytes: z.number().int(),
    createdAt: z.iso.datetime(),
    readAt: z.iso.datetime().nullable(),
    publishedAt: z.iso.datetime().nullable(),
    /** Each employee found with their page runs: consecutive pages of one employee are one payslip. */
    matches: z.array(
      z.object({
        employeeId: Id,
        employeeName: z.string().nullable(),
        payslips: z.array(
          z.object({
            fromPage: z.number().int(),
            toPage: z.number().int(),
            payslipId: Id.nullable(),
            duplicateOfPayslipId: Id.nullable().meta({
              description: "The employee's visible payslip these pages already are (the same file, e.g. the combined PDF uploaded again): publish leaves them out",
            }),
          }),
        ),
      }),
    ),
    /** Pages that name nobody, with the start of their text (to fix them by hand). */
    unmatchedPages: z.array(z.object({ page: z.number().int(), excerpt: z.string() })),
    /** Pages that name more than one employee: left out until assigned by hand. */
    ambiguousPages: z.array(z.object({ page: z.number().int(), employeeIds: z.array(Id) })),
  })
  .meta({ id: 'PayslipBatch' });
export type PayslipBatch = z.infer<typeof PayslipBatch>;
export const PayslipBatchResponse = z.object({ message: z.string(), data: PayslipBatch });

// ------------------------------------------------------------------------------- routes

/** `/api/v2/payslips` (paths as seen through the gateway): every route needs a token; all but an employee's own list and download are for admins. */
export const payslipsApi = routeFamily({
  prefix: '/api/v2/payslips',
  service: 'payslips',
  access: 'bearer',
  errorStyle: 'default',
  unauthorizedMessage: 'Unauthorized',
  tags: ['payslips'],
  // Payslip uploads and the month's combined PDF (multipart): the service checks its own limits as the bytes stream.
  maxBodyBytes: PAYSLIP_UPLOAD_MAX_BYTES + 1024 * 1024,
});

const adminOnly = { role: 'admin', roleRefusal: { message: 'Only administrators may do this' } } as const;
const multipart = <S extends z.ZodObject>(fields: S) => ({
  body: z.object({ file: z.string().meta({ format: 'binary', description: 'The PDF (checked by its bytes)' }), ...fields.shape }),
  bodyContentType: 'multipart/form-data',
});
const idParams = IdPathParam('id');
const uploadErrors = {
  400: 'VALIDATION_ERROR (fields, dates, periodEnd before periodStart, unknown fields), MALFORMED_MULTIPART, FILE_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE, FILE_TOO_LARGE',
  415: 'FILE_TYPE_NOT_ALLOWED (not a PDF by its bytes, whatever its name or type), UNSUPPORTED_MEDIA_TYPE',
  408: 'REQUEST_TIMEOUT (the body stalled)',
  422: 'PDF_ENCRYPTED, PDF_UNREADABLE, TOO_MANY_PAGES',
  503: 'PDF_CHECK_TIMEOUT (the PDF could not be checked in time: try again; Retry-After)',
};

export const uploadPayslipRoute = payslipsApi.route({
  method: 'post',
  path: '/api/v2/payslips',
  summary: 'Upload one payslip for an employee (admin, multipart: `file` and the fields); publishes it and notifies the employee',
  ...adminOnly,
  request: multipart(PayslipUploadFields),
  responses: {
    201: jsonContent(PayslipResponse, 'The payslip'),
    ...errorResponses({ ...uploadErrors, 403: 'Not an administrator', 404: 'EMPLOYEE_NOT_FOUND', 409: 'DUPLICATE_PAYSLIP (the same file for the same employee), EMPLOYEE_INACTIVE' }),
  },
});

export const listPayslipsRoute = payslipsApi.route({
  method: 'get',
  path: '/api/v2/payslips',
  summary: 'Payslips (admin), newest first; `include=deleted` lists deleted and superseded ones too',
  ...adminOnly,
  request: { query: AdminPayslipsQuery },
  responses: { 200: jsonContent(PayslipsPage, 'A page of payslips'), ...errorResponses({ 400: 'VALIDATION_ERROR', 403: 'Not an administrator' }) },
});

export const myPayslipsRoute = payslipsApi.route({
  method: 'get',
  path: '/api/v2/payslips/my',
  summary: "The token's employee's payslips, newest first (deleted and superseded ones are not listed)",
  request: { query: MyPayslipsQuery },
  responses: { 200: jsonContent(MyPayslipsResponse, 'The payslips'), ...errorResponses({ 400: 'VALIDATION_ERROR', 403: 'NOT_AN_EMPLOYEE' }) },
});

export const downloadPayslipRoute = payslipsApi.route({
  method: 'get',
  path: '/api/v2/payslips/{id}/file',
  summary: "Download a payslip: the employee's own (the first download sets firstViewedAt), any for an admin",
  request: { params: idParams },
  responses: {
    200: { description: 'The PDF (attachment, private, no-store)', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } },
    ...errorResponses({ 400: 'VALIDATION_ERROR (id)', 404: "PAYSLIP_NOT_FOUND (also another employee's payslip, and a deleted one for its employee)" }),
  },
});

export const deletePayslipRoute = payslipsApi.route({
  method: 'delete',
  path: '/api/v2/payslips/{id}',
  summary: 'Delete a payslip (admin): hidden from its employee at once; the file and the audit are kept until the retention period ends',
  ...adminOnly,
  request: { params: idParams, body: DeletePayslipBody },
  responses: {
    200: jsonContent(PayslipResponse, 'The deleted payslip'),
    ...errorResponses({ 400: 'VALIDATION_ERROR (reason)', 403: 'Not an administrator', 404: 'PAYSLIP_NOT_FOUND', 409: 'PAYSLIP_DELETED, PAYSLIP_SUPERSEDED' }),
  },
});

export const replacePayslipRoute = payslipsApi.route({
  method: 'post',
  path: '/api/v2/payslips/{id}/replace',
  summary: 'Publish a correction (admin, multipart `file` and optional fields): it supersedes the payslip (kept, hidden) and the employee is told it is a correction',
  ...adminOnly,
  request: { params: idParams, ...multipart(PayslipReplaceFields) },
  responses: {
    201: jsonContent(PayslipResponse, 'The correction'),
    ...errorResponses({ ...uploadErrors, 403: 'Not an administrator', 404: 'PAYSLIP_NOT_FOUND', 409: 'PAYSLIP_DELETED, PAYSLIP_SUPERSEDED, DUPLICATE_PAYSLIP, EMPLOYEE_INACTIVE' }),
  },
});

export const createBatchRoute = payslipsApi.route({
  method: 'post',
  path: '/api/v2/payslips/batches',
  summary: "Upload the month's combined PDF (admin, multipart `file` and the fields): 202 at once; its pages are read and matched in the background",
  ...adminOnly,
  request: multipart(PayslipBatchFields),
  responses: {
    202: jsonContent(PayslipBatchResponse, 'The batch, `reading`'),
    ...errorResponses({ ...uploadErrors, 403: 'Not an administrator', 422: 'PDF_ENCRYPTED, PDF_UNREADABLE, TOO_MANY_PAGES, SCANNED_PDF ("scanned PDFs cannot be matched": no text layer)' }),
  },
});

export const showBatchRoute = payslipsApi.route({
  method: 'get',
  path: '/api/v2/payslips/batches/{id}',
  summary: 'A batch (admin): its state, the employees matched with their pages, the unmatched and ambiguous pages',
  ...adminOnly,
  request: { params: idParams },
  responses: { 200: jsonContent(PayslipBatchResponse, 'The batch'), ...errorResponses({ 400: 'VALIDATION_ERROR (id)', 403: 'Not an administrator', 404: 'BATCH_NOT_FOUND' }) },
});

export const assignBatchPageRoute = payslipsApi.route({
  method: 'post',
  path: '/api/v2/payslips/batches/{id}/pages/{page}/assign',
  summary: 'Assign a page of a ready batch to an employee by hand (admin)',
  ...adminOnly,
  request: { params: BatchPageParams, body: AssignPageBody },
  responses: {
    200: jsonContent(PayslipBatchResponse, 'The batch'),
    ...errorResponses({ 400: 'VALIDATION_ERROR', 403: 'Not an administrator', 404: 'BATCH_NOT_FOUND, EMPLOYEE_NOT_FOUND', 409: 'BATCH_NOT_READY, EMPLOYEE_INACTIVE', 422: 'PAGE_OUT_OF_RANGE' }),
  },
});

export const publishBatchRoute = payslipsApi.route({
  method: 'post',
  path: '/api/v2/payslips/batches/{id}/publish',
  summary: 'Publish a ready batch (admin): every matched page run becomes a payslip, in one transaction, except runs already published (`duplicateOfPayslipId`: the same file); a second publish changes nothing',
  ...adminOnly,
  request: { params: idParams },
  responses: {
    200: jsonContent(PayslipBatchResponse, 'The batch, `published`, with the payslip of each run'),
    ...errorResponses({ 400: 'VALIDATION_ERROR (id)', 403: 'Not an administrator', 404: 'BATCH_NOT_FOUND', 409: 'BATCH_NOT_READY (still reading, failed or discarded), NOTHING_TO_PUBLISH' }),
  },
});

export const discardBatchRoute = payslipsApi.route({
  method: 'delete',
  path: '/api/v2/payslips/batches/{id}',
  summary: 'Discard an unpublished batch and its files (admin)',
  ...adminOnly,
  request: { params: idParams },
  responses: {
    200: jsonContent(PayslipBatchResponse, 'The batch, `discarded`'),
    ...errorResponses({ 400: 'VALIDATION_ERROR (id)', 403: 'Not an administrator', 404: 'BATCH_NOT_FOUND', 409: 'BATCH_PUBLISHED' }),
  },
});

/** Payslips' routes by name (everything but batches): `payslips.routes.ts` implements each. */
export const payslipsContract = contract({
  upload: uploadPayslipRoute,
  list: listPayslipsRoute,
  mine: myPayslipsRoute,
  download: downloadPayslipRoute,
  delete: deletePayslipRoute,
  replace: replacePayslipRoute,
});

/** The month's combined PDF by name: `batches.routes.ts` implements each. */
export const batchesContract = contract({
  create: createBatchRoute,
  show: showBatchRoute,
  assignPage: assignBatchPageRoute,
  publish: publishBatchRoute,
  discard: discardBatchRoute,
});
