import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError, NotFoundError } from '@academy/kit';
import { selectCanTeach } from './teachers.store.ts';

/**
 * The teacher of an event must be an active employee who teaches: of kind `teacher`, or a staff
 * member who already teaches a subject. A staff employee who teaches nothing is a 400, a missing or
 * inactive one a 404.
 */
export async function assertCanTeach(em: EntityManager, employeeId: number): Promise<void> {
  const teaches = await selectCanTeach(em, employeeId);
  if (teaches === undefined) throw new NotFoundError('EMPLOYEE_NOT_FOUND', 'Employee not found');
  if (!teaches) throw new BadRequestError('EMPLOYEE_NOT_A_TEACHER', `Employee ${employeeId} is staff who teaches nothing: not an event's teacher`);
}
