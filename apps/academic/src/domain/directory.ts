// Admin CRUD of the academy's people and structure. Deleting deactivates (the rows are referenced
// by registrations and history); employees publish their changes through the outbox.
import type { EntityManager, EntityName, FilterQuery, InferEntity, OrderDefinition } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type {
  CenterCreateBody,
  CenterUpdateBody,
  DirectoryPageQuery,
  EmployeeCreateBody,
  EmployeeUpdateBody,
  GuardianCreateBody,
  GuardianUpdateBody,
  StudentCreateBody,
  StudentUpdateBody,
  SubjectCreateBody,
  SubjectUpdateBody,
  UserCreateBody,
  UserUpdateBody,
} from '@academy/contracts';
import { hashPassword } from '@academy/auth';
import { recordEvent } from '@academy/messaging';
import { User } from '../data/user.entity.ts';
import { Block, Center, Employee, Guardian, Student, Subject } from '../data/directory.entities.ts';
import { findOr404, guardConstraints, likeContains, mustExist, pageMeta } from './sql.ts';
import { employeeUpsertedData } from './employees.ts';
import { SOURCE } from './school-courses.ts';

type Input<T extends z.ZodType> = z.infer<T>;
type Meta = { correlationId: string };

/** A directory page, newest id first. */
async function paged<T extends { id: number }, R>(em: EntityManager, entity: EntityName<T>, fields: (keyof T & string)[], query: DirectoryPageQuery, map: (row: T) => R) {
  const where = (query.search ? { $or: fields.map((field) => ({ [field]: { $ilike: likeContains(query.search!) } })) } : {}) as FilterQuery<T>;
  const [rows, total] = await em.findAndCount(entity, where, { limit: query.limit, offset: (query.page - 1) * query.limit, orderBy: { id: 'desc' } as OrderDefinition<T> });
  return { data: rows.map(map), meta: pageMeta(total, query.page, query.limit) };
}

/**
 * Keeps `users.employee_id` and `employees.user_id` pointing at each other: links the pair (or
 * unlinks the user when `employeeId` is null), undoes the links it replaces, and records an
 * `employee.upserted` for every employee whose `userId` changed.
 */
async function linkUserAndEmployee(tx: EntityManager, link: { userId: number; employeeId: number | null }, meta: Meta): Promise<Set<number>> {
  const changed = new Set<number>();
  const previous = await tx.execute<{ id: number }[]>(`update employees set user_id = null, updated_at = now() where user_id = ? and id is distinct from ? returning id`, [link.userId, link.employeeId]);
  previous.forEach((row) => changed.add(row.id));
  await tx.execute(`update users set employee_id = ?, updated_at = now() where id = ?`, [link.employeeId, link.userId]);
  if (link.employeeId !== null) {
    await tx.execute(`update users set employee_id = null, updated_at = now() where employee_id = ? and id is distinct from ?`, [link.employeeId, link.userId]);
    const updated = await tx.execute<{ id: number }[]>(`update employees set user_id = ?, updated_at = now() where id = ? and user_id is distinct from ? returning id`, [link.userId, link.employeeId, link.userId]);
    updated.forEach((row) => changed.add(row.id));
  }
  if (changed.size === 0) return changed;
  const employeesChanged = await tx.find(Employee, { id: { $in: [...changed] } }, { refresh: true });
  for (const employee of employeesChanged) recordEvent(tx, 'employee.upserted', employeeUpsertedData(employee), { source: SOURCE, ...meta });
  return changed;
}

// ------------------------------------------------------------------------------------- users

type UserRow = InferEntity<typeof User>;
const userItem = (user: UserRow) => ({
  id: user.id,
  email: user.email,
  role: user.role,
  employeeId: user.employeeId ?? null,
  studentId: user.studentId ?? null,
  active: user.active,
  createdAt: user.createdAt.toISOString(),
});

