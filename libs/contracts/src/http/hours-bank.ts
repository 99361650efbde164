import { z } from 'zod';
import { Id, IdText, errorResponses, jsonContent, queryObject } from './common.ts';
import { contract, routeFamily } from '../routes.ts';

// Hours bank (spec section "the service"): request and response schemas of its five routes.

const id = z.number().int().positive();
/** `<H>h <M>m`, `<H>h` or `<M>m`; zero is `0h`. */
const timeText = z.string().meta({ example: '1h 30m' });
const hoursDecimal = z.number().meta({ description: 'Decimal hours, 2 decimals (1.5 = 1h 30m)', example: 1.5 });

export const TIME_STRING_DESCRIPTION =
  'Whole hours and/or minutes, lower case: "<H>h", "<M>m" or "<H>h <M>m" (spaces between the parts optional, surrounding ' +
  'whitespace ignored). Minutes below 60, total above 0 and below 1000h. Errors: INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS.';

export const HoursBankEmployeeParams = z.object({ employeeId: IdText.meta({ description: 'Employee id (positive integer)', example: '7' }) });
export const HoursTransactionParams = z.object({ transactionId: IdText.meta({ description: 'Transaction id (positive integer)', example: '42' }) });

/** ISO date (`2026-01-15`) or date-time (its UTC day is used). */
const isoDay = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'must be an ISO date (YYYY-MM-DD)' })
  // Its UTC day must be a `YYYY-MM-DD` the database stores: no year 0 (`0001-01-01T00:30+01:00` falls in it), none past 9999.
  .refine((value) => new Date(value).getUTCFullYear() >= 1 && new Date(value).getUTCFullYear() <= 9999, { error: 'must be between years 1 and 9999' })
  .meta({ example: '2026-01-15' });

/** Stored as PostgreSQL text, which cannot hold a NUL character. */
const reason = z
  .string()
  .max(1000, { error: 'must be at most 1000 characters' })
  .refine((value) => !value.includes('\u0000'), { error: 'must not contain NUL characters' });

export const HoursBankQuery = queryObject({
  schoolCourseId: IdText.optional().meta({ description: 'School course; the current (latest) one when omitted' }),
});

export const AddHoursBody = z.strictObject({
  time: z.string().meta({ description: TIME_STRING_DESCRIPTION, example: '1h 30m' }),
  reason: reason.optional(),
  date: isoDay.optional().meta({ description: 'Transaction date; today (UTC) when omitted' }),
  schoolCourseId: Id.optional().meta({ description: 'School course; the current (latest) one when omitted' }),
});
export type AddHoursBody = z.infer<typeof AddHoursBody>;

export const EditTransactionBody = z.strictObject({
  time: z.string().meta({ description: `New time. ${TIME_STRING_DESCRIPTION}`, example: '2h' }),
  reason: reason.optional().meta({ description: 'The original reason is kept when omitted' }),
});
export type EditTransactionBody = z.infer<typeof EditTransactionBody>;

export const HoursTotals = z
  .object({
    pendingHours: timeText,
    completedHours: timeText,
    pendingDecimal: hoursDecimal,
    completedDecimal: hoursDecimal,
  })
  .meta({ id: 'HoursTotals' });

export const HoursTransactionType = z.enum(['COMPLETED', 'PENDING', 'REVERSAL']);

export const HoursTransactionItem = z
  .object({
    id,
    type: HoursTransactionType,
    date: z.iso.date(),
    hours: timeText.meta({ description: 'Time of the operation (for a REVERSAL, of the operation undone)' }),
    hoursDecimal,
    minutes: z.number().int().meta({ description: 'Exact time of the operation in minutes' }),
    pendingAffected: z.number().meta({ description: 'Change this row made to the pending total, decimal hours (negative = subtracted)' }),
    completedAffected: z.number().meta({ description: 'Change this row made to the completed total, decimal hours (negative = subtracted)' }),
    reason: z.string().nullable(),
    isActive: z.boolean().meta({ description: 'False once edited or deleted; REVERSAL rows are records of an undo and never active' }),
    reversesTransactionId: id.nullable().meta({ description: 'On a REVERSAL: the transaction it undoes' }),
    replacesTransactionId: id.nullable().meta({ description: 'On a transaction created by an edit: the transaction it replaces' }),
    createdAt: z.iso.datetime(),
    createdBy: id.nullable().meta({ description: 'User id of who made it' }),
  })
  .meta({ id: 'HoursTransaction' });
export type HoursTransactionItem = z.infer<typeof HoursTransactionItem>;

export const HoursBankResponse = z.object({
  message: z.literal('ok'),
  data: z.object({
    employeeId: id,
    schoolCourseId: id,
    totals: HoursTotals,
    tracking: z.object({
      transactions: z.array(HoursTransactionItem).meta({ description: 'Every row of the bank, newest first' }),
      byType: z.object({ completed: z.array(HoursTransactionItem), pending: z.array(HoursTransactionItem) }),
    }),
  }),
});

