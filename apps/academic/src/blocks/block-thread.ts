import type { EntityManager } from '@mikro-orm/postgresql';
import type { StudentBlockStatus, ThreadMessage } from '@academy/contracts';
import { isAdmin, teachesSql, type BlockActor } from './block-access.ts';
import { fullNameSql, isoTime } from './sql-values.ts';
import { notTheTeacher, studentBlockNotFound } from './blocks.errors.ts';

interface ThreadTarget {
  studentBlockId: number;
  blockId: number;
  studentId: number;
  status: StudentBlockStatus;
  callerTeaches: boolean;
}

/** The student block, if the caller may see its thread: 404 when missing, 403 for anyone but an admin or the student's teacher. */
async function threadTarget(em: EntityManager, studentBlockId: number, actor: BlockActor): Promise<ThreadTarget> {
  const [target] = await em.execute<ThreadTarget[]>(
    `select sb.id as "studentBlockId", sb.block_id as "blockId", sb.student_id as "studentId", sb.status,
            ${teachesSql('sb.student_id', 'b.subject_id')} as "callerTeaches"
       from student_blocks sb join blocks b on b.id = sb.block_id
      where sb.id = ?`,
    [actor.employeeId, studentBlockId],
  );
  if (!target) throw studentBlockNotFound();
  if (!isAdmin(actor) && !target.callerTeaches) throw notTheTeacher();
  return target;
}

interface MessageRow {
  id: number;
  studentBlockId: number;
  authorUserId: number | null;
  authorRole: 'admin' | 'teacher';
  authorName: string | null;
  kind: 'message' | 'rejection';
  message: string;
  createdAt: string;
}

const MESSAGE_COLUMNS = `m.id, m.student_block_id as "studentBlockId", m.author_user_id as "authorUserId", m.author_role as "authorRole",
  ${fullNameSql('e')} as "authorName", m.kind, m.body as message, m.created_at as "createdAt"`;
const AUTHOR_JOINS = `left join users u on u.id = m.author_user_id left join employees e on e.id = u.employee_id`;

const toMessage = (row: MessageRow): ThreadMessage => ({ ...row, createdAt: isoTime(row.createdAt)! });

/** The thread of a student block, oldest message first. */
export async function readThread(em: EntityManager, studentBlockId: number, actor: BlockActor) {
  const target = await threadTarget(em, studentBlockId, actor);
  const rows = await em.execute<MessageRow[]>(`select ${MESSAGE_COLUMNS} from student_block_messages m ${AUTHOR_JOINS} where m.student_block_id = ? order by m.id`, [studentBlockId]);
  return { ok: true as const, studentBlockId, blockId: target.blockId, studentId: target.studentId, status: target.status, messages: rows.map(toMessage) };
}

/** Adds the caller's message (as admin or as the teacher) to the thread. */
export async function addThreadMessage(em: EntityManager, studentBlockId: number, message: string, actor: BlockActor) {
  await threadTarget(em, studentBlockId, actor);
  const [row] = await em.execute<MessageRow[]>(
    `with m as (
       insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at)
       values (?, ?, ?, 'message', ?, now())
       returning *)
     select ${MESSAGE_COLUMNS} from m ${AUTHOR_JOINS}`,
    [studentBlockId, actor.userId, isAdmin(actor) ? 'admin' : 'teacher', message],
  );
  return { ok: true as const, data: toMessage(row!) };
}
