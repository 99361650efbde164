import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { DirectoryPageQuery, SubjectCreateBody, SubjectUpdateBody } from '@academy/contracts';
import { Block, Subject } from './directory.entities.ts';
import { findOr404, guardConstraints } from '../shared/records.store.ts';
import { paged, type Input } from './directory-page.ts';
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

async function blocksOf(em: EntityManager, subjectIds: number[]) {
  const blocks = subjectIds.length ? await em.find(Block, { subjectId: { $in: subjectIds } }, { orderBy: { subjectId: 'asc', position: 'asc' } }) : [];
  return (subjectId: number) => blocks.filter((block) => block.subjectId === subjectId);
}

const findSubject = (em: EntityManager, id: number) => findOr404(em, Subject, id, 'SUBJECT_NOT_FOUND', 'Subject not found');

export const subjects = {
  async list(em: EntityManager, query: DirectoryPageQuery) {
    const page = await paged(em, Subject, ['name'], query, (subject: SubjectRow) => subject);
    const blocks = await blocksOf(em, page.data.map((subject) => subject.id));
    return { data: page.data.map((subject) => subjectItem(subject, blocks(subject.id))), meta: page.meta };
  },
  async get(em: EntityManager, id: number) {
    const subject = await findSubject(em, id);
    return subjectItem(subject, (await blocksOf(em, [id]))(id));
  },
  async create(em: EntityManager, input: Input<typeof SubjectCreateBody>) {
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const subject = tx.create(Subject, { name: input.name });
          await tx.flush();
          const blocks = (input.blocks ?? []).map((name, index) => tx.create(Block, { subjectId: subject.id, name, position: index + 1 }));
          await tx.flush();
          return subjectItem(subject, blocks);
        }),
      { unique: 'A subject with this name already exists' },
    );
  },
  /**
   * `blocks`, when given, is the whole ordered list: existing blocks are renamed in place by
   * position (keeping their ids), extra ones added, missing trailing ones removed.
   */
  async update(em: EntityManager, id: number, input: Input<typeof SubjectUpdateBody>) {
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
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
        }),
      { unique: 'A subject with this name already exists', reference: 'A removed block is still in use' },
    );
  },
  async deactivate(em: EntityManager, id: number) {
    const subject = await findSubject(em, id);
    subject.active = false;
    await em.flush();
    return subjectItem(subject, (await blocksOf(em, [id]))(id));
  },
};
