import { z } from 'zod';
import { TAX_ID_DIGEST_PATTERN, isValidSpanishTaxId } from '../tax-id.ts';
import { Locale } from '../locale.ts';
import { PrivacyPartAnswered, PrivacyRequestOpened } from './privacy.ts';

const id = z.number().int().positive();
const isoDateTime = z.iso.datetime({ offset: true });

// academic → hours-bank, incidents. Replicas catch up with `npm run republish:academic`, which
// records an employee.upserted per employee and a school-course.created per course.
/**
 * An employee was created or changed (also when linked to a login or reactivated). Version 3 carries
 * `taxIdDigest` (never the tax id: `taxIdDigest()` under the key only academic and payslips hold) and
 * `payrollCode` (null when the employee has none). Version 2 carried the tax id itself (`taxId`):
 * academic@1.3.0 published it beside version 3 for one release, and it is gone (no app publishes or
 * reads it). Version 1 lacks both, and a replica then keeps what it had.
 */
export const EmployeeUpserted = z.object({
  id,
  /** The employee's login, when they have one. */
  userId: id.nullable(),
  /** Full name: "name lastname". */
  name: z.string().min(1),
  email: z.email().nullable(),
  active: z.boolean(),
  /**
   * Version 2 only (`onlyInVersions`), which no app publishes or reads any more: a version 1 or 3 that
   * carries it is invalid. It stays in the schema because `contracts:check` compares one schema per
   * type across versions and counts a field removed from a published payload as a break.
   */
  taxId: z.string().refine(isValidSpanishTaxId, { error: 'must be a valid DNI or NIE' }).nullable().optional().meta({ onlyInVersions: [2] }),
  /** Version 3: `taxIdDigest(taxId, TAX_ID_DIGEST_KEY)`, what payslips matches a page's DNI or NIE with. */
  taxIdDigest: z.string().regex(TAX_ID_DIGEST_PATTERN, { error: 'must be 64 lower-case hex digits' }).nullable().optional(),
  /** The payroll software's code for the employee. Absent only in version 1. */
  payrollCode: z.string().min(1).max(32).nullable().optional(),
}).superRefine((employee, ctx) => {
  if (employee.taxId !== undefined) ctx.addIssue({ code: 'custom', path: ['taxId'], message: 'version 2 only, which is read no more: no tax id travels' });
});
/** The employee was deactivated (academic keeps the row for history): treat as gone. */
export const EmployeeDeleted = z.object({ id });

/**
 * A school course was created. Which course is the current one, each replica computes from its own
 * copy (`latestSchoolCourseSql`); version 1 also carried `latestSchoolCourseId`, which no consumer read.
 */
export const SchoolCourseCreated = z
  .object({ id, name: z.string().min(1), startDate: z.iso.date(), endDate: z.iso.date() })
  .refine((course) => course.endDate >= course.startDate, { error: 'endDate must not be before startDate', path: ['endDate'] });
/** A school course was deleted (version 1 also carried `latestSchoolCourseId`). */
export const SchoolCourseDeleted = z.object({ id });

// academic → incidents (a replica of the timetable). Times are instants with their offset; the
// academy's day of a class is the replica's to work out in ACADEMY_TIME_ZONE.
/**
 * A class (calendar event) was created or changed (`calendar-event.created`, `calendar-event.updated`):
 * its whole state, so a replica upserts it (ordered by the envelope's `occurredAt`). A class has no
 * cancelled state: a cancelled class is deleted (`calendar-event.deleted`).
 */
export const CalendarEventChanged = z
  .object({
    id,
    subjectId: id,
    centerId: id,
    /** The teacher who gives it; null while it has none. */
    employeeId: id.nullable(),
    startsAt: isoDateTime,
    endsAt: isoDateTime,
  })
  .refine((event) => Date.parse(event.endsAt) > Date.parse(event.startsAt), { error: 'endsAt must be after startsAt', path: ['endsAt'] });
/** A class was deleted (also how a class is cancelled): a replica keeps a tombstone. */
export const CalendarEventDeleted = z.object({ id });

