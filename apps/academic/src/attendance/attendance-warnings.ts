// Warnings: a student whose weighted attendance in a subject drops below the threshold (after the
// minimum number of counted sessions) gets one `attendance.threshold-crossed`, and no other until it
// has risen to the threshold or above and dropped again. The state per (student, subject) is a row
// of attendance_standings; callers hold the subject's attendance lock, so two saves cannot both see
// the same crossing.
import type { EntityManager } from '@mikro-orm/postgresql';
import { deliverableEmail, type EventData, type EventEnvelope, type Locale } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { outboxInsertSql, outboxRow, recordEvent } from '@academy/messaging';
import { z } from 'zod';
import { SOURCE } from '../shared/events.ts';
import { LATEST_SCHOOL_COURSE_SQL } from '../shared/latest-school-course.ts';

export interface WarningSettings {
  timeZone: string;
  thresholdPercent: number;
  minSessions: number;
}

/**
 * One statement: the weighted attendance per student in the subject (sessions of the current school
 * course, from its first day in the academy's zone; excused ones not counted), written to the
 * standings, answered with whether each was below before; and the outbox rows `events`, if any.
 * Parameters: subject, students (int array), zone, min sessions, threshold, subject, at, then `outboxRow` of each event.
 */
const STANDINGS_SQL = (events: number) => `
  with now_standing as (
    select m.student_id,
           count(*) filter (where st.weight is not null)::int as counted,
           coalesce(round(100 * sum(st.weight) / nullif(count(*) filter (where st.weight is not null), 0), 2), 0)::float8 as percentage
      from attendance_marks m
      join calendar_events e on e.id = m.event_id
      join attendance_statuses st on st.code = m.status
     where e.subject_id = ? and m.student_id = any(?::int[])
       and e.starts_at >= coalesce((select c.start_date::timestamp at time zone ? from school_courses c where c.id = ${LATEST_SCHOOL_COURSE_SQL}), '-infinity')
     group by m.student_id),
  judged as (select n.*, n.counted >= ? and n.percentage < ? as below from now_standing n),
  before as (select student_id, below from attendance_standings where subject_id = ? and student_id in (select student_id from judged)),
  written as (
    insert into attendance_standings (student_id, subject_id, below, percentage, changed_at)
    select j.student_id, ?, j.below, j.percentage, ?::timestamptz from judged j
    on conflict (student_id, subject_id) do update set below = excluded.below, percentage = excluded.percentage,
      changed_at = case when attendance_standings.below = excluded.below then attendance_standings.changed_at else excluded.changed_at end)
  ${Array.from({ length: events }, (_, i) => `, event_${i} as (${outboxInsertSql()})`).join('')}
  select j.student_id as "studentId", j.counted, j.percentage, j.below, coalesce(b.below, false) as "wasBelow"
    from judged j left join before b using (student_id)`;

const anEmail = z.email();
const validEmail = (address: string | null | undefined): string | null => {
  const candidate = deliverableEmail(address?.trim());
  return candidate && anEmail.safeParse(candidate).success ? candidate : null;
};

/**
 * Updates the standings of the students after a save and records a warning for each new crossing;
 * `events` (the save's own) are written in the same statement. Answers how many warnings.
 */
export async function checkWarnings(
  tx: EntityManager,
  change: { subjectId: number; eventId: number; studentIds: number[]; at: Date; correlationId: string },
  settings: WarningSettings,
  events: EventEnvelope[] = [],
): Promise<number> {
  if (change.studentIds.length === 0 && events.length === 0) return 0;
  const now = await tx.execute<{ studentId: number; counted: number; percentage: number; below: boolean; wasBelow: boolean }[]>(STANDINGS_SQL(events.length), [
    change.subjectId,
    pgArray(change.studentIds),
    settings.timeZone,
    settings.minSessions,
    settings.thresholdPercent,
    change.subjectId,
    change.subjectId,
    change.at,
    ...events.flatMap((event) => outboxRow(event)),
  ]);
  const crossed = now.filter((row) => row.below && !row.wasBelow);
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
