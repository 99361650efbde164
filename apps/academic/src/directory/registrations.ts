// Admin CRUD of registrations; DELETE deletes the row (people and structure are deactivated instead).
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { RegistrationCreateBody, RegistrationListQuery, RegistrationUpdateBody } from '@academy/contracts';
import { pageMeta } from '@academy/kit';
import { Registration } from '../shared/entities/registration.entities.ts';
import { findOr404, givenFilters, guardConstraints } from '../shared/records.store.ts';
import type { Input } from './directory-page.ts';
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

const getRegistration = (em: EntityManager, id: number) => findOr404(em, Registration, id, 'REGISTRATION_NOT_FOUND', 'Registration not found');

export const registrations = {
  async list(em: EntityManager, query: Input<typeof RegistrationListQuery>) {
    const { page, limit, ...filters } = query;
    const [rows, total] = await em.findAndCount(Registration, givenFilters<RegistrationRow>(filters), { limit, offset: (page - 1) * limit, orderBy: { id: 'desc' } });
    return { data: rows.map(registrationItem), meta: pageMeta(total, page, limit) };
  },
  get: async (em: EntityManager, id: number) => registrationItem(await getRegistration(em, id)),
  async create(em: EntityManager, input: Input<typeof RegistrationCreateBody>) {
    await checkReferences(em, input);
    const registration = await guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const created = tx.create(Registration, input);
          await tx.flush();
          // The student's blocks of the subject come with the registration (the first one open).
          await ensureStudentBlocks(tx, { subjectId: created.subjectId, studentId: created.studentId });
          return created;
        }),
      { unique: 'The student is already registered in this subject for this school course' },
    );
    return registrationItem(registration);
  },
  async update(em: EntityManager, id: number, input: Input<typeof RegistrationUpdateBody>) {
    const registration = await getRegistration(em, id);
    await checkReferences(em, input);
    em.assign(registration, input);
    await guardConstraints(() => em.flush());
    return registrationItem(registration);
  },
  async remove(em: EntityManager, id: number) {
    const registration = await getRegistration(em, id);
    const item = registrationItem(registration);
    em.remove(registration);
    await em.flush();
    return item;
  },
};