// academic → notifications
/** `userId`: their login, when they have one (whose notification preferences apply); absent from older producers. */
/** `locale`: the language their login chose (null or absent: the academy's, `ACADEMY_LOCALE`). */
const locale = Locale.nullable().optional();
const person = z.object({ name: z.string(), email: z.email(), userId: id.nullable().optional(), locale });
/** A teacher (or an admin) closed an open block for a student: it awaits review (`pending`). */
export const BlockClosed = z.object({
  studentBlockId: id,
  blockId: id,
  studentId: id,
  /** The teacher it was closed by (or on behalf of). */
  employeeId: id.nullable(),
  grade: z.number().nullable(),
  closedAt: isoDateTime,
});
/**
 * An administrator approved a pending block: it is `closed`, and the next block of the subject is
 * open (`nextBlock`) or it was the last one (`subjectCompleted`). Carries what the e-mails need:
 * `teacher` is null when the block has no teacher or their address is missing; `student.email` is
 * null when absent or a reserved placeholder; `guardian` is null when the student has none (or no
 * deliverable address). Addresses here are always deliverable.
 */
export const BlockApproved = z.object({
  studentBlockId: id,
  blockId: id,
  blockName: z.string(),
  subjectId: id,
  subjectName: z.string(),
  studentId: id,
  grade: z.number().nullable(),
  nextBlock: z.object({ blockId: id, blockName: z.string() }).nullable(),
  subjectCompleted: z.boolean(),
  teacher: person.nullable(),
  student: z.object({ name: z.string(), email: z.email().nullable(), userId: id.nullable().optional(), locale }),
  guardian: z.object({ name: z.string(), email: z.email() }).nullable(),
});
/**
 * The daily reminder to one administrator (at most one per admin and academy day, whichever instance
 * runs the check): `count` blocks have waited for review longer than `thresholdHours`; `oldest` are
 * the first ten of them, oldest close first, each with how many whole hours it has waited at `at`.
 * Not recorded when nothing waits that long.
 */
export const BlocksPendingDigest = z.object({
  day: z.iso.date(),
  at: isoDateTime,
  thresholdHours: z.number().int().positive(),
  admin: z.object({ name: z.string(), email: z.email(), userId: id, locale }),
  count: z.number().int().positive(),
  oldest: z
    .array(
      z.object({
        studentBlockId: id,
        studentId: id,
        studentName: z.string(),
        blockId: id,
        blockName: z.string(),
        subjectId: id,
        subjectName: z.string(),
        closedAt: isoDateTime,
        waitingHours: z.number().int().min(0),
      }),
    )
    .min(1)
    .max(10),
});
/** An administrator rejected a pending block: it is `open` again for its teacher; `reason` is also the admin's message in its thread. No notification is sent. */
export const BlockRejected = z.object({
  studentBlockId: id,
  blockId: id,
  studentId: id,
  /** The teacher who closed it, for a future notice to them. */
  employeeId: id.nullable(),
  reason: z.string().nullable(),
  rejectedAt: isoDateTime,
});

// academic (attendance) → notifications, and future reports
/** An attendance status code of the academy's configurable set (`P`, `L`, `E`, `A` seeded). */
const attendanceStatus = z.string().min(1).max(8);
/**
 * A class's attendance sheet was saved and something changed (a save that changes nothing records
 * nothing). `changes` are the marks written: `from` null when the student had no mark before.
 */
export const AttendanceRecorded = z.object({
  eventId: id,
  subjectId: id,
  centerId: id,
  /** The class's teacher (not necessarily who saved: an admin may). */
  employeeId: id.nullable(),
  startsAt: isoDateTime,
  /** The login that saved the sheet. */
  byUserId: id,
  recordedAt: isoDateTime,
  changes: z
    .array(
      z.object({
        studentId: id,
        from: attendanceStatus.nullable(),
        to: attendanceStatus,
        minutesLate: z.number().int().min(0).nullable(),
        remark: z.string().nullable(),
      }),
    )
    .min(1),
});
/**
 * A teacher's daily reminder: past classes of theirs (still within the editing window) with no
 * attendance taken. One per teacher per academy day (`day`, in ACADEMY_TIME_ZONE), however many
 * instances run the check. `teacher.email` is null when they have no deliverable address,
 * `teacher.userId` null while they have no login; `classes` are the oldest first, at most 50 of
 * `missingCount`, their times the academy's wall time with its offset (`2026-05-04T09:00:00+02:00`).
 */
