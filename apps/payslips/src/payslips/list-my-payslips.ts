import type { Actor } from '@academy/auth';
import type { MyPayslipsQuery } from '@academy/contracts';
import { ownEmployee } from '../shared/actor.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { listMine } from './payslips.store.ts';

/** The token's employee's own payslips (deleted and corrected ones are gone from here at once), newest first; 403 NOT_AN_EMPLOYEE without one. */
export async function listMyPayslips(ctx: PayslipsContext, input: MyPayslipsQuery, actor: Actor) {
  return { data: await listMine(ctx.sql.query, ownEmployee(actor), input.year) };
}