export const users = {
  list: (em: EntityManager, query: DirectoryPageQuery) => paged(em, User, ['email'], query, userItem),
  get: (em: EntityManager, id: number) => findOr404(em, User, id, 'USER_NOT_FOUND', 'User not found'),
  item: userItem,
  async create(em: EntityManager, input: Input<typeof UserCreateBody>, meta: Meta) {
    await mustExist(em, ['employees', input.employeeId, 'EMPLOYEE_NOT_FOUND', 'Employee not found'], ['students', input.studentId, 'STUDENT_NOT_FOUND', 'Student not found']);
    const { password, employeeId, ...rest } = input;
    const passwordHash = await hashPassword(password);
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const user = tx.create(User, { ...rest, email: rest.email.toLowerCase(), passwordHash });
          await tx.flush();
          if (employeeId) await linkUserAndEmployee(tx, { userId: user.id, employeeId }, meta);
          await tx.refresh(user);
          return userItem(user);
        }),
      { unique: 'A user with this e-mail already exists' },
    );
  },
  async update(em: EntityManager, id: number, input: Input<typeof UserUpdateBody>, meta: Meta) {
    await mustExist(em, ['employees', input.employeeId, 'EMPLOYEE_NOT_FOUND', 'Employee not found'], ['students', input.studentId, 'STUDENT_NOT_FOUND', 'Student not found']);
    const { password, employeeId, ...rest } = input;
    const passwordHash = password ? await hashPassword(password) : undefined;
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const user = await users.get(tx, id);
          tx.assign(user, { ...rest, ...(rest.email ? { email: rest.email.toLowerCase() } : {}), ...(passwordHash ? { passwordHash } : {}) });
          await tx.flush();
          if (employeeId !== undefined) await linkUserAndEmployee(tx, { userId: id, employeeId }, meta);
          await tx.refresh(user);
          return userItem(user);
        }),
      { unique: 'A user with this e-mail already exists' },
    );
  },
  async deactivate(em: EntityManager, id: number) {
    const user = await users.get(em, id);
    user.active = false;
    await em.flush();
    return userItem(user);
  },
};

// --------------------------------------------------------------------------------- employees

type EmployeeRow = InferEntity<typeof Employee>;
const employeeItem = (employee: EmployeeRow) => ({
  id: employee.id,
  userId: employee.userId ?? null,
  name: employee.name,
  lastname: employee.lastname,
  email: employee.email ?? null,
  kind: employee.kind,
  active: employee.active,
  createdAt: employee.createdAt.toISOString(),
});

export const employees = {
  list: (em: EntityManager, query: DirectoryPageQuery) => paged(em, Employee, ['name', 'lastname', 'email'], query, employeeItem),
  get: (em: EntityManager, id: number) => findOr404(em, Employee, id, 'EMPLOYEE_NOT_FOUND', 'Employee not found'),
  item: employeeItem,
  async create(em: EntityManager, input: Input<typeof EmployeeCreateBody>, meta: Meta) {
    await mustExist(em, ['users', input.userId, 'USER_NOT_FOUND', 'User not found']);
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const { userId, ...fields } = input;
          const employee = tx.create(Employee, fields);
          await tx.flush();
          if (userId) await linkUserAndEmployee(tx, { userId, employeeId: employee.id }, meta);
          else recordEvent(tx, 'employee.upserted', employeeUpsertedData(employee), { source: SOURCE, ...meta });
          await tx.refresh(employee);
          return employeeItem(employee);
        }),
      { unique: 'This user is already linked to another employee' },
    );
  },
  async update(em: EntityManager, id: number, input: Input<typeof EmployeeUpdateBody>, meta: Meta) {
    await mustExist(em, ['users', input.userId, 'USER_NOT_FOUND', 'User not found']);
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const { userId, ...fields } = input;
          const employee = await employees.get(tx, id);
          tx.assign(employee, fields);
          await tx.flush();
          let announced = new Set<number>();
          if (userId !== undefined) {
            if (userId !== null) announced = await linkUserAndEmployee(tx, { userId, employeeId: id }, meta);
            else if (employee.userId) announced = await linkUserAndEmployee(tx, { userId: employee.userId, employeeId: null }, meta);
            await tx.refresh(employee);
          }
          if (!announced.has(id)) recordEvent(tx, 'employee.upserted', employeeUpsertedData(employee), { source: SOURCE, ...meta });
          return employeeItem(employee);
        }),
      { unique: 'This user is already linked to another employee' },
    );
  },
  /** Deactivates; `employee.deleted` tells the replicas this employee no longer works here. */
  async deactivate(em: EntityManager, id: number, meta: Meta) {
    return em.transactional(async (tx) => {
      const employee = await employees.get(tx, id);
      employee.active = false;
      recordEvent(tx, 'employee.deleted', { id }, { source: SOURCE, ...meta });
      return employeeItem(employee);
    });
  },
};

