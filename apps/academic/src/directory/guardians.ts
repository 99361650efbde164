import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { DirectoryPageQuery, GuardianCreateBody, GuardianUpdateBody } from '@academy/contracts';
import { Guardian } from './directory.entities.ts';
import { findOr404 } from '../shared/records.store.ts';
import { paged, type Input } from './directory-page.ts';

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
