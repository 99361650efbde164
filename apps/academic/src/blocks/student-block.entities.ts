import { defineEntity, p } from '@mikro-orm/postgresql';
import { STUDENT_BLOCK_STATUS_VALUES } from '@academy/contracts';

// Foreign keys (students, blocks, employees, users), the grade's range and the partial indexes of
// the review queues are declared by hand in the migration.

/** One per (student, block): where the student stands in that block. The block's order is `blocks.position`. */
export const StudentBlock = defineEntity({
  name: 'StudentBlock',
  tableName: 'student_blocks',
  uniques: [{ properties: ['studentId', 'blockId'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    studentId: p.integer(),
    blockId: p.integer().index(),
    status: p.enum(STUDENT_BLOCK_STATUS_VALUES).default('blocked'),
    /** 0–10, two decimals; null while ungraded. */
    grade: p.decimal('number').precision(4).scale(2).nullable(),
    /** The teacher who closed it last. */
    employeeId: p.integer().nullable().index(),
    /** When the teacher closed it last (it went to `pending`). */
    closedAt: p.datetime().nullable(),
    /** The last rejection (it went back to `open`); the reason lives in the thread, not here. */
    rejectedAt: p.datetime().nullable(),
    /** When an administrator approved it (it went to `closed`). */
    approvedAt: p.datetime().nullable(),
    reviewedByUserId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export const THREAD_AUTHOR_ROLES = ['admin', 'teacher'] as const;
export const THREAD_MESSAGE_KINDS = ['message', 'rejection'] as const;

/** A message between the student's teacher and the administration about one student block. */
export const StudentBlockMessage = defineEntity({
  name: 'StudentBlockMessage',
  tableName: 'student_block_messages',
  indexes: [{ properties: ['studentBlockId', 'id'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    studentBlockId: p.integer(),
    authorUserId: p.integer().nullable(),
    authorRole: p.enum(THREAD_AUTHOR_ROLES),
    kind: p.enum(THREAD_MESSAGE_KINDS).default('message'),
    body: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export const blockEntities = [StudentBlock, StudentBlockMessage];
