// Warnings: a student whose weighted attendance in a subject drops below the threshold (after the
// minimum number of counted sessions) gets one `attendance.threshold-crossed`, and no other until it
// has risen to the threshold or above and dropped again. The state per (student, subject) is a row
// of attendance_standings; callers hold the subject's attendance lock, so two saves cannot both see
// the same crossing.
import type { EntityManager } from '@mikro-orm/postgresql';
import { deliverableEmail, type EventData, type Locale } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { recordEvent } from '@academy/messaging';
import { z } from 'zod';
import { SOURCE } from '../shared/events.ts';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.ts';

export interface WarningSettings {
  timeZone: string;
  thresholdPercent: number;
  minSessions: number;
}

/**
 * SQL of the weighted attendance per student in subject `?` for students `?` (int array): sessions
 * of the current school course (from its first day in the time zone `?`), excused ones not counted.
 */
const STANDING_SQL = `
  select m.student_id as "studentId",
         count(*) filter (where st.weight is not null)::int as counted,
         coalesce(round(100 * sum(st.weight) / nullif(count(*) filter (where st.weight is not null), 0), 2), 0)::float8 as percentage
    from attendance_marks m
    join calendar_events e on e.id = m.event_id
    join attendance_statuses st on st.code = m.status
   where e.subject_id = ? and m.student_id = any(?::int[])
     and e.starts_at >= coalesce((select c.start_date::timestamp at time zone ? from school_courses c where c.id = ${LATEST_SCHOOL_COURSE_SQL}), '-infinity')
   group by m.student_id`;

const anEmail = z.email();
const validEmail = (address: string | null | undefined): string | null => {
  const candidate = deliverableEmail(address?.trim());
  return candidate && anEmail.safeParse(candidate).success ? candidate : null;
};

/** Updates the standings of the students after a save and records a warning for each new crossing. Answers how many. */
export async function checkWarnings(
  tx: EntityManager,
  change: { subjectId: number; eventId: number; studentIds: number[]; at: Date; correlationId: string },
  settings: WarningSettings,
): Promise<number> {
  if (change.studentIds.length === 0) return 0;
  const ids = pgArray(change.studentIds);
  const standings = await tx.execute<{ studentId: number; counted: number; percentage: number }[]>(STANDING_SQL, [change.subjectId, ids, settings.timeZone]);
  const before = await tx.execute<{ studentId: number; below: boolean }[]>(`select student_id as "studentId", below from attendance_standings where subject_id = ? and student_id = any(?::int[])`, [
    change.subjectId,
    ids,
  ]);
  const wasBelow = new Map(before.map((row) => [row.studentId, row.below]));
  const now = standings.map((row) => ({ ...row, below: row.counted >= settings.minSessions && row.percentage < settings.thresholdPercent }));
  await tx.execute(
    `insert into attendance_standings (student_id, subject_id, below, percentage, changed_at)
     select x.student_id, ?, x.below, x.percentage, ?::timestamptz from jsonb_to_recordset(?::jsonb) as x(student_id int, below boolean, percentage numeric)
     on conflict (student_id, subject_id) do update set below = excluded.below, percentage = excluded.percentage,
       changed_at = case when attendance_standings.below = excluded.below then attendance_standings.changed_at else excluded.changed_at end`,
    [change.subjectId, change.at, JSON.stringify(now.map((row) => ({ student_id: row.studentId, below: row.below, percentage: row.percentage })))],
  );
  const crossed = now.filter((row) => row.below && !wasBelow.get(row.studentId));
  if (crossed.length === 0) return 0;

  const people = await tx.execute<{ studentId: number; studentName: string; subjectName: string; guardianName: string | null; guardianEmail: string | null }[]>(
    `select s.id as "studentId", trim(s.name || ' ' || s.lastname) as "studentName", sub.name as "subjectName",
            trim(g.name || ' ' || g.lastname) as "guardianName", g.email as "guardianEmail"
       from students s
       cross join subjects sub
       left join guardians g on g.id = s.guardian_id and g.active
      where sub.id = ? and s.id = any(?::int[])`,
    [change.subjectId, pgArray(crossed.map((row) => row.studentId))],
  );
  const adminRows = await tx.execute<{ name: string; email: string; locale: Locale | null }[]>(
    `select coalesce(nullif(trim(e.name || ' ' || e.lastname), ''), u.email) as name, u.email, u.locale
       from users u left join employees e on e.id = u.employee_id
      where u.role = 'admin' and u.active order by u.id`,
  );
  const admins = adminRows.flatMap((admin) => {
    const email = validEmail(admin.email);
    return email ? [{ name: admin.name, email, locale: admin.locale }] : [];
  });
  const byStudent = new Map(people.map((person) => [person.studentId, person]));
  for (const row of crossed) {
    const person = byStudent.get(row.studentId);
    if (!person) continue;
    const guardianEmail = validEmail(person.guardianEmail);
    const data: EventData<'attendance.threshold-crossed'> = {
      studentId: row.studentId,
      studentName: person.studentName,
      subjectId: change.subjectId,
      subjectName: person.subjectName,
      percentage: row.percentage,
      thresholdPercent: settings.thresholdPercent,
      sessions: row.counted,
      eventId: change.eventId,
      crossedAt: change.at.toISOString(),
      guardian: person.guardianName !== null && guardianEmail ? { name: person.guardianName, email: guardianEmail } : null,
      admins,
    };
    recordEvent(tx, 'attendance.threshold-crossed', data, { source: SOURCE, correlationId: change.correlationId });
  }
  return crossed.length;
}
