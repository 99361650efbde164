// The employees replica (`@academy/replicas`, from academic's events): what payslips read of it, the store both features share.
import type { Query } from './db.ts';
import { employeeInactive, employeeNotFound } from './errors.ts';

export interface PayslipEmployee {
  id: number;
  userId: number | null;
  name: string;
  email: string | null;
}

const EMPLOYEE_COLUMNS = `id, user_id as "userId", coalesce(name, 'Employee ' || id) as name, email`;

/** The employee a payslip is for, shared-locked until the transaction ends; unknown is 404, deactivated 409. */
export async function employeeForPayslip(query: Query, employeeId: number): Promise<PayslipEmployee> {
  const [row] = await query<PayslipEmployee & { active: boolean }>(`select ${EMPLOYEE_COLUMNS}, active and not deleted as active from employees where id = $1 for share`, [employeeId]);
  if (!row) throw employeeNotFound();
  if (!row.active) throw employeeInactive();
  return { id: row.id, userId: row.userId, name: row.name, email: row.email };
}

/** The active employees among `ids`, by id; with `lock: 'share'`, their rows shared-locked until the transaction ends (none deactivated meanwhile). */
export async function activeEmployees(query: Query, ids: readonly number[], options: { lock?: 'share' } = {}): Promise<Map<number, PayslipEmployee>> {
  const rows = await query<PayslipEmployee>(
    `select ${EMPLOYEE_COLUMNS} from employees where id = any($1::int[]) and active and not deleted order by id${options.lock ? ' for share' : ''}`,
    [ids],
  );
  return new Map(rows.map((employee) => [employee.id, employee]));
}

/** Employees' names by id (null when the replica has none). */
export async function employeeNames(query: Query, ids: readonly number[]): Promise<Map<number, string | null>> {
  const rows = await query<{ id: number; name: string | null }>(`select id, name from employees where id = any($1::int[])`, [ids]);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Identifier (the tax id's digest, or the payroll code in upper case) → the active employees that have it. */
export async function employeesByIdentifier(query: Query, matchBy: 'taxId' | 'payrollCode'): Promise<Map<string, number[]>> {
  const column = matchBy === 'taxId' ? 'tax_id_digest' : 'upper(payroll_code)';
  const rows = await query<{ id: number; identifier: string }>(`select id, ${column} as identifier from employees where ${column} is not null and active and not deleted order by id`);
  const byIdentifier = new Map<string, number[]>();
  for (const row of rows) byIdentifier.set(row.identifier, [...(byIdentifier.get(row.identifier) ?? []), row.id]);
  return byIdentifier;
}
