// Classes with no attendance: the list (`GET /missing`), and the daily reminder to each teacher
// with missing sheets: one `attendance.missing` per teacher and academy day, however many instances
// run the check (a unique row per teacher-day, inserted with ON CONFLICT DO NOTHING in the
// transaction that records the event).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventData, Locale } from '@academy/contracts';
import { deliverableEmail } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { z } from 'zod';
import { SOURCE } from '../shared/events.ts';
import { isAdmin, type AttendanceActor } from './attendance-actor.ts';
import { notOwnEmployeeId } from './attendance.errors.ts';
import { isoSql } from './attendance.store.ts';
import { DAY_END_SQL, DAY_START_SQL, addDays, dayOf, hourOf, localIso, type DayRange } from './academy-days.ts';

/** A class counts as missing when it has ended, has students, and has no sheet. */
const MISSING_SQL = (filters: string) => `
  select e.id as "eventId", e.employee_id as "employeeId", e.subject_id as "subjectId", sub.name as "subjectName",
         e.center_id as "centerId", c.name as "centerName", ${isoSql('e.starts_at')} as "startsAt", ${isoSql('e.ends_at')} as "endsAt",
         (select count(*)::int from event_students es where es.event_id = e.id) as "studentCount"
    from calendar_events e
    join subjects sub on sub.id = e.subject_id
    join centers c on c.id = e.center_id
   where e.ends_at <= ?::timestamptz
     and not exists (select 1 from attendance_sheets sh where sh.event_id = e.id)
     and exists (select 1 from event_students es where es.event_id = e.id)
     ${filters}
   order by e.starts_at, e.id`;

export async function listMissingAttendance(em: EntityManager, query: { employeeId?: number }, range: DayRange, actor: AttendanceActor, timeZone: string, now: Date) {
  if (!isAdmin(actor) && (actor.employeeId === null || (query.employeeId !== undefined && query.employeeId !== actor.employeeId))) throw notOwnEmployeeId();
  const employeeId = isAdmin(actor) ? query.employeeId : actor.employeeId;
  const params: unknown[] = [now, range.from, timeZone, range.to, timeZone];
  let filters = `and e.starts_at >= ${DAY_START_SQL} and e.starts_at < ${DAY_END_SQL}`;
  if (employeeId !== undefined) {
    filters += ' and e.employee_id = ?';
    params.push(employeeId);
  }
  return { from: range.from, to: range.to, data: await em.execute(MISSING_SQL(filters), params) };
}

export interface ReminderSettings {
  timeZone: string;
  editDays: number;
  reminderHour: number;
}

const anEmail = z.email();
const validEmail = (address: string | null) => {
  const candidate = deliverableEmail(address?.trim());
  return candidate && anEmail.safeParse(candidate).success ? candidate : null;
};

/**
 * The day's reminders (from `reminderHour` of the academy's day on): each teacher with classes they
 * can still take (ended, within the editing window) and no sheet, not yet reminded today. Answers
 * how many reminders this run recorded.
 */
export async function sendAttendanceReminders(em: EntityManager, now: Date, settings: ReminderSettings): Promise<number> {
  if (hourOf(now, settings.timeZone) < settings.reminderHour) return 0;
  const day = dayOf(now, settings.timeZone);
  const firstDay = addDays(day, -settings.editDays);
  const teachers = await em.execute<{ employeeId: number; name: string; email: string | null; userId: number | null; locale: Locale | null; missingCount: number; classes: EventData<'attendance.missing'>['classes'] }[]>(
    `with missing as (${MISSING_SQL(`and e.employee_id is not null and e.ends_at >= ${DAY_START_SQL}
            and not exists (select 1 from attendance_reminders r where r.employee_id = e.employee_id and r.day = ?::date)`)})
     select m."employeeId", trim(emp.name || ' ' || emp.lastname) as name, emp.email,
            coalesce(emp.user_id, (select u.id from users u where u.employee_id = emp.id and u.active order by u.id limit 1)) as "userId",
            (select u.locale from users u where u.id = emp.user_id or (emp.user_id is null and u.employee_id = emp.id and u.active) order by u.id limit 1) as locale,
            count(*)::int as "missingCount",
            (select jsonb_agg(x) from (select jsonb_build_object('eventId', m2."eventId", 'subjectId', m2."subjectId", 'subjectName', m2."subjectName", 'centerId', m2."centerId",
                                          'centerName', m2."centerName", 'startsAt', m2."startsAt", 'endsAt', m2."endsAt") as x
                                         from missing m2 where m2."employeeId" = m."employeeId" order by m2."startsAt", m2."eventId" limit 50) l) as classes
       from missing m
       join employees emp on emp.id = m."employeeId" and emp.active
      group by m."employeeId", emp.id, emp.name, emp.lastname, emp.email, emp.user_id
      order by m."employeeId"`,
    [now, firstDay, settings.timeZone, day],
  );
  let sent = 0;
  for (const teacher of teachers) {
    const recorded = await em.fork().transactional(async (tx) => {
      const inserted = await tx.execute(
        `insert into attendance_reminders (employee_id, day, missing_count, sent_at) values (?, ?::date, ?, ?::timestamptz) on conflict do nothing returning 1`,
        [teacher.employeeId, day, teacher.missingCount, now],
      );
      if (inserted.length === 0) return false;
      recordEvent(
        tx,
        'attendance.missing',
        {
          employeeId: teacher.employeeId,
          day,
          teacher: { name: teacher.name, email: validEmail(teacher.email), userId: teacher.userId, locale: teacher.locale },
          missingCount: teacher.missingCount,
          // Wall times of the academy with their offset: the mail shows them as they are, whatever its server's zone.
          classes: teacher.classes.map((c) => ({ ...c, startsAt: localIso(c.startsAt, settings.timeZone), endsAt: localIso(c.endsAt, settings.timeZone) })),
        },
        { source: SOURCE, correlationId: `attendance-reminder-${day}` },
      );
      return true;
    });
    if (recorded) sent += 1;
  }
  return sent;
}