// ---------------------------------------------------------------------------------- students

type StudentRow = InferEntity<typeof Student>;
const studentItem = (student: StudentRow) => ({
  id: student.id,
  name: student.name,
  lastname: student.lastname,
  email: student.email ?? null,
  status: student.status,
  guardianId: student.guardianId ?? null,
  createdAt: student.createdAt.toISOString(),
});

export const students = {
  list: (em: EntityManager, query: DirectoryPageQuery) => paged(em, Student, ['name', 'lastname', 'email'], query, studentItem),
  get: (em: EntityManager, id: number) => findOr404(em, Student, id, 'STUDENT_NOT_FOUND', 'Student not found'),
  item: studentItem,
  async create(em: EntityManager, input: Input<typeof StudentCreateBody>) {
    await mustExist(em, ['guardians', input.guardianId, 'GUARDIAN_NOT_FOUND', 'Guardian not found']);
    const student = em.create(Student, input);
    await guardConstraints(() => em.flush(), { reference: 'Guardian not found' });
    return studentItem(student);
  },
  async update(em: EntityManager, id: number, input: Input<typeof StudentUpdateBody>) {
    const student = await students.get(em, id);
    await mustExist(em, ['guardians', input.guardianId, 'GUARDIAN_NOT_FOUND', 'Guardian not found']);
    em.assign(student, input);
    await guardConstraints(() => em.flush(), { reference: 'Guardian not found' });
    return studentItem(student);
  },
  async deactivate(em: EntityManager, id: number) {
    const student = await students.get(em, id);
    student.status = 'inactive';
    await em.flush();
    return studentItem(student);
  },
};

// --------------------------------------------------------------------------------- guardians

type GuardianRow = InferEntity<typeof Guardian>;
const guardianItem = (guardian: GuardianRow) => ({
  id: guardian.id,
  name: guardian.name,
  lastname: guardian.lastname,
  email: guardian.email,
  phone: guardian.phone ?? null,
  active: guardian.active,
  createdAt: guardian.createdAt.toISOString(),
});

export const guardians = {
  list: (em: EntityManager, query: DirectoryPageQuery) => paged(em, Guardian, ['name', 'lastname', 'email'], query, guardianItem),
  get: (em: EntityManager, id: number) => findOr404(em, Guardian, id, 'GUARDIAN_NOT_FOUND', 'Guardian not found'),
  item: guardianItem,
  async create(em: EntityManager, input: Input<typeof GuardianCreateBody>) {
    const guardian = em.create(Guardian, input);
    await em.flush();
    return guardianItem(guardian);
  },
  async update(em: EntityManager, id: number, input: Input<typeof GuardianUpdateBody>) {
    const guardian = await guardians.get(em, id);
    em.assign(guardian, input);
    await em.flush();
    return guardianItem(guardian);
  },
  async deactivate(em: EntityManager, id: number) {
    const guardian = await guardians.get(em, id);
    guardian.active = false;
    await em.flush();
    return guardianItem(guardian);
  },
};

// ---------------------------------------------------------------------------------- subjects

type SubjectRow = InferEntity<typeof Subject>;
type BlockRow = InferEntity<typeof Block>;
const subjectItem = (subject: SubjectRow, blocks: BlockRow[]) => ({
  id: subject.id,
  name: subject.name,
  active: subject.active,
  blocks: blocks.map((block) => ({ id: block.id, name: block.name, position: block.position })),
  createdAt: subject.createdAt.toISOString(),
});

