import type { ClockSource, IncidentKind, IncidentSeverity } from '@academy/contracts';

/**
 * Severity of each kind, as TimeTrex's exception policies grade them: a missing day or a record
 * nobody closed distorts the worked time most; a refused clock is visible to the employee at once.
 */
export const SEVERITY: Record<IncidentKind, IncidentSeverity> = {
  ABSENCE: 'high',
  RECORD_OPEN_TOO_LONG: 'high',
  CLOCK_OUT_WITHOUT_OPEN: 'medium',
  CLOCK_IN_WHILE_OPEN: 'medium',
  LATE_CLOCK_IN: 'low',
};

const via = (source: ClockSource | null, deviceId: string | null) =>
  source ? ` (${source}${deviceId ? `, device ${deviceId}` : ''})` : '';

/** The readable description of each kind. Times are UTC ISO strings. */
export const describe = {
  clockInWhileOpen: (at: string, source: ClockSource, deviceId: string | null, recordId: number, openedAt: string) =>
    `Clock-in at ${at}${via(source, deviceId)} refused: time record #${recordId}, opened at ${openedAt}, is still open.`,
  clockOutWithoutOpen: (at: string, source: ClockSource, deviceId: string | null) =>
    `Clock-out at ${at}${via(source, deviceId)} with no open time record (the clock-in is missing).`,
  openTooLong: (recordId: number, openedAt: string, limitHours: number, proposedEndAt: string) =>
    `Time record #${recordId}, opened at ${openedAt}, has been open for more than ${limitHours} h. Proposed clock-out: ${proposedEndAt} (to be confirmed; the record is not changed).`,
  absence: (day: string, deadline: string, graceMinutes: number, timeZone: string) =>
    `No clock-in on ${day} by ${deadline} (${timeZone}) plus ${graceMinutes} min of grace.`,
  /** `classStart`: the local wall time (HH:MM) of the day's first class. */
  absenceFromClass: (day: string, classStart: string, graceMinutes: number, timeZone: string) =>
    `No clock-in on ${day} by the first class at ${classStart} (${timeZone}) plus ${graceMinutes} min of grace.`,
  lateClockIn: (day: string, clockIn: string, classStart: string, graceMinutes: number, timeZone: string) =>
    `First clock-in on ${day} at ${clockIn}, after the first class at ${classStart} (${timeZone}) plus ${graceMinutes} min of grace.`,
};
