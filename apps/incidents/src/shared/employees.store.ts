import type { Query } from './db.ts';

// What this service knows of employees comes from the employees replica (@academy/replicas).

/** The employee's name, when the replica knows them. */
export async function employeeNameOf(query: Query, employeeId: number): Promise<string | null> {
  const [row] = await query<{ name: string | null }>('select name from employees where id = $1', [employeeId]);
  return row?.name ?? null;
}

/** SQL of an incident's employee name (`i` = incidents). */
export const EMPLOYEE_NAME_SQL = `(select e.name from employees e where e.id = i.employee_id)`;

/** SQL of the employee's login (`i` = incidents): the replica's current one, else the one recorded on the incident. */
export const EMPLOYEE_USER_ID_SQL = `coalesce((select e.user_id from employees e where e.id = i.employee_id and not e.deleted), i.employee_user_id)`;