async function blocksOf(em: EntityManager, subjectIds: number[]) {
  const blocks = subjectIds.length ? await em.find(Block, { subjectId: { $in: subjectIds } }, { orderBy: { subjectId: 'asc', position: 'asc' } }) : [];
  return (subjectId: number) => blocks.filter((block) => block.subjectId === subjectId);
}

const findSubject = (em: EntityManager, id: number) => findOr404(em, Subject, id, 'SUBJECT_NOT_FOUND', 'Subject not found');

export const subjects = {
  async list(em: EntityManager, query: DirectoryPageQuery) {
    const page = await paged(em, Subject, ['name'], query, (subject: SubjectRow) => subject);
    const blocks = await blocksOf(em, page.data.map((subject) => subject.id));
    return { data: page.data.map((subject) => subjectItem(subject, blocks(subject.id))), meta: page.meta };
  },
  async get(em: EntityManager, id: number) {
    const subject = await findSubject(em, id);
    return subjectItem(subject, (await blocksOf(em, [id]))(id));
  },
  async create(em: EntityManager, input: Input<typeof SubjectCreateBody>) {
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const subject = tx.create(Subject, { name: input.name });
          await tx.flush();
          const blocks = (input.blocks ?? []).map((name, index) => tx.create(Block, { subjectId: subject.id, name, position: index + 1 }));
          await tx.flush();
          return subjectItem(subject, blocks);
        }),
      { unique: 'A subject with this name already exists' },
    );
  },
  /**
   * `blocks`, when given, is the whole ordered list: existing blocks are renamed in place by
   * position (keeping their ids), extra ones added, missing trailing ones removed.
   */
  async update(em: EntityManager, id: number, input: Input<typeof SubjectUpdateBody>) {
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const subject = await findSubject(tx, id);
          const { blocks: names, ...fields } = input;
          tx.assign(subject, fields);
          if (names) {
            const current = await tx.find(Block, { subjectId: id }, { orderBy: { position: 'asc' } });
            names.forEach((name, index) => {
              const existing = current[index];
              if (existing) existing.name = name;
              else tx.create(Block, { subjectId: id, name, position: index + 1 });
            });
            current.slice(names.length).forEach((block) => tx.remove(block));
          }
          await tx.flush();
          return subjectItem(subject, (await blocksOf(tx, [id]))(id));
        }),
      { unique: 'A subject with this name already exists', reference: 'A removed block is still in use' },
    );
  },
  async deactivate(em: EntityManager, id: number) {
    const subject = await findSubject(em, id);
    subject.active = false;
    await em.flush();
    return subjectItem(subject, (await blocksOf(em, [id]))(id));
  },
};

// ----------------------------------------------------------------------------------- centers

type CenterRow = InferEntity<typeof Center>;
const centerItem = (center: CenterRow) => ({
  id: center.id,
  name: center.name,
  address: center.address ?? null,
  active: center.active,
  createdAt: center.createdAt.toISOString(),
});

export const centers = {
  list: (em: EntityManager, query: DirectoryPageQuery) => paged(em, Center, ['name', 'address'], query, centerItem),
  get: (em: EntityManager, id: number) => findOr404(em, Center, id, 'CENTER_NOT_FOUND', 'Center not found'),
  item: centerItem,
  async create(em: EntityManager, input: Input<typeof CenterCreateBody>) {
    const center = em.create(Center, input);
    await guardConstraints(() => em.flush(), { unique: 'A center with this name already exists' });
    return centerItem(center);
  },
  async update(em: EntityManager, id: number, input: Input<typeof CenterUpdateBody>) {
    const center = await centers.get(em, id);
    em.assign(center, input);
    await guardConstraints(() => em.flush(), { unique: 'A center with this name already exists' });
    return centerItem(center);
  },
  async deactivate(em: EntityManager, id: number) {
    const center = await centers.get(em, id);
    center.active = false;
    await em.flush();
    return centerItem(center);
  },
};
