import type { InferEntity } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { DirectoryPageQuery, GuardianCreateBody, GuardianUpdateBody } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { Guardian } from './directory.entities.ts';
import type { ById, Input } from './directory.types.ts';
import { findGuardian, insertRow, pageOf, saveChanges } from './directory.store.ts';

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

function listGuardians(ctx: AcademicContext, input: DirectoryPageQuery, _actor: Actor) {
  return pageOf(ctx.orm.em, Guardian, ['name', 'lastname', 'email'], input, guardianItem);
}

async function readGuardian(ctx: AcademicContext, input: ById, _actor: Actor) {
  return guardianItem(await findGuardian(ctx.orm.em, input.id));
}

async function createGuardian(ctx: AcademicContext, input: Input<typeof GuardianCreateBody>, _actor: Actor) {
  const guardian = await insertRow(ctx.orm.em, Guardian, input);
  return guardianItem(guardian);
}

async function updateGuardian(ctx: AcademicContext, { id, ...changes }: Input<typeof GuardianUpdateBody> & ById, _actor: Actor) {
  const guardian = await findGuardian(ctx.orm.em, id);
  ctx.orm.em.assign(guardian, changes);
  await saveChanges(ctx.orm.em);
  return guardianItem(guardian);
}

async function deactivateGuardian(ctx: AcademicContext, input: ById, _actor: Actor) {
  const guardian = await findGuardian(ctx.orm.em, input.id);
  guardian.active = false;
  await ctx.orm.em.flush();
  return guardianItem(guardian);
}

/** Admin use cases of guardians; DELETE deactivates. */
export const guardians = { list: listGuardians, get: readGuardian, create: createGuardian, update: updateGuardian, remove: deactivateGuardian };
