import type { EntityManager } from '@mikro-orm/postgresql';

/** Whether the active employee may teach (of kind `teacher`, or teaching a subject already); undefined when missing or inactive. */
export async function selectCanTeach(em: EntityManager, employeeId: number): Promise<boolean | undefined> {
  const [employee] = await em.execute<{ teaches: boolean }[]>(
    `select e.kind = 'teacher' or exists (select 1 from employee_subjects es where es.employee_id = e.id) as teaches from employees e where e.id = ? and e.active`,
    [employeeId],
  );
  return employee?.teaches;
}
