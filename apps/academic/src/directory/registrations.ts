// Admin CRUD of registrations; DELETE deletes the row (people and structure are deactivated instead).
import type { InferEntity } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { RegistrationCreateBody, RegistrationListQuery, RegistrationUpdateBody } from '@academy/contracts';
import { pageMeta } from '@academy/kit';
import { Registration } from '../shared/entities/registration.entities.ts';
import { givenFilters } from '../shared/records.store.ts';
import type { AcademicContext } from '../shared/academic-context.ts';
import type { ById, Input } from './directory.types.ts';
import { findRegistration, saveChanges, writeInTransaction } from './directory.store.ts';
import { checkReferences } from './references.ts';
import { ensureStudentBlocks } from '../shared/student-blocks.store.ts';

type RegistrationRow = InferEntity<typeof Registration>;
const registrationItem = (registration: RegistrationRow) => ({
  id: registration.id,
  studentId: registration.studentId,
  schoolCourseId: registration.schoolCourseId,
  subjectId: registration.subjectId,
  centerId: registration.centerId,
  employeeId: registration.employeeId ?? null,
  status: registration.status,
  createdAt: registration.createdAt.toISOString(),
});

async function listRegistrations(ctx: AcademicContext, input: Input<typeof RegistrationListQuery>, _actor: Actor) {
  const { page, limit, ...filters } = input;
  const [rows, total] = await ctx.orm.em.findAndCount(Registration, givenFilters<RegistrationRow>(filters), { limit, offset: (page - 1) * limit, orderBy: { id: 'desc' } });
  return { data: rows.map(registrationItem), meta: pageMeta(total, page, limit) };
}

async function readRegistration(ctx: AcademicContext, input: ById, _actor: Actor) {
  return registrationItem(await findRegistration(ctx.orm.em, input.id));
}

async function createRegistration(ctx: AcademicContext, input: Input<typeof RegistrationCreateBody>, _actor: Actor) {
  await checkReferences(ctx.orm.em, input);
  const registration = await writeInTransaction(ctx.orm.em, async (tx) => {
    const created = tx.create(Registration, input);
    await tx.flush();
    // The student's blocks of the subject come with the registration (the first one open).
    await ensureStudentBlocks(tx, { subjectId: created.subjectId, studentId: created.studentId });
    return created;
  }, { unique: 'The student is already registered in this subject for this school course' });
  return registrationItem(registration);
}

async function updateRegistration(ctx: AcademicContext, { id, ...changes }: Input<typeof RegistrationUpdateBody> & ById, _actor: Actor) {
  const em = ctx.orm.em;
  const registration = await findRegistration(em, id);
  await checkReferences(em, changes);
  em.assign(registration, changes);
  await saveChanges(em);
  return registrationItem(registration);
}

async function deleteRegistration(ctx: AcademicContext, input: ById, _actor: Actor) {
  const em = ctx.orm.em;
  const registration = await findRegistration(em, input.id);
  const item = registrationItem(registration);
  em.remove(registration);
  await em.flush();
  return item;
}

/** Admin use cases of registrations; DELETE deletes the row. */
export const registrations = { list: listRegistrations, get: readRegistration, create: createRegistration, update: updateRegistration, remove: deleteRegistration };
