import type { Query } from './shared/db.ts';

// What the demo seed reads: the replica's employees with a tax id (its digest), and whether payslips exist yet.

export interface DemoEmployeeRow {
  id: number;
  name: string;
  taxIdDigest: string;
}

/** The active employees with a tax id, by id. */
export async function demoEmployees(query: Query): Promise<DemoEmployeeRow[]> {
  return query<DemoEmployeeRow>(`select id, coalesce(name, 'Employee ' || id) as name, tax_id_digest as "taxIdDigest" from employees where tax_id_digest is not null and active and not deleted order by id`);
}

export async function payslipCount(query: Query): Promise<number> {
  const [row] = await query<{ count: number }>(`select count(*)::int as count from payslips`);
  return row?.count ?? 0;
}
