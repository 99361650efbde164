import { requireOwnerOrAdmin } from '@academy/auth';
import { hoursBankContract } from '@academy/contracts';
import { readId } from '@academy/kit';
import { statementKeyOf } from '@academy/service';
import { implement } from '../shared/hours-bank-context.ts';
import { addCompletedHours } from './add-completed-hours.ts';
import { addPendingHours } from './add-pending-hours.ts';
import { deleteTransaction } from './delete-transaction.ts';
import { editTransaction } from './edit-transaction.ts';
import { employeeIdRequired, transactionIdRequired } from './hours-bank.errors.ts';
import { readHoursBank } from './read-hours-bank.ts';
import { parseTime } from './time-string.ts';

/** The spec's `Time is required` and time-format errors come before the body's other fields. */
const timeFirst = (body: unknown) => void parseTime((body as { time?: unknown } | undefined)?.time);

// A user reads only the bank of their own employee; a malformed id (`/007` too: one strict id
// grammar) goes on to the route's 400.
const ownBankOrAdmin = requireOwnerOrAdmin((req, user) => {
  const id = readId(req.params.employeeId);
  return id === undefined || (user.employeeId !== undefined && id === user.employeeId);
});

// A malformed id, or one left out (`GET /api/v2/hours-bank`), is the spec's "… ID is required".
const byEmployee = { invalidParams: employeeIdRequired };
const byTransaction = { invalidParams: transactionIdRequired, paramLeftOut: true };
// One statement (`addToBank`): a keyed addition records its key in it, in the same round trip; the handler passes it on.
const addition = { ...byEmployee, checkBody: timeFirst, keyInStatement: true };

export const hoursBankRoutes = implement(hoursBankContract, {
  read: {
    options: { ...byEmployee, paramLeftOut: true, guards: [ownBankOrAdmin] },
    handle: async ({ params, query }, ctx, actor) => ({
      status: 200,
      body: { message: 'ok', data: await readHoursBank(ctx, { employeeId: params.employeeId, schoolCourseId: query.schoolCourseId }, actor) },
    }),
  },
  addCompleted: {
    options: addition,
    handle: async ({ params, body, req }, ctx, actor) => ({
      status: 200,
      body: {
        message: 'Completed hours registered successfully',
        data: await addCompletedHours(ctx, { ...body, employeeId: params.employeeId, minutes: parseTime(body.time), key: statementKeyOf(req) }, actor),
      },
    }),
  },
  addPending: {
    options: addition,
    handle: async ({ params, body, req }, ctx, actor) => ({
      status: 200,
      body: {
        message: 'Pending hours registered successfully',
        data: await addPendingHours(ctx, { ...body, employeeId: params.employeeId, minutes: parseTime(body.time), key: statementKeyOf(req) }, actor),
      },
    }),
  },
  editTransaction: {
    options: { ...byTransaction, checkBody: timeFirst },
    handle: async ({ params, body }, ctx, actor) => ({
      status: 200,
      body: { message: 'Transaction edited successfully', data: await editTransaction(ctx, { transactionId: params.transactionId, minutes: parseTime(body.time), reason: body.reason }, actor) },
    }),
  },
  deleteTransaction: {
    options: byTransaction,
    handle: async ({ params }, ctx, actor) => ({
      status: 200,
      body: { message: 'Transaction deleted successfully', data: await deleteTransaction(ctx, { transactionId: params.transactionId }, actor) },
    }),
  },
});
