import type { Express } from 'express';
import type { ServiceContext } from '@academy/service';
import { routeBinder } from '@academy/service';
import { actorOf, requireAuth, requireOwnerOrAdmin, requireRole } from '@academy/auth';
import { addCompletedHoursRoute, addPendingHoursRoute, deleteTransactionRoute, editTransactionRoute, hoursBankApi, readHoursBankRoute } from '@academy/contracts';
import { readId } from '@academy/kit';
import type { Config } from '../config.ts';
import { employeeIdRequired, transactionIdRequired } from '../domain/hours-bank.errors.ts';
import { addHours, addedDetails, deleteTransaction, editTransaction } from '../domain/hours-bank.use-cases.ts';
import { readHoursBank } from '../domain/read-hours-bank.ts';
import { parseTime } from '../domain/time-string.ts';

/** The spec's `Time is required` and time-format errors come before the body's other fields. */
const timeFirst = (body: unknown) => void parseTime((body as { time?: unknown } | undefined)?.time);

export function registerRoutes(app: Express, ctx: ServiceContext<Config>): void {
  const bind = routeBinder(app, ctx);
  const em = () => ctx.orm.em;
  // A user reads only the bank of their own employee; a malformed id (`/007` too: one strict id
  // grammar) goes on to the route's 400.
  const ownBankOrAdmin = requireOwnerOrAdmin((req, user) => {
    const id = readId(req.params.employeeId);
    return id === undefined || (user.employeeId !== undefined && id === user.employeeId);
  });
  // A malformed id is the spec's "… ID is required" with what was wrong in `details`.
  const byEmployee = { invalidParams: employeeIdRequired };
  const byTransaction = { invalidParams: transactionIdRequired };

  // A route's id left out: the spec's "… ID is required" (not routes of their own: undocumented; before `/{employeeId}`).
  const auth = requireAuth(ctx.verifier, { message: hoursBankApi.unauthorizedMessage });
  app.get(['/api/v2/hours-bank', '/api/v2/hours-bank/transactions'], auth, () => {
    throw employeeIdRequired();
  });
  app.route('/api/v2/hours-bank/transactions').all(auth, requireRole('admin', editTransactionRoute.roleRefusal), () => {
    throw transactionIdRequired();
  });

  bind(readHoursBankRoute, { ...byEmployee, guards: [ownBankOrAdmin] }, async ({ params, query, res }) => {
    const data = await readHoursBank(em(), params.employeeId, query.schoolCourseId);
    res.json({ message: 'ok', data });
  });

  for (const [route, type, message] of [
    [addCompletedHoursRoute, 'COMPLETED', 'Completed hours registered successfully'],
    [addPendingHoursRoute, 'PENDING', 'Pending hours registered successfully'],
  ] as const) {
    // One statement (`addToBank`): a keyed addition records its key in it, in the same round trip.
    bind(route, { ...byEmployee, checkBody: timeFirst, oneStatementWrite: true }, async ({ params, body, req, res }) => {
      const result = await addHours(em(), { ...body, employeeId: params.employeeId, type, minutes: parseTime(body.time) }, actorOf(req, res), ctx.clock.now());
      res.json({ message, data: addedDetails(result, type) });
    });
  }

  bind(editTransactionRoute, { ...byTransaction, checkBody: timeFirst }, async ({ params, body, req, res }) => {
    const data = await editTransaction(em(), { transactionId: params.transactionId, minutes: parseTime(body.time), reason: body.reason }, actorOf(req, res), ctx.clock.now());
    res.json({ message: 'Transaction edited successfully', data });
  });

  bind(deleteTransactionRoute, byTransaction, async ({ params, req, res }) => {
    const data = await deleteTransaction(em(), params.transactionId, actorOf(req, res), ctx.clock.now());
    res.json({ message: 'Transaction deleted successfully', data });
  });

}
