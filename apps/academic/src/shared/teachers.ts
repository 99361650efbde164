import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError, NotFoundError } from '@academy/kit';

/**
 * The teacher of an event must be an active employee who teaches: of kind `teacher`, or a staff
 * member who already teaches a subject. A staff employee who teaches nothing is a 400, a missing or
 * inactive one a 404.
 */
export async function assertCanTeach(em: EntityManager, employeeId: number): Promise<void> {
  const [employee] = await em.execute<{ teaches: boolean }[]>(
    `select e.kind = 'teacher' or exists (select 1 from employee_subjects es where es.employee_id = e.id) as teaches from employees e where e.id = ? and e.active`,
    [employeeId],
  );
  if (!employee) throw new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
  if (!employee.teaches) throw new BadRequestError('EMPLOYEE_NOT_A_TEACHER', `Employee ${employeeId} is staff who teaches nothing: not an event's teacher`);
}