export const AttendanceMissing = z.object({
  employeeId: id,
  day: z.iso.date(),
  teacher: z.object({ name: z.string(), email: z.email().nullable(), userId: id.nullable(), locale }),
  missingCount: z.number().int().positive(),
  classes: z
    .array(z.object({ eventId: id, subjectId: id, subjectName: z.string(), centerId: id, centerName: z.string(), startsAt: isoDateTime, endsAt: isoDateTime }))
    .min(1)
    .max(50),
});
/**
 * A student's weighted attendance in a subject dropped below the warning threshold (after at least
 * the minimum number of sessions). Once per crossing: not again until it has risen to the threshold
 * or above and dropped again. Carries the recipients (notifications has no directory): the
 * student's active guardian with a deliverable address (or null) and the active admins with one.
 */
export const AttendanceThresholdCrossed = z.object({
  studentId: id,
  studentName: z.string(),
  subjectId: id,
  subjectName: z.string(),
  /** Weighted attendance, 0–100, two decimals. */
  percentage: z.number().min(0).max(100),
  thresholdPercent: z.number().min(0).max(100),
  /** Sessions counted (excused ones are not). */
  sessions: z.number().int().positive(),
  /** The class whose sheet made it cross. */
  eventId: id,
  crossedAt: isoDateTime,
  guardian: person.nullable(),
  admins: z.array(person),
});

// incidents → notifications
/**
 * An incident was created (`incident.created`, change `created`) or changed (`incident.updated`):
 * a message by the employee or an admin (with `fileCount` attachments), its status, its deletion.
 * `byUserId` is null for the scheduled check; `employeeUserId` is null while the employee has no login.
 */
export const IncidentChanged = z.object({
  incidentId: id,
  employeeId: id,
  employeeUserId: id.nullable(),
  status: z.enum(['open', 'closed']),
  change: z.enum(['created', 'employee_message', 'admin_message', 'status_changed', 'deleted']),
  byUserId: id.nullable(),
  /** The incident's kind code (CLOCK_IN_WHILE_OPEN, CLOCK_OUT_WITHOUT_OPEN, RECORD_OPEN_TOO_LONG, ABSENCE, LATE_CLOCK_IN). */
  kind: z.string().optional(),
  /** Readable description of the incident (for a notification's text). */
  description: z.string().optional(),
  /** On a message: its id, its text and how many files it carries. */
  messageId: id.nullable().optional(),
  message: z.string().nullable().optional(),
  fileCount: z.number().int().min(0).optional(),
});

// hours-bank → (future reports). Pending and completed are one signed balance (completed −
// pending), so a consumer can rebuild any bank from these two events alone.
export const HoursTransactionRecorded = z.object({
  transactionId: id,
  hoursBankId: id,
  employeeId: id,
  schoolCourseId: id,
  type: z.enum(['COMPLETED', 'PENDING']),
  minutes: z.number().int().positive(),
  transactionDate: z.iso.date(),
  reason: z.string().nullable(),
  /** Set when the transaction was created by an edit of another one. */
  replacesTransactionId: id.nullable(),
  byUserId: id.nullable(),
});
export const HoursTransactionReverted = z.object({
  transactionId: id,
  reversalTransactionId: id,
  hoursBankId: id,
  employeeId: id,
  schoolCourseId: id,
  type: z.enum(['COMPLETED', 'PENDING']),
  minutes: z.number().int().positive(),
  /** `edited` when an edit replaced it, `deleted` otherwise. */
  cause: z.enum(['edited', 'deleted']),
  byUserId: id.nullable(),
});

// payslips → notifications
/**
 * A payslip became visible to its employee (`payslip.published`), or a correction replaced an
 * earlier one (`payslip.corrected`, `supersedesPayslipId` set). Carries what the push and the
 * e-mail need and nothing more: no amounts, no file, no tax id. `employee.email` is null when the
 * employee has no deliverable address; `employee.userId` is null while they have no login.
 */
