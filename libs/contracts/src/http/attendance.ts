// HTTP contracts of attendance (academic, `/api/v2/attendance/*`): bodies, queries, answers and
// their routes (`attendanceApi`). None is fixed by the spec (1.0.0 only names the capability).
// Bodies and queries are strict: unknown fields are a 400.
import { z } from 'zod';
import { ErrorBody, Id, IdPathParam, IdText, jsonContent } from './common.ts';
import { routeFamily } from '../routes.ts';

/** Most marks one save may carry (a class's roster is far smaller). */
export const ATTENDANCE_MAX_MARKS = 1000;
/** Longest remark on a mark, in characters. */
export const ATTENDANCE_REMARK_MAX_LENGTH = 500;
/** Longest range of days a read may span (`from` … `to`, both included). */
export const ATTENDANCE_MAX_RANGE_DAYS = 366;

/** A status code: an upper-case letter, then up to 7 letters or digits (`P`, `L`, `E`, `A`, `EX2`). */
export const AttendanceStatusCode = z.string({ error: 'must be a status code' }).regex(/^[A-Z][A-Z0-9]{0,7}$/, { error: 'must be a status code: an upper-case letter, then up to 7 letters or digits' });

/** A day of the academy's calendar (its time zone), `YYYY-MM-DD`. */
const Day = z.iso.date({ error: 'must be a date YYYY-MM-DD' });
const timestamp = z.string().describe('ISO 8601 instant');
/** Free text without NUL characters (PostgreSQL cannot store them). */
const text = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` }).regex(/^[^\u0000]*$/, { error: 'must not contain NUL characters' });

export const AttendanceStatusItem = z.strictObject({
  code: AttendanceStatusCode,
  name: text(60).min(1, { error: 'must not be empty' }),
  /** 0–1 (three decimals at most) toward the percentage; null: not counted (Excused). */
  weight: z
    .number({ error: 'must be a number between 0 and 1, or null' })
    .min(0, { error: 'must be at least 0' })
    .max(1, { error: 'must be at most 1' })
    .refine((value) => Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-7, { error: 'must have at most three decimals' })
    .nullable(),
});
export type AttendanceStatusItem = z.infer<typeof AttendanceStatusItem>;

/** The whole set, in order; a status left out is removed (refused while marks use it). */
export const AttendanceStatusesBody = z.strictObject({
  statuses: z
    .array(AttendanceStatusItem)
    .min(1, { error: 'must name at least one status' })
    .max(20, { error: 'must name at most 20 statuses' })
    .refine((statuses) => new Set(statuses.map((status) => status.code)).size === statuses.length, { error: 'status codes must be unique' }),
});
export type AttendanceStatusesBody = z.infer<typeof AttendanceStatusesBody>;
export const AttendanceStatusesResponse = z.object({ data: z.array(AttendanceStatusItem) });

export const AttendanceMarkInput = z.strictObject({
  studentId: Id,
  status: AttendanceStatusCode,
  /** Minutes late, 0 up to the class's length. */
  minutesLate: z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(0, { error: 'must not be negative' }).optional(),
  remark: text(ATTENDANCE_REMARK_MAX_LENGTH).optional(),
});

export const TakeAttendanceBody = z.strictObject({
  marks: z
    .array(AttendanceMarkInput)
    .max(ATTENDANCE_MAX_MARKS, { error: `must hold at most ${ATTENDANCE_MAX_MARKS} marks` })
    .refine((marks) => new Set(marks.map((mark) => mark.studentId)).size === marks.length, { error: 'each student may be marked once' }),
  /** Marks every student of the roster still unmarked (after `marks`) with this status; never overwrites. */
  markRest: AttendanceStatusCode.optional(),
});
export type TakeAttendanceBody = z.infer<typeof TakeAttendanceBody>;

const markOf = {
  status: z.string().nullable(),
  minutesLate: z.number().int().nullable(),
  remark: z.string().nullable(),
};
export const AttendanceSheetResponse = z.object({
  eventId: Id,
  subjectId: Id,
  centerId: Id,
  employeeId: Id.nullable(),
  startsAt: timestamp,
  endsAt: timestamp,
  /** Who took it first and when; null while no sheet exists. */
  taken: z.object({ byUserId: Id, at: timestamp }).nullable(),
  /** Who changed it last and when. */
  updated: z.object({ byUserId: Id, at: timestamp }).nullable(),
  students: z.array(z.object({ studentId: Id, name: z.string(), ...markOf, markedAt: timestamp.nullable(), markedByUserId: Id.nullable() })),
  /** Students of the roster with no mark. */
  unmarked: z.array(Id),
  /** Marks this save changed (0 for a read, or a save that changed nothing). */
  changed: z.number().int().min(0),
  /**
   * The editing window: anyone may save from `opensAt` (15 minutes before the start); its teacher until
   * `locksAt` (the end of the academy day ATTENDANCE_EDIT_DAYS after the day the class ends), admins any
   * time after. `editable`: whether the caller may save it now.
   */
  window: z.object({ opensAt: timestamp, locksAt: timestamp, editable: z.boolean() }),
});
export type AttendanceSheetResponse = z.infer<typeof AttendanceSheetResponse>;

export const AttendanceHistoryResponse = z.object({
  data: z.array(
    z.object({
      studentId: Id,
      from: z.object(markOf),
      to: z.object(markOf),
      byUserId: Id,
      at: timestamp,
    }),
  ),
});

/** `from` and `to` are days of the academy (both included), at most a year apart. */
const rangeQuery = {
  from: Day.optional(),
  to: Day.optional(),
};
export const StudentAttendanceQuery = z.strictObject({ subjectId: IdText.optional(), ...rangeQuery });
export const AttendanceReportQuery = z.strictObject({
  subjectId: IdText.optional(),
  centerId: IdText.optional(),
  ...rangeQuery,
  /** Only the rows whose percentage is below this (0–100); they are the flagged ones. */
  below: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, { error: 'must be a percentage from 0 to 100' })
    .transform(Number)
    .pipe(z.number().max(100, { error: 'must be at most 100' }))
    .optional(),
});
export type AttendanceReportQuery = z.infer<typeof AttendanceReportQuery>;
export const MissingAttendanceQuery = z.strictObject({ employeeId: IdText.optional(), ...rangeQuery });
/** The classes of a teacher (or all, for an admin) that start in the range; today by default. */
export const AttendanceClassesQuery = z.strictObject({ employeeId: IdText.optional(), ...rangeQuery });

/** A class's attendance state: a sheet exists (`taken`), it ended without one (`missing`), or it has not ended and has none (`notYet`). */
export const ATTENDANCE_CLASS_STATES = ['taken', 'missing', 'notYet'] as const;

const summary = {
  subjectId: Id,
  subjectName: z.string(),
  /** Sessions with a mark for the student. */
  sessions: z.number().int(),
  /** Sessions that count toward the percentage (not Excused). */
  counted: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  /** Weighted attendance 0–100 (two decimals) over the counted sessions; null when none counts. */
  percentage: z.number().nullable(),
};
export const StudentAttendanceResponse = z.object({
  studentId: Id,
  from: Day,
  to: Day,
  subjects: z.array(z.object(summary)),
});
export const AttendanceReportResponse = z.object({
  from: Day,
  to: Day,
  /** The percentage a row is flagged below: `below`, else ATTENDANCE_WARNING_PERCENT. */
  thresholdPercent: z.number(),
  data: z.array(z.object({ studentId: Id, studentName: z.string(), ...summary, below: z.boolean() })),
});
/** A class as the missing sheets and a teacher's classes list it. */
const attendanceClass = {
  eventId: Id,
  employeeId: Id.nullable(),
  subjectId: Id,
  subjectName: z.string(),
  centerId: Id,
  centerName: z.string(),
  startsAt: timestamp,
  endsAt: timestamp,
  studentCount: z.number().int(),
};
export const MissingAttendanceResponse = z.object({
  from: Day,
  to: Day,
  data: z.array(z.object(attendanceClass)),
});

export const AttendanceClassesResponse = z.object({
  from: Day,
  to: Day,
  data: z.array(
    z.object({
      ...attendanceClass,
      state: z.enum(ATTENDANCE_CLASS_STATES),
      /** When its sheet was first saved; null while there is none. */
      takenAt: timestamp.nullable(),
      /** The editing window, as on the sheet: from `opensAt`; a teacher until `locksAt`. */
      opensAt: timestamp,
      locksAt: timestamp,
    }),
  ),
});

/** Codes of the attendance routes' errors. */
export const AttendanceErrorCode = {
  EVENT_NOT_FOUND: 'EVENT_NOT_FOUND',
  STUDENT_NOT_FOUND: 'STUDENT_NOT_FOUND',
  NOT_EVENT_TEACHER: 'NOT_EVENT_TEACHER',
  NOT_SUBJECT_TEACHER: 'NOT_SUBJECT_TEACHER',
  STUDENTS_NOT_ON_ROSTER: 'STUDENTS_NOT_ON_ROSTER',
  UNKNOWN_ATTENDANCE_STATUS: 'UNKNOWN_ATTENDANCE_STATUS',
  MINUTES_LATE_OVER_CLASS_LENGTH: 'MINUTES_LATE_OVER_CLASS_LENGTH',
  CLASS_NOT_STARTED: 'CLASS_NOT_STARTED',
  ATTENDANCE_LOCKED: 'ATTENDANCE_LOCKED',
  INVALID_RANGE: 'INVALID_RANGE',
  ATTENDANCE_STATUS_IN_USE: 'ATTENDANCE_STATUS_IN_USE',
} as const;

/** `/api/v2/attendance`: every route needs a token; who may act on which class or student is the use case's check. */
export const attendanceApi = routeFamily({ prefix: '/api/v2/attendance', service: 'academic', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['Attendance'] });

const error = (description: string) => jsonContent(ErrorBody, description);
const unauthorized = error('UNAUTHORIZED: token missing or expired');
const rangeErrors = 'VALIDATION_ERROR, INVALID_RANGE (from after to, or more than a year)';
const EventParams = IdPathParam('eventId');

export const listAttendanceStatusesRoute = attendanceApi.route({
  method: 'get',
  path: '/api/v2/attendance/statuses',
  summary: 'The attendance statuses, in order, with their weights (any signed-in user)',
  responses: { 200: jsonContent(AttendanceStatusesResponse, 'The statuses'), 401: unauthorized },
});

export const replaceAttendanceStatusesRoute = attendanceApi.route({
  method: 'put',
  path: '/api/v2/attendance/statuses',
  summary: 'Replace the set of statuses (admin)',
  role: 'admin',
  request: { body: AttendanceStatusesBody },
  responses: {
    200: jsonContent(AttendanceStatusesResponse, 'The new set'),
    400: error('VALIDATION_ERROR'),
    401: unauthorized,
    403: error('FORBIDDEN: not an administrator'),
    409: error('ATTENDANCE_STATUS_IN_USE: a status left out is used by marks'),
  },
});

export const takeAttendanceRoute = attendanceApi.route({
  method: 'put',
  path: '/api/v2/attendance/events/{eventId}',
  summary:
    "Take or change a class's attendance (its teacher from 15 minutes before it until ATTENDANCE_EDIT_DAYS after; admins any time). markRest never overwrites; the same marks again change nothing. Records attendance.recorded",
  request: { params: EventParams, body: TakeAttendanceBody },
  responses: {
    200: jsonContent(AttendanceSheetResponse, 'The sheet'),
    400: error('VALIDATION_ERROR, STUDENTS_NOT_ON_ROSTER (naming them), UNKNOWN_ATTENDANCE_STATUS, MINUTES_LATE_OVER_CLASS_LENGTH, CLASS_NOT_STARTED'),
    401: unauthorized,
    403: error('NOT_EVENT_TEACHER, ATTENDANCE_LOCKED (the editing window has passed)'),
    404: error('EVENT_NOT_FOUND'),
  },
});

export const readAttendanceSheetRoute = attendanceApi.route({
  method: 'get',
  path: '/api/v2/attendance/events/{eventId}',
  summary: "A class's sheet: the roster with marks, who took it and when, the unmarked (its teacher or an admin)",
  request: { params: EventParams },
  responses: { 200: jsonContent(AttendanceSheetResponse, 'The sheet'), 401: unauthorized, 403: error('NOT_EVENT_TEACHER'), 404: error('EVENT_NOT_FOUND') },
});

export const readAttendanceHistoryRoute = attendanceApi.route({
  method: 'get',
  path: '/api/v2/attendance/events/{eventId}/history',
  summary: "Every change of a class's marks, oldest first: who, when, from → to (its teacher or an admin)",
  request: { params: EventParams },
  responses: { 200: jsonContent(AttendanceHistoryResponse, 'The changes'), 401: unauthorized, 403: error('NOT_EVENT_TEACHER'), 404: error('EVENT_NOT_FOUND') },
});

export const studentAttendanceRoute = attendanceApi.route({
  method: 'get',
  path: '/api/v2/attendance/students/{studentId}',
  summary: "A student's attendance per subject: counts by status and the weighted percentage (admins; teachers for the subjects they teach the student)",
  request: { params: IdPathParam('studentId'), query: StudentAttendanceQuery },
  responses: { 200: jsonContent(StudentAttendanceResponse, 'Per subject'), 400: error(rangeErrors), 401: unauthorized, 403: error('NOT_SUBJECT_TEACHER'), 404: error('STUDENT_NOT_FOUND') },
});

export const attendanceReportRoute = attendanceApi.route({
  method: 'get',
  path: '/api/v2/attendance/report',
  summary:
    'Per student and subject: percentages, below the threshold flagged (admins; teachers with a subjectId they teach). With Accept: text/csv, streamed: one row per student × session (times in the academy time zone) and a summary row per student and subject',
  request: { query: AttendanceReportQuery },
  responses: {
    200: { description: 'The report', content: { 'application/json': { schema: AttendanceReportResponse }, 'text/csv': { schema: z.string() } } },
    400: error(rangeErrors),
    401: unauthorized,
    403: error('NOT_SUBJECT_TEACHER'),
  },
});

export const attendanceClassesRoute = attendanceApi.route({
  method: 'get',
  path: '/api/v2/attendance/classes',
  summary:
    "Classes starting in the range (today by default) with their attendance state (taken, missing, not yet) and editing window, by start (admins: any teacher's or all; a teacher: their own)",
  request: { query: AttendanceClassesQuery },
  responses: { 200: jsonContent(AttendanceClassesResponse, 'The classes, by start'), 400: error(rangeErrors), 401: unauthorized, 403: error('NOT_OWN_EMPLOYEE_ID') },
});

export const missingAttendanceRoute = attendanceApi.route({
  method: 'get',
  path: '/api/v2/attendance/missing',
  summary: 'Past classes with no attendance taken (admins: any teacher or all; a teacher: their own)',
  request: { query: MissingAttendanceQuery },
  responses: { 200: jsonContent(MissingAttendanceResponse, 'The classes, oldest first'), 400: error(rangeErrors), 401: unauthorized, 403: error('NOT_OWN_EMPLOYEE_ID') },
});
