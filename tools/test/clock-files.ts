// The test files `npm run test:clocks` runs at its instants (tools/test/clocks.ts), in groups; `npm test --
// --without-clock-files` (CI, which runs test:clocks too) leaves them out of its real-time run.

/**
 * The test files whose rules read the date or the hour (`npm test` runs every file at the real time), in groups by
 * the boundary their rules turn on. Left out because their outcome does not depend on the date: bulk-review
 * (outcomes and events only; the review's date is student-blocks' closedAt), demo-attendance (its seed is given a
 * fixed instant and reads no clock), device-tokens (registration; the 270-day pruning is push-send's), payslips'
 * batches (its one date rule, issuedOn's default, is upload's `dayIn(clock)`; the rest is PDF reading), incidents'
 * test/shared/time.test.ts (pure day arithmetic on given instants), notifications' preferences (no quiet hours or
 * digest schedule yet).
 */
/** The weekday and the hour in Europe/Madrid: the scheduled check, classes' attendance windows (DST), missing sheets, warnings and reminders. */
export const SCHEDULING = [
  'apps/incidents/test/checks/scheduled-check.test.ts',
  'apps/incidents/test/checks/timetable-check.test.ts',
  'apps/academic/test/attendance/take-attendance.test.ts',
  'apps/academic/test/attendance/reading-attendance.test.ts',
  'apps/academic/test/attendance/warnings-and-reminders.test.ts',
];
/** A record's day (UTC or the academy's): time records and their day, the history, a transaction's day, issuedOn's default. */
export const DAY = [
  'apps/incidents/test/time-records/time-records.test.ts',
  'apps/incidents/test/incidents/incidents.test.ts',
  'apps/hours-bank/test/hours-bank.test.ts',
  'apps/payslips/test/payslips/upload.test.ts',
];
/**
 * Spans of days, months and years counted from now: the monthly PDF, the retention purge, device tokens unseen for
 * 270 days, sessions and refresh tokens, a block's closedAt.
 */
export const CALENDAR = [
  'apps/incidents/test/time-records/report-pdf.test.ts',
  'apps/payslips/test/payslips/lifecycle.test.ts',
  'apps/notifications/test/push/push-send.test.ts',
  'apps/academic/test/auth/sessions.test.ts',
  'apps/academic/test/blocks/student-blocks.test.ts',
];

/** Every file test:clocks runs, each at two instants or more. */
export const CLOCK_FILES = [...SCHEDULING, ...DAY, ...CALENDAR];
