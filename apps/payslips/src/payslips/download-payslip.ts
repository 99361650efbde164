import type { Readable } from 'node:stream';
import type { Actor } from '../shared/actor.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import { payslipNotFound } from './payslips.errors.ts';
import { VISIBLE } from './payslips.store.ts';

export interface PayslipFile {
  fileName: string;
  content: Readable;
}

/**
 * The payslip's PDF, decrypted as it streams: its employee's own while visible, any for an admin
 * (deleted and corrected ones too). Anything else is 404, so another employee's id reveals
 * nothing. The first download by its employee sets `firstViewedAt`.
 */
export async function downloadPayslip(payslips: Payslips, actor: Actor, payslipId: number): Promise<PayslipFile> {
  const { sql, storage } = payslips;
  const [row] = await sql.query<{ employeeId: number; storageKey: string; periodStart: string }>(
    `select employee_id as "employeeId", storage_key as "storageKey", to_char(period_start, 'YYYY-MM') as "periodStart"
     from payslips p where id = $1 and ($2 or (employee_id = $3 and ${VISIBLE}))`,
    [payslipId, actor.role === 'admin', actor.employeeId],
  );
  if (!row) throw payslipNotFound();
  const content = await storage.open(row.storageKey);
  if (!content) throw payslipNotFound();
  if (row.employeeId === actor.employeeId)
    await sql.query(`update payslips set first_viewed_at = $2 where id = $1 and first_viewed_at is null`, [payslipId, payslips.now()]);
  return { fileName: `payslip-${row.periodStart}-${payslipId}.pdf`, content };
}
