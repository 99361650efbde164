import type { InferEntity } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { DirectoryPageQuery, SubjectCreateBody, SubjectUpdateBody } from '@academy/contracts';
import type { AcademicContext } from '../shared/academic-context.ts';
import { Block, Subject } from './directory.entities.ts';
import type { ById, Input } from './directory.types.ts';
import { blocksOf, findSubject, pageOf, writeInTransaction } from './directory.store.ts';
import { ensureStudentBlocks } from '../shared/student-blocks.store.ts';

type SubjectRow = InferEntity<typeof Subject>;
type BlockRow = InferEntity<typeof Block>;
const subjectItem = (subject: SubjectRow, blocks: BlockRow[]) => ({
  id: subject.id,
  name: subject.name,
  active: subject.active,
  blocks: blocks.map((block) => ({ id: block.id, name: block.name, position: block.position })),
  createdAt: subject.createdAt.toISOString(),
});

async function listSubjects(ctx: AcademicContext, input: DirectoryPageQuery, _actor: Actor) {
  const page = await pageOf(ctx.orm.em, Subject, ['name'], input, (subject: SubjectRow) => subject);
  const blocks = await blocksOf(ctx.orm.em, page.data.map((subject) => subject.id));
  return { data: page.data.map((subject) => subjectItem(subject, blocks(subject.id))), meta: page.meta };
}

async function readSubject(ctx: AcademicContext, { id }: ById, _actor: Actor) {
  const subject = await findSubject(ctx.orm.em, id);
  return subjectItem(subject, (await blocksOf(ctx.orm.em, [id]))(id));
}

async function createSubject(ctx: AcademicContext, input: Input<typeof SubjectCreateBody>, _actor: Actor) {
  return writeInTransaction(ctx.orm.em, async (tx) => {
    const subject = tx.create(Subject, { name: input.name });
    await tx.flush();
    const blocks = (input.blocks ?? []).map((name, index) => tx.create(Block, { subjectId: subject.id, name, position: index + 1 }));
    await tx.flush();
    return subjectItem(subject, blocks);
  }, { unique: 'A subject with this name already exists' });
}

/**
 * `blocks`, when given, is the whole ordered list: existing blocks are renamed in place by
 * position (keeping their ids), extra ones added, missing trailing ones removed.
 */
async function updateSubject(ctx: AcademicContext, { id, ...input }: Input<typeof SubjectUpdateBody> & ById, _actor: Actor) {
  return writeInTransaction(ctx.orm.em, async (tx) => {
    const subject = await findSubject(tx, id);
    const { blocks: names, ...fields } = input;
    tx.assign(subject, fields);
    if (names) {
      const current = await tx.find(Block, { subjectId: id }, { orderBy: { position: 'asc' } });
      names.forEach((name, index) => {
        const existing = current[index];
        if (existing) existing.name = name;
        else tx.create(Block, { subjectId: id, name, position: index + 1 });
      });
      current.slice(names.length).forEach((block) => tx.remove(block));
    }
    await tx.flush();
    // Registered students get the added blocks (open when they have closed every earlier one).
    if (names) await ensureStudentBlocks(tx, { subjectId: id });
    return subjectItem(subject, (await blocksOf(tx, [id]))(id));
  }, { unique: 'A subject with this name already exists', reference: 'A removed block is still in use' });
}

async function deactivateSubject(ctx: AcademicContext, { id }: ById, _actor: Actor) {
  const subject = await findSubject(ctx.orm.em, id);
  subject.active = false;
  await ctx.orm.em.flush();
  return subjectItem(subject, (await blocksOf(ctx.orm.em, [id]))(id));
}

/** Admin use cases of subjects and their blocks; DELETE deactivates. */
export const subjects = { list: listSubjects, get: readSubject, create: createSubject, update: updateSubject, remove: deactivateSubject };
