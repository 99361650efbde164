import type { InferEntity } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { DirectoryPageQuery, UserCreateBody, UserUpdateBody } from '@academy/contracts';
import { hashPassword, type Actor } from '@academy/auth';
import { afterCommit } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { User } from '../shared/entities/user.entity.ts';
import type { ById, EmployeeMeta, Input } from './directory.types.ts';
import { checkExists, findUser, pageOf, writeInTransaction } from './directory.store.ts';
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

/** What a user write's events carry (a link records `employee.upserted`): the caller's correlation id and the key of the tax id's digest. */
const metaOf = (ctx: AcademicContext, actor: Actor): EmployeeMeta => ({ correlationId: actor.correlationId, taxIdDigestKey: ctx.config.TAX_ID_DIGEST_KEY });
/** After a change has committed, the relay publishes its events now. */
const announced = (ctx: AcademicContext) => afterCommit(() => ctx.relay.nudge());

// A deactivated user, or one whose token claims (role, employee, student) or password change, is
// logged out everywhere: their sessions end, and every verifier refuses their access tokens within seconds.
const endsSessions = (input: z.infer<typeof UserUpdateBody>) =>
  input.active === false || input.role !== undefined || input.employeeId !== undefined || input.studentId !== undefined || input.password !== undefined;

function listUsers(ctx: AcademicContext, input: DirectoryPageQuery, _actor: Actor) {
  return pageOf(ctx.orm.em, User, ['email'], input, userItem);
}

async function readUser(ctx: AcademicContext, input: ById, _actor: Actor) {
  return userItem(await findUser(ctx.orm.em, input.id));
}

async function createUser(ctx: AcademicContext, input: Input<typeof UserCreateBody>, actor: Actor) {
  const meta = metaOf(ctx, actor);
  await checkExists(ctx.orm.em, ['employees', input.employeeId, 'EMPLOYEE_NOT_FOUND', 'Employee not found'], ['students', input.studentId, 'STUDENT_NOT_FOUND', 'Student not found']);
  const { password, employeeId, ...rest } = input;
  const passwordHash = await hashPassword(password);
  const item = await writeInTransaction(ctx.orm.em, async (tx) => {
    const user = tx.create(User, { ...rest, email: rest.email.toLowerCase(), passwordHash });
    await tx.flush();
    if (employeeId) await linkUserAndEmployee(tx, { userId: user.id, employeeId }, meta);
    await tx.refresh(user);
    return userItem(user);
  }, { unique: 'A user with this e-mail already exists' });
  await announced(ctx);
  return item;
}

async function updateUser(ctx: AcademicContext, { id, ...input }: Input<typeof UserUpdateBody> & ById, actor: Actor) {
  const meta = metaOf(ctx, actor);
  await checkExists(ctx.orm.em, ['employees', input.employeeId, 'EMPLOYEE_NOT_FOUND', 'Employee not found'], ['students', input.studentId, 'STUDENT_NOT_FOUND', 'Student not found']);
  const { password, employeeId, ...rest } = input;
  const passwordHash = password ? await hashPassword(password) : undefined;
  const item = await writeInTransaction(ctx.orm.em, async (tx) => {
    const user = await findUser(tx, id);
    tx.assign(user, { ...rest, ...(rest.email ? { email: rest.email.toLowerCase() } : {}), ...(passwordHash ? { passwordHash } : {}) });
    await tx.flush();
    if (employeeId !== undefined) await linkUserAndEmployee(tx, { userId: id, employeeId }, meta);
    await tx.refresh(user);
    return userItem(user);
  }, { unique: 'A user with this e-mail already exists' });
  if (endsSessions(input)) await ctx.sessions.endUserSessions(ctx.orm.em, id);
  await announced(ctx);
  return item;
}

async function deactivateUser(ctx: AcademicContext, { id }: ById, _actor: Actor) {
  const user = await findUser(ctx.orm.em, id);
  user.active = false;
  await ctx.orm.em.flush();
  await ctx.sessions.endUserSessions(ctx.orm.em, id);
  await announced(ctx);
  return userItem(user);
}

/** Admin use cases of users (logins); DELETE deactivates and ends their sessions. */
export const users = { list: listUsers, get: readUser, create: createUser, update: updateUser, remove: deactivateUser };
