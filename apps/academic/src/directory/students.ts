import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { DirectoryPageQuery, StudentCreateBody, StudentUpdateBody } from '@academy/contracts';
import { Student } from './directory.entities.ts';
import { findOr404, guardConstraints, mustExist } from '../shared/records.store.ts';
import { paged, type Input } from './directory-page.ts';

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