const addHoursResponse = <M extends string, D extends z.ZodRawShape>(message: M, details: D) =>
  z.object({
    message: z.literal(message),
    data: z.object({ employeeId: id, schoolCourseId: id, totals: HoursTotals, details: z.object(details), transactionId: id }),
  });

export const AddCompletedHoursResponse = addHoursResponse('Completed hours registered successfully', {
  hoursRegistered: timeText,
  hoursSubtractedFromPending: timeText,
  hoursAddedToCompleted: timeText,
});

export const AddPendingHoursResponse = addHoursResponse('Pending hours registered successfully', {
  hoursRegistered: timeText,
  hoursSubtractedFromCompleted: timeText,
  hoursAddedToPending: timeText,
});

export const EditTransactionResponse = z.object({
  message: z.literal('Transaction edited successfully'),
  data: z.object({
    employeeId: id,
    schoolCourseId: id,
    totals: HoursTotals,
    details: z.object({ previousHours: timeText, newHours: timeText, transactionType: z.enum(['COMPLETED', 'PENDING']) }),
    oldTransactionId: id,
    newTransactionId: id,
  }),
});

export const DeleteTransactionResponse = z.object({
  message: z.literal('Transaction deleted successfully'),
  data: z.object({
    employeeId: id,
    schoolCourseId: id,
    totals: HoursTotals,
    deletedTransaction: z.object({ id, type: z.enum(['COMPLETED', 'PENDING']), totalHours: timeText }),
  }),
});

const errors = (extra: Record<number, string>) => errorResponses({ 403: 'A user acting on another employee, or changing a bank', ...extra });

/** `/api/v2/hours-bank`: every route needs a token; a user reads only their own bank, changes are for admins. */
export const hoursBankApi = routeFamily({ prefix: '/api/v2/hours-bank', service: 'hours-bank', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['Hours bank'] });

const adminOnly = { role: 'admin', roleRefusal: { message: 'Only administrators may change hours banks' } } as const;

export const readHoursBankRoute = hoursBankApi.route({
  method: 'get',
  path: '/api/v2/hours-bank/{employeeId}',
  summary: 'Read a bank: totals, history (newest first) and history by type',
  request: { params: HoursBankEmployeeParams, query: HoursBankQuery },
  responses: {
    200: jsonContent(HoursBankResponse, 'The bank'),
    ...errors({
      400: '`Employee ID is required` (missing or not a positive integer), VALIDATION_ERROR on the query',
      404: '`Employee not found`, `No school course found` or `Hours bank not found` (no operation recorded yet)',
    }),
  },
});

const addHoursRoute = <R extends z.ZodType>(kind: 'completed' | 'pending', summary: string, response: R) =>
  hoursBankApi.route({
    method: 'post',
    path: `/api/v2/hours-bank/{employeeId}/${kind}`,
    summary,
    ...adminOnly,
    request: { params: HoursBankEmployeeParams, body: AddHoursBody },
    responses: {
      200: jsonContent(response, 'Registered'),
      ...errors({
        400: '`Time is required`, INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS, `Employee ID is required`, VALIDATION_ERROR',
        404: '`Employee not found` or `No school course found`',
      }),
    },
  });

export const addCompletedHoursRoute = addHoursRoute(
  'completed',
  'Add completed hours (first subtracted from pending, the remainder added to completed); admin only',
  AddCompletedHoursResponse,
);
export const addPendingHoursRoute = addHoursRoute('pending', 'Add pending hours (first subtracted from completed, the remainder added to pending); admin only', AddPendingHoursResponse);

export const editTransactionRoute = hoursBankApi.route({
  method: 'put',
  path: '/api/v2/hours-bank/transactions/{transactionId}',
  summary: 'Edit a transaction: the original is reverted (a REVERSAL row) and a new one of the same type is created; admin only',
  ...adminOnly,
  request: { params: HoursTransactionParams, body: EditTransactionBody },
  responses: {
    200: jsonContent(EditTransactionResponse, 'Edited'),
    ...errors({
      400: '`Time is required`, INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS, `Transaction ID is required`',
      404: '`Transaction not found` (missing, inactive, or a REVERSAL row)',
    }),
  },
});

export const deleteTransactionRoute = hoursBankApi.route({
  method: 'delete',
  path: '/api/v2/hours-bank/transactions/{transactionId}',
  summary: 'Delete a transaction (soft): it becomes inactive and a REVERSAL row undoes its effect; admin only',
  ...adminOnly,
  request: { params: HoursTransactionParams },
  responses: {
    200: jsonContent(DeleteTransactionResponse, 'Deleted'),
    ...errors({ 400: '`Transaction ID is required`', 404: '`Transaction not found` (missing, inactive, or a REVERSAL row)' }),
  },
});

/** The hours bank's routes by name: `hours-bank.routes.ts` implements each. */
export const hoursBankContract = contract({
  read: readHoursBankRoute,
  addCompleted: addCompletedHoursRoute,
  addPending: addPendingHoursRoute,
  editTransaction: editTransactionRoute,
  deleteTransaction: deleteTransactionRoute,
});
