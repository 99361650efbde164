import type { InferEntity } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { DirectoryPageQuery, StudentCreateBody, StudentUpdateBody } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { Student } from './directory.entities.ts';
import type { ById, Input } from './directory.types.ts';
import { checkExists, findStudent, insertRow, pageOf, saveChanges } from './directory.store.ts';

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

function listStudents(ctx: AcademicContext, input: DirectoryPageQuery, _actor: Actor) {
  return pageOf(ctx.orm.em, Student, ['name', 'lastname', 'email'], input, studentItem);
}

async function readStudent(ctx: AcademicContext, input: ById, _actor: Actor) {
  return studentItem(await findStudent(ctx.orm.em, input.id));
}

async function createStudent(ctx: AcademicContext, input: Input<typeof StudentCreateBody>, _actor: Actor) {
  const em = ctx.orm.em;
  await checkExists(em, ['guardians', input.guardianId, 'GUARDIAN_NOT_FOUND', 'Guardian not found']);
  const student = await insertRow(em, Student, input, { reference: 'Guardian not found' });
  return studentItem(student);
}

async function updateStudent(ctx: AcademicContext, { id, ...changes }: Input<typeof StudentUpdateBody> & ById, _actor: Actor) {
  const em = ctx.orm.em;
  const student = await findStudent(em, id);
  await checkExists(em, ['guardians', changes.guardianId, 'GUARDIAN_NOT_FOUND', 'Guardian not found']);
  em.assign(student, changes);
  await saveChanges(em, { reference: 'Guardian not found' });
  return studentItem(student);
}

async function deactivateStudent(ctx: AcademicContext, input: ById, _actor: Actor) {
  const student = await findStudent(ctx.orm.em, input.id);
  student.status = 'inactive';
  await ctx.orm.em.flush();
  return studentItem(student);
}

/** Admin use cases of students; DELETE deactivates (status `inactive`). */
export const students = { list: listStudents, get: readStudent, create: createStudent, update: updateStudent, remove: deactivateStudent };
