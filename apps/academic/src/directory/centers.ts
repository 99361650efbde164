import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { CenterCreateBody, CenterUpdateBody, DirectoryPageQuery } from '@academy/contracts';
import { Center } from './directory.entities.ts';
import { findOr404, guardConstraints } from '../shared/records.store.ts';
import { paged, type Input } from './directory-page.ts';

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
