// Demo attendance for the seed, on the seed's clock (`now`, days of the academy's zone): the seeded
// weekly classes fall on the last five working days' weekdays before today (demoClassStart), each
// with four earlier weekly sessions; sheets for every class that has ended by `now` (mostly present,
// some late or excused: late counts 0.8, so no one else drops below 80%); one student under the
// warning threshold in their subject (whose warning is recorded, as a save would); and today, a
// class of the first teacher that started this hour, with no sheet yet: one to take "today".
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '@academy/messaging';
import { SOURCE, calendarEventData } from '../shared/events.ts';
import {
  insertClassCopy,
  insertStoredClassCopy,
  saveMarks,
  selectClassesWithRosters,
  selectDemoClasses,
  selectFirstStudentWithGuardian,
  selectMarkedStudentsBySubject,
  type WantedMark,
} from './attendance.store.ts';
import { AttendanceSettingsSchema } from '../config.ts';
import { recordThresholdWarnings } from './threshold-warnings.ts';
import { addDays, dayOf, localIso, wallTimeInstant, weekdayOf } from './academy-days.ts';

/** When the seed runs (which demo classes are past), and the warning settings (the service's defaults unless given). */
export interface DemoAttendanceOptions {
  now: Date;
  timeZone?: string;
  thresholdPercent?: number;
  minSessions?: number;
}

const EARLIER_WEEKS = 4;

/**
 * A seeded weekly class's start: on the most recent `weekday` (1 Monday … 5 Friday) before today,
 * at `hour` o'clock in the academy's zone. Every such class has ended by `now`, is at most 7 days
 * old (so a teacher may still correct its sheet), and weekday classes keep their weekday whatever
 * day the seed runs.
 */
export function demoClassStart(now: Date, timeZone: string, weekday: number, hour: number): Date {
  const today = dayOf(now, timeZone);
  let day = addDays(today, -1);
  while (weekdayOf(day) !== weekday) day = addDays(day, -1);
  return wallTimeInstant(day, hour, timeZone);
}

/** The start of the hour `now` is in, in the academy's zone (the day's first hour at the earliest). */
const startOfHour = (now: Date, timeZone: string) => {
  const [minutes, seconds] = localIso(now, timeZone).slice(14, 19).split(':').map(Number);
  return new Date(now.getTime() - (minutes! * 60 + seconds!) * 1000 - (now.getTime() % 1000));
};

/** 0–99, the same for a class and student on every run (a multiplicative hash with a finalizer). */
function demoRoll(eventId: number, studentId: number): number {
  let hash = Math.imul(eventId, 0x9e3779b1) ^ Math.imul(studentId, 0x85ebca6b);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x45d9f3b);
  hash ^= hash >>> 16;
  return (hash >>> 0) % 100;
}
const WEEK_MS = 7 * 24 * 3600_000;

export async function seedDemoAttendance(em: EntityManager, options: DemoAttendanceOptions, meta: { correlationId: string }): Promise<{ earlierClasses: number; sheets: number; underThreshold: number }> {
  const defaults = AttendanceSettingsSchema.parse({});
  const now = options.now;
  const settings = {
    timeZone: options.timeZone ?? defaults.ACADEMY_TIME_ZONE,
    thresholdPercent: options.thresholdPercent ?? defaults.ATTENDANCE_WARNING_PERCENT,
    minSessions: options.minSessions ?? defaults.ATTENDANCE_WARNING_MIN_SESSIONS,
  };
  const seeded = await selectDemoClasses(em);
  for (const event of seeded) {
    for (let week = 1; week <= EARLIER_WEEKS; week++) {
      await insertClassCopy(em, event, new Date(new Date(event.startsAt).getTime() - week * WEEK_MS), new Date(new Date(event.endsAt).getTime() - week * WEEK_MS));
    }
  }
  // Today's class: another session of the first teacher's last weekly class, from the start of this hour.
  const taught = seeded.filter((event) => event.employeeId !== null);
  const firstTeacher = Math.min(...taught.map((event) => event.employeeId!));
  const ofToday = taught.filter((event) => event.employeeId === firstTeacher).at(-1);
  let todayClass = 0;
  if (ofToday) {
    const startsAt = startOfHour(now, settings.timeZone);
    await insertStoredClassCopy(em, ofToday.id, startsAt, new Date(startsAt.getTime() + 90 * 60_000));
    todayClass = 1;
  }
  const classes = await selectClassesWithRosters(em);
  for (const event of classes) recordEvent(em, 'calendar-event.created', calendarEventData(event), { source: SOURCE, ...meta });

  // The student under the threshold: the first one of the first class with a guardian, absent from most sessions.
  const chosen = await selectFirstStudentWithGuardian(em);
  let sheets = 0;
  let chosenSessions = 0;
  const past = classes.filter((event) => new Date(event.endsAt) <= now && event.roster.length > 0);
  for (const event of past) {
    const marks: WantedMark[] = event.roster.map((studentId) => {
      const roll = demoRoll(event.id, studentId);
      const isChosen = chosen && studentId === chosen.studentId && event.subjectId === chosen.subjectId;
      // The chosen student comes to one session in four (the fourth, eighth…): under the threshold on any day.
      const status = isChosen ? (++chosenSessions % 4 === 0 ? 'P' : 'A') : roll < 88 ? 'P' : roll < 96 ? 'L' : 'E';
      return { studentId, status, minutesLate: status === 'L' ? 5 + (roll % 11) : null, remark: status === 'E' ? 'Medical appointment' : null };
    });
    await saveMarks(em, event.id, { marks, byUserId: event.userId ?? 1, at: new Date(event.endsAt) });
    sheets += 1;
  }
  let underThreshold = 0;
  const pairs = await selectMarkedStudentsBySubject(em);
  for (const pair of pairs) {
    const lastEvent = past.filter((event) => event.subjectId === pair.subjectId).at(-1)!;
    underThreshold += await recordThresholdWarnings(em, { subjectId: pair.subjectId, eventId: lastEvent.id, studentIds: pair.studentIds, at: now, correlationId: meta.correlationId }, settings);
  }
  return { earlierClasses: seeded.length * EARLIER_WEEKS + todayClass, sheets, underThreshold };
}
