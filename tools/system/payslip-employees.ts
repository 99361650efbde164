// The employees a system test prints on a payslip PDF, once payslips can match them: since
// `employee.upserted` version 3 the payslips replica keeps only the tax id's keyed digest, so the
// wait is for that digest in the replica, and the name and tax id printed come from academic.
// (`tax_id is not null` is for a payslips replica older than 1.3.0, which kept the tax id itself from version 2.)
import { eventually } from './client.ts';
import type { TestSystem } from './harness.ts';

export interface PayslipEmployee {
  id: number;
  name: string;
  taxId: string;
}

export async function payslipEmployees(system: Pick<TestSystem, 'sql'>, ids: number[], timeoutMs?: number): Promise<PayslipEmployee[]> {
  await eventually(
    `employees ${ids.join(', ')} in the payslips replica`,
    async () => {
      const rows = await system.sql<{ id: number }>('payslips', 'select id from employees where id = any($1::int[]) and (tax_id_digest is not null or tax_id is not null)', [ids]);
      return rows.length === ids.length ? rows : undefined;
    },
    timeoutMs,
  );
  return system.sql<PayslipEmployee>('academic', `select id, trim(name || ' ' || coalesce(lastname, '')) as name, tax_id as "taxId" from employees where id = any($1::int[]) order by id`, [ids]);
}
