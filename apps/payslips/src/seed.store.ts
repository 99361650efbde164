import type { Query } from './shared/db.ts';

// What the demo seed reads: the replica's employees with a tax id, and whether payslips exist yet.

export interface DemoEmployee {
  id: number;
  name: string;
  taxId: string;
}

/** The active employees with a tax id, by id. */
export async function demoEmployees(query: Query): Promise<DemoEmployee[]> {
  return query<DemoEmployee>(`select id, coalesce(name, 'Employee ' || id) as name, tax_id as "taxId" from employees where tax_id is not null and active and not deleted order by id`);
}

export async function payslipCount(query: Query): Promise<number> {
  const [row] = await query<{ count: number }>(`select count(*)::int as count from payslips`);
  return row?.count ?? 0;
}
