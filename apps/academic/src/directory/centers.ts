import type { InferEntity } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { CenterCreateBody, CenterUpdateBody, DirectoryPageQuery } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { Center } from './directory.entities.ts';
import type { ById, Input } from './directory.types.ts';
import { findCenter, insertRow, pageOf, saveChanges } from './directory.store.ts';

type CenterRow = InferEntity<typeof Center>;
const centerItem = (center: CenterRow) => ({
  id: center.id,
  name: center.name,
  address: center.address ?? null,
  active: center.active,
  createdAt: center.createdAt.toISOString(),
});

function listCenters(ctx: AcademicContext, input: DirectoryPageQuery, _actor: Actor) {
  return pageOf(ctx.orm.em, Center, ['name', 'address'], input, centerItem);
}

async function readCenter(ctx: AcademicContext, input: ById, _actor: Actor) {
  return centerItem(await findCenter(ctx.orm.em, input.id));
}

async function createCenter(ctx: AcademicContext, input: Input<typeof CenterCreateBody>, _actor: Actor) {
  const center = await insertRow(ctx.orm.em, Center, input, { unique: 'A center with this name already exists' });
  return centerItem(center);
}

async function updateCenter(ctx: AcademicContext, { id, ...changes }: Input<typeof CenterUpdateBody> & ById, _actor: Actor) {
  const center = await findCenter(ctx.orm.em, id);
  ctx.orm.em.assign(center, changes);
  await saveChanges(ctx.orm.em, { unique: 'A center with this name already exists' });
  return centerItem(center);
}

async function deactivateCenter(ctx: AcademicContext, input: ById, _actor: Actor) {
  const center = await findCenter(ctx.orm.em, input.id);
  center.active = false;
  await ctx.orm.em.flush();
  return centerItem(center);
}

/** Admin use cases of centers; DELETE deactivates. */
export const centers = { list: listCenters, get: readCenter, create: createCenter, update: updateCenter, remove: deactivateCenter };
