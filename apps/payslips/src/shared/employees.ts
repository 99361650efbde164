import type { Query } from './db.ts';
import { employeeInactive, employeeNotFound } from './errors.ts';

export interface PayslipEmployee {
  id: number;
  userId: number | null;
  name: string;
  email: string | null;
}

/** The employee a payslip is for (from the replica), shared-locked until the transaction ends; unknown is 404, deactivated 409. */
export async function employeeForPayslip(query: Query, employeeId: number): Promise<PayslipEmployee> {
  const [row] = await query<PayslipEmployee & { active: boolean }>(
    `select id, user_id as "userId", coalesce(name, 'Employee ' || id) as name, email, active and not deleted as active from employees where id = $1 for share`,
    [employeeId],
  );
  if (!row) throw employeeNotFound();
  if (!row.active) throw employeeInactive();
  return { id: row.id, userId: row.userId, name: row.name, email: row.email };
}
