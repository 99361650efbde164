// The academy's days: a day is a date in ACADEMY_TIME_ZONE. PostgreSQL turns days into instants
// (`day::timestamp at time zone zone`), so a day across a DST change is 23 or 25 hours long.
import { ATTENDANCE_MAX_RANGE_DAYS } from '@academy/contracts';
import { invalidRange } from './attendance.errors.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The academy's date (YYYY-MM-DD) of an instant. */
export function dayOf(instant: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

/** The local hour (0–23) of an instant in the zone. */
export function hourOf(instant: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(instant));
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
export const addDays = (day: string, days: number) => new Date((dayNumber(day) + days) * 86_400_000).toISOString().slice(0, 10);

export interface DayRange {
  from: string;
  to: string;
}

/**
 * `from` … `to` (both included) of a query: `to` defaults to today, `from` to `defaultDays - 1`
 * days before `to`. `from` after `to`, or more than a year, is a 400.
 */
export function dayRange(query: { from?: string; to?: string }, today: string, defaultDays: number): DayRange {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, -(defaultDays - 1));
  if (from > to) throw invalidRange(`from (${from}) is after to (${to})`);
  if (dayNumber(to) - dayNumber(from) + 1 > ATTENDANCE_MAX_RANGE_DAYS) throw invalidRange(`The range spans more than ${ATTENDANCE_MAX_RANGE_DAYS} days`);
  return { from, to };
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** An instant as the academy's wall time with its offset then: `2026-03-30T19:00:00+02:00`. */
export function localIso(instant: Date | string, timeZone: string): string {
  const date = new Date(instant);
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    partFormatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
  const wall = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  const offsetMinutes = Math.round((Date.parse(`${wall}Z`) - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The instant of a wall time (`hour`:00) on an academy day: the zone's offset at that time (a DST gap's hour moves on). */
export function wallTimeInstant(day: string, hour: number, timeZone: string): Date {
  const wall = Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
  const offsetAt = (instant: number) => Date.parse(`${localIso(new Date(instant), timeZone).slice(0, 19)}Z`) - instant;
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}

/** The ISO weekday (1 Monday … 7 Sunday) of an academy day. */
export const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;
