// The SQL of the demo data beyond its entities (seed.ts): the seeders' lock, whether the academy has people, a class's students.
import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '@academy/db';

/** Two seeders started at once: the second waits here, for the first's transaction. */
export async function lockSeed(em: EntityManager): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtext('academic.seed'))`);
}

/** How many users and students the database has. */
export async function countPeople(em: EntityManager): Promise<number> {
  const [{ count }] = await em.execute<{ count: number }[]>(`select ((select count(*) from users) + (select count(*) from students))::int as count`);
  return count;
}

/** The students join the class, their registrations name its teacher, who teaches the subject from then on. */
export async function assignDemoClass(em: EntityManager, demo: { eventId: number; studentIds: number[]; registrationIds: number[]; employeeId: number; subjectId: number }): Promise<void> {
  await em.execute(`insert into event_students (event_id, student_id, assigned_at) select ?, unnest(?::int[]), now()`, [demo.eventId, pgArray(demo.studentIds)]);
  await em.execute(`update registrations set employee_id = ? where id = any(?::int[])`, [demo.employeeId, pgArray(demo.registrationIds)]);
  await em.execute(`insert into employee_subjects (employee_id, subject_id, created_at) values (?, ?, now()) on conflict do nothing`, [demo.employeeId, demo.subjectId]);
}