export const PayslipPublished = z.object({
  payslipId: id,
  employeeId: id,
  employee: z.object({ name: z.string(), email: z.email().nullable(), userId: id.nullable(), locale }),
  label: z.string().min(1),
  periodStart: z.iso.date(),
  periodEnd: z.iso.date(),
  issuedOn: z.iso.date(),
  /** The payslip this one corrects (hidden from now on), or null for a first publication. */
  supersedesPayslipId: id.nullable(),
  /** The batch it came from, when published from a combined PDF. */
  batchId: id.nullable(),
});

/** Event type → schema of its `data`. Producers and consumers both validate against it. */
export const eventSchemas = {
  'employee.upserted': EmployeeUpserted,
  'employee.deleted': EmployeeDeleted,
  'school-course.created': SchoolCourseCreated,
  'school-course.deleted': SchoolCourseDeleted,
  'block.closed': BlockClosed,
  'block.approved': BlockApproved,
  'block.rejected': BlockRejected,
  'blocks.pending-digest': BlocksPendingDigest,
  'calendar-event.created': CalendarEventChanged,
  'calendar-event.updated': CalendarEventChanged,
  'calendar-event.deleted': CalendarEventDeleted,
  'attendance.recorded': AttendanceRecorded,
  'attendance.missing': AttendanceMissing,
  'attendance.threshold-crossed': AttendanceThresholdCrossed,
  'incident.created': IncidentChanged,
  'incident.updated': IncidentChanged,
  'hours-bank.transaction.recorded': HoursTransactionRecorded,
  'hours-bank.transaction.reverted': HoursTransactionReverted,
  'payslip.published': PayslipPublished,
  'payslip.corrected': PayslipPublished,
  'privacy.request.opened': PrivacyRequestOpened,
  'privacy.part.answered': PrivacyPartAnswered,
} as const;

export type EventType = keyof typeof eventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventSchemas, type);
}

/**
 * The version each producer stamps on an event type's envelope. Bump a type's version when its
 * payload changes in a way an older consumer would misread (a field removed, renamed, or its
 * meaning changed); adding an optional field keeps the version. A consumer reads the versions it
 * knows (by default the current one of each type) and parks any other in its DLQ with the reason,
 * so a producer deployed ahead of its consumers loses nothing: replay the DLQ after they catch up.
 */
export const eventVersions = {
  'employee.upserted': 3,
  'employee.deleted': 1,
  'school-course.created': 2,
  'school-course.deleted': 2,
  'block.closed': 1,
  'block.approved': 1,
  'block.rejected': 1,
  'blocks.pending-digest': 1,
  'calendar-event.created': 1,
  'calendar-event.updated': 1,
  'calendar-event.deleted': 1,
  'attendance.recorded': 1,
  'attendance.missing': 1,
  'attendance.threshold-crossed': 1,
  'incident.created': 1,
  'incident.updated': 1,
  'hours-bank.transaction.recorded': 1,
  'hours-bank.transaction.reverted': 1,
  'payslip.published': 1,
  'payslip.corrected': 1,
  'privacy.request.opened': 1,
  'privacy.part.answered': 1,
} as const satisfies Record<EventType, number>;

/** Versions of each type a consumer reads, where it reads more than the current one. */
export type EventVersions = { [T in EventType]?: readonly number[] };

/**
 * Older versions that the current schema still reads as they are, so every consumer accepts them
 * too: version 1 of the school-course events only had one more field (`latestSchoolCourseId`), which
 * the current schema drops; version 1 of `employee.upserted` lacks `taxIdDigest` and `payrollCode`, which
 * the current schema leaves undefined (version 2, with the tax id, is read no more).
 */
export const readableOlderVersions: EventVersions = {
  'employee.upserted': [1],
  'school-course.created': [1],
  'school-course.deleted': [1],
};

/**
 * Versions no app publishes or reads any more that were only ever twins: published beside the current
 * version of the same event (same `occurredAt`), which carries everything a reader needs. A reader drops
 * one (acknowledged, counted as `retired`, never parsed further nor parked in a DLQ), so that a rolling
 * deployment, where the last release still publishes the twin, neither fills the DLQs nor keeps what the
 * twin carried: version 2 of `employee.upserted` carried a tax id.
 */
export const retiredTwinVersions: EventVersions = {
  'employee.upserted': [2],
};
