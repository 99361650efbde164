import { Router, type Express, type Request, type Response } from 'express';
import type { ServiceContext } from '@academy/service';
import { currentUser, requireAuth, requireOwnerOrAdmin, requireRole } from '@academy/auth';
import { AddHoursBody, EditTransactionBody, HoursBankQuery } from '@academy/contracts';
import { idParam, noQuery, readId, requestId } from '@academy/kit';
import type { Config } from '../config.ts';
import { employeeIdRequired, transactionIdRequired } from '../domain/hours-bank.errors.ts';
import { addHours, addedDetails, deleteTransaction, editTransaction, type Actor } from '../domain/hours-bank.use-cases.ts';
import { readHoursBank } from '../domain/read-hours-bank.ts';
import { parseTime } from '../domain/time-string.ts';

// A malformed id is the spec's "… ID is required" with what was wrong in `details`.
const employeeIdOf = (req: Request) => idParam(req.params, 'employeeId', employeeIdRequired);
const transactionIdOf = (req: Request) => idParam(req.params, 'transactionId', transactionIdRequired);

function actorOf(req: Request, res: Response): Actor {
  const user = currentUser(res);
  return { userId: Number.isInteger(user.userId) && user.userId > 0 ? user.userId : null, correlationId: requestId(req) };
}

export function registerRoutes(app: Express, ctx: ServiceContext<Config>): void {
  const router = Router();
  const em = () => ctx.orm.em;
  const adminOnly = requireRole('admin', { message: 'Only administrators may change hours banks' });
  // A user reads only the bank of their own employee; a malformed id (`/007` too: one strict id
  // grammar) goes on to the route's 400.
  const ownBankOrAdmin = requireOwnerOrAdmin((req, user) => {
    const id = readId(req.params.employeeId);
    return id === undefined || (user.employeeId !== undefined && id === user.employeeId);
  });

  router.use(requireAuth(ctx.verifier, { message: 'Unauthorized' }));

  router.get(['/', '/transactions'], () => {
    throw employeeIdRequired();
  });
  router.all('/transactions', adminOnly, () => {
    throw transactionIdRequired();
  });

  router.put('/transactions/:transactionId', adminOnly, noQuery, async (req, res) => {
    const transactionId = transactionIdOf(req);
    const minutes = parseTime(req.body?.time);
    const input = EditTransactionBody.parse(req.body);
    const data = await editTransaction(em(), { transactionId, minutes, reason: input.reason }, actorOf(req, res));
    res.json({ message: 'Transaction edited successfully', data });
  });

  router.delete('/transactions/:transactionId', adminOnly, noQuery, async (req, res) => {
    const data = await deleteTransaction(em(), transactionIdOf(req), actorOf(req, res));
    res.json({ message: 'Transaction deleted successfully', data });
  });

  router.get('/:employeeId', ownBankOrAdmin, async (req, res) => {
    const employeeId = employeeIdOf(req);
    const query = HoursBankQuery.parse(req.query);
    const data = await readHoursBank(em(), employeeId, query.schoolCourseId);
    res.json({ message: 'ok', data });
  });

  for (const [kind, type, message] of [
    ['completed', 'COMPLETED', 'Completed hours registered successfully'],
    ['pending', 'PENDING', 'Pending hours registered successfully'],
  ] as const) {
    router.post(`/:employeeId/${kind}`, adminOnly, noQuery, async (req, res) => {
      const employeeId = employeeIdOf(req);
      const minutes = parseTime(req.body?.time);
      const input = AddHoursBody.parse(req.body);
      const result = await addHours(em(), { ...input, employeeId, type, minutes }, actorOf(req, res));
      res.json({ message, data: addedDetails(result, type) });
    });
  }

  app.use('/api/v2/hours-bank', router);
}
