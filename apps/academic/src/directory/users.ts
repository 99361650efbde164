import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { DirectoryPageQuery, UserCreateBody, UserUpdateBody } from '@academy/contracts';
import { hashPassword } from '@academy/auth';
import { User } from '../shared/entities/user.entity.ts';
import { findOr404, guardConstraints, mustExist } from '../shared/records.store.ts';
import { paged, type EmployeeMeta, type Input } from './directory-page.ts';
import { linkUserAndEmployee } from './user-employee-link.ts';

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
  async create(em: EntityManager, input: Input<typeof UserCreateBody>, meta: EmployeeMeta) {
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
  async update(em: EntityManager, id: number, input: Input<typeof UserUpdateBody>, meta: EmployeeMeta) {
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
