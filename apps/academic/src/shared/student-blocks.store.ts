// Shared by the features that register students or add blocks (directory) and the blocks feature.
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Gives the students registered in a subject (one student, or all of them) a student block for
 * every block of the subject they lack, in one statement; run it in the transaction that registers
 * the student or adds the block. A new student block is `open` when every earlier block of that
 * student in the subject is `closed` (so the first block of a new registration is open), and
 * `blocked` otherwise. Existing student blocks are left as they are: it is idempotent, and a
 * concurrent call inserts nothing twice (unique student and block). Returns how many it created.
 */
export async function ensureStudentBlocks(em: EntityManager, target: { subjectId: number; studentId?: number }): Promise<number> {
  const forStudent = target.studentId === undefined ? '' : 'and r.student_id = ?';
  const rows = await em.execute<{ id: number }[]>(
    `insert into student_blocks (student_id, block_id, status, created_at, updated_at)
     select s.student_id, b.id,
            case when exists (
                   select 1 from blocks earlier
                    where earlier.subject_id = b.subject_id and earlier.position < b.position
                      and not exists (select 1 from student_blocks done where done.student_id = s.student_id and done.block_id = earlier.id and done.status = 'closed'))
                 then 'blocked' else 'open' end,
            now(), now()
       from (select distinct r.student_id from registrations r where r.subject_id = ? ${forStudent}) s
       join blocks b on b.subject_id = ?
      order by s.student_id, b.position
     on conflict (student_id, block_id) do nothing
     returning id`,
    target.studentId === undefined ? [target.subjectId, target.subjectId] : [target.subjectId, target.studentId, target.subjectId],
  );
  return rows.length;
}
