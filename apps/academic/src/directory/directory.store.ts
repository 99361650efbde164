// The directory's reads and SQL: each resource's row by id (404 otherwise) and its pages, blocks per
// subject, students per calendar event, and the user ↔ employee link kept on both sides
// (`users.employee_id`, `employees.user_id`). Use cases change the rows they read here and write
// them through `insertRow`, `saveChanges` or `writeInTransaction`: the database's refusals are 409s.
import type { EntityManager, EntityName, FilterQuery, OrderDefinition, RequiredEntityData } from '@mikro-orm/postgresql';
import type { DirectoryPageQuery } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { pageMeta } from '@academy/kit';
import { CalendarEvent, Registration } from '../shared/entities/registration.entities.ts';
import { User } from '../shared/entities/user.entity.ts';
import { findOr404, guardConstraints, likeContains, mustExist, type Reference } from '../shared/records.store.ts';
import { Block, Center, Employee, Guardian, Student, Subject } from './directory.entities.ts';

/** Each resource's row by id; a 404 naming the resource otherwise. */
export function findUser(em: EntityManager, id: number) {
  return findOr404(em, User, id, 'USER_NOT_FOUND', 'User not found');
}
export function findEmployee(em: EntityManager, id: number) {
  return findOr404(em, Employee, id, 'EMPLOYEE_NOT_FOUND', 'Employee not found');
}
export function findStudent(em: EntityManager, id: number) {
  return findOr404(em, Student, id, 'STUDENT_NOT_FOUND', 'Student not found');
}
export function findGuardian(em: EntityManager, id: number) {
  return findOr404(em, Guardian, id, 'GUARDIAN_NOT_FOUND', 'Guardian not found');
}
export function findSubject(em: EntityManager, id: number) {
  return findOr404(em, Subject, id, 'SUBJECT_NOT_FOUND', 'Subject not found');
}
export function findCenter(em: EntityManager, id: number) {
  return findOr404(em, Center, id, 'CENTER_NOT_FOUND', 'Center not found');
}
export function findRegistration(em: EntityManager, id: number) {
  return findOr404(em, Registration, id, 'REGISTRATION_NOT_FOUND', 'Registration not found');
}
export function findCalendarEvent(em: EntityManager, id: number) {
  return findOr404(em, CalendarEvent, id, 'EVENT_NOT_FOUND', 'Calendar event not found');
}

/** Each referenced row must exist (a 404 with the first missing one's code); a reference left out (null, undefined) is not checked. */
export function checkExists(em: EntityManager, ...references: Reference[]): Promise<void> {
  return mustExist(em, ...references);
}

/** What the database refuses, told as: a unique key taken (`unique`), a referenced row gone (`reference`). */
type Refusals = Parameters<typeof guardConstraints>[1];

/** A new row of `entity`, written at once (one flush of `em`); what the database refuses is a 409 with `refusals`' messages. */
export async function insertRow<T extends object>(em: EntityManager, entity: EntityName<T>, data: RequiredEntityData<T>, refusals?: Refusals): Promise<T> {
  const row = em.create(entity, data);
  await saveChanges(em, refusals);
  return row;
}

/** Writes the changes made to rows read from `em` (one flush); what the database refuses is a 409 with `refusals`' messages. */
export async function saveChanges(em: EntityManager, refusals?: Refusals): Promise<void> {
  await guardConstraints(() => em.flush(), refusals);
}

/**
 * Runs a directory write in one transaction on `em`; what the database refuses (a unique key
 * taken, a row still referenced) is a 409 with `refusals`' messages (`guardConstraints`).
 */
export function writeInTransaction<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>, refusals?: Refusals): Promise<T> {
  return guardConstraints(() => em.transactional(work), refusals);
}

/** A directory page, newest id first, searched in `fields`. */
export async function pageOf<T extends { id: number }, R>(em: EntityManager, entity: EntityName<T>, fields: (keyof T & string)[], query: DirectoryPageQuery, map: (row: T) => R) {
  const where = (query.search ? { $or: fields.map((field) => ({ [field]: { $ilike: likeContains(query.search!) } })) } : {}) as FilterQuery<T>;
  const [rows, total] = await em.findAndCount(entity, where, { limit: query.limit, offset: (query.page - 1) * query.limit, orderBy: { id: 'desc' } as OrderDefinition<T> });
  return { data: rows.map(map), meta: pageMeta(total, query.page, query.limit) };
}

/** The blocks of each subject, in order. */
export async function blocksOf(em: EntityManager, subjectIds: number[]) {
  const blocks = subjectIds.length ? await em.find(Block, { subjectId: { $in: subjectIds } }, { orderBy: { subjectId: 'asc', position: 'asc' } }) : [];
  return (subjectId: number) => blocks.filter((block) => block.subjectId === subjectId);
}

/** How many students each of the events has (absent: none). */
export async function countEventStudents(em: EntityManager, eventIds: number[]): Promise<Map<number, number>> {
  const rows = eventIds.length
    ? await em.execute<{ eventId: number; count: number }[]>(`select event_id as "eventId", count(*)::int as count from event_students where event_id = any(?::int[]) group by event_id`, [pgArray(eventIds)])
    : [];
  return new Map(rows.map((row) => [row.eventId, row.count]));
}

/** Another user the employee is linked with (from either side), if any. */
export async function findOtherLinkedUser(tx: EntityManager, link: { userId: number; employeeId: number }): Promise<number | undefined> {
  const [taken] = await tx.execute<{ id: number }[]>(
    `select id from users where employee_id = ? and id <> ? union select user_id from employees where id = ? and user_id <> ? limit 1`,
    [link.employeeId, link.userId, link.employeeId, link.userId],
  );
  return taken?.id;
}

/**
 * Links the user with the employee (or unlinks the user when `employeeId` is null) on both sides,
 * undoing the user's previous link and any other user's link to that employee; answers the
 * employees whose `user_id` changed.
 */
export async function writeUserEmployeeLink(tx: EntityManager, link: { userId: number; employeeId: number | null }): Promise<Set<number>> {
  const changed = new Set<number>();
  const previous = await tx.execute<{ id: number }[]>(`update employees set user_id = null, updated_at = now() where user_id = ? and id is distinct from ? returning id`, [link.userId, link.employeeId]);
  previous.forEach((row) => changed.add(row.id));
  await tx.execute(`update users set employee_id = ?, updated_at = now() where id = ?`, [link.employeeId, link.userId]);
  if (link.employeeId !== null) {
    await tx.execute(`update users set employee_id = null, updated_at = now() where employee_id = ? and id is distinct from ?`, [link.employeeId, link.userId]);
    const updated = await tx.execute<{ id: number }[]>(`update employees set user_id = ?, updated_at = now() where id = ? and user_id is distinct from ? returning id`, [link.userId, link.employeeId, link.userId]);
    updated.forEach((row) => changed.add(row.id));
  }
  return changed;
}
