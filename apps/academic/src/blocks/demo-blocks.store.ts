import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureStudentBlocks } from '../shared/student-blocks.store.ts';

const REJECTION_REASON = 'Faltan los ejercicios finales del bloque; revísalos y vuelve a cerrarlo.';
const TEACHER_NOTE = 'He cerrado el bloque; la nota incluye el trabajo de clase.';

/**
 * Demo data of blocks, for the seed: every registered student gets their blocks, then each
 * student taught by a teacher in a subject has made deterministic progress there: some blocks
 * approved (`closed`, graded), the next one `pending` review, `open`, or rejected (open again, with
 * the administrator's reason in its thread), the rest `blocked`. No events: the seed records none
 * for blocks, like a history that predates the outbox.
 */
export async function seedDemoBlocks(em: EntityManager, subjectIds: number[]) {
  const [reviewer] = await em.execute<{ id: number | null }[]>(`select min(id) as id from users where role = 'admin'`);
  const reviewerUserId = reviewer?.id ?? null;
  for (const subjectId of subjectIds) await ensureStudentBlocks(em, { subjectId });
  await em.execute(
    `with taught as (
       select distinct on (r.student_id, r.subject_id) r.student_id, r.subject_id, r.employee_id
         from registrations r join school_courses c on c.id = r.school_course_id
        where r.employee_id is not null and r.status <> 'cancelled'
        order by r.student_id, r.subject_id, c.start_date desc, c.id desc),
     plan as (
       select sb.id, sb.student_id, b.position, t.employee_id,
              (t.student_id * 7 + t.subject_id * 3) % (n.blocks + 1) as done,
              (t.student_id + t.subject_id) % 4 as next_state -- 0 open, 1–2 pending, 3 rejected
         from taught t
         join blocks b on b.subject_id = t.subject_id
         join student_blocks sb on sb.student_id = t.student_id and sb.block_id = b.id
         join (select subject_id, count(*)::int as blocks from blocks group by subject_id) n on n.subject_id = t.subject_id),
     shaped as (
       select id, employee_id, position, student_id,
              case when position <= done then 'closed' when position = done + 1 and next_state in (1, 2) then 'pending' when position = done + 1 then 'open' else 'blocked' end as status,
              position = done + 1 and next_state = 3 as rejected
         from plan)
     update student_blocks sb
        set status = s.status,
            grade = case when s.status in ('closed', 'pending') or s.rejected then 5 + ((s.student_id * 13 + s.position * 7) % 51) / 10.0 end,
            employee_id = case when s.status in ('closed', 'pending') or s.rejected then s.employee_id end,
            closed_at = case when s.status = 'closed' then timestamptz '2026-09-14 09:00+00' + s.position * interval '9 days' + s.student_id * interval '7 minutes'
                             when s.status = 'pending' then now() - ((s.student_id % 40) + 1) * interval '150 minutes'
                             when s.rejected then now() - interval '6 days' + s.student_id * interval '3 minutes' end,
            approved_at = case when s.status = 'closed' then timestamptz '2026-09-16 12:00+00' + s.position * interval '9 days' + s.student_id * interval '7 minutes' end,
            rejected_at = case when s.rejected then now() - interval '4 days' + s.student_id * interval '3 minutes' end,
            reviewed_by_user_id = case when s.status = 'closed' or s.rejected then ?::int end,
            updated_at = now()
       from shaped s
      where sb.id = s.id`,
    [reviewerUserId],
  );
  await em.execute(
    `insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at)
     select id, ?, 'admin', 'rejection', ?, rejected_at from student_blocks where status = 'open' and rejected_at is not null`,
    [reviewerUserId, REJECTION_REASON],
  );
  await em.execute(
    `insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at)
     select sb.id, e.user_id, 'teacher', 'message', ?, sb.closed_at + interval '1 minute'
       from student_blocks sb join employees e on e.id = sb.employee_id
      where sb.status = 'pending' and sb.student_id % 3 = 0`,
    [TEACHER_NOTE],
  );
  const counts = await em.execute<{ status: string; count: number }[]>(`select status, count(*)::int as count from student_blocks group by status`);
  return Object.fromEntries(counts.map((row) => [row.status, row.count])) as Partial<Record<'open' | 'blocked' | 'pending' | 'closed', number>>;
}
