// HTTP contracts of the academic service: request bodies, queries and responses, and their
// routes (`academicFamilies`). Bodies are strict: unknown fields are a 400.
import { z } from 'zod';
import { Id, IdPathParam, IdText, PageMeta, StatusErrorBody, errorResponses, jsonContent, queryObject } from './common.ts';
import { routeFamily, type DeclaredFamily } from '../routes.ts';
import { isValidSpanishTaxId, normalizeTaxId } from '../tax-id.ts';

/** Ids are positive integers below 2^31 (`0`, `-1`, `1.5`, `abc`, huge values are refused): the shared id schemas. */
export const AcademicId = Id;
/** An id in a query string or path, with the same bounds. */
export const AcademicIdText = IdText;

/** Free text: trimmed, and without NUL characters (PostgreSQL cannot store them). */
const text = () => z.string().trim().regex(/^[^\u0000]*$/, { error: 'must not contain NUL characters' });
const name = text().min(1, { error: 'must not be empty' }).max(100);
const email = z.email({ error: 'must be an e-mail address' }).max(254);
const isoDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });
const isoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });
const timestamp = z.string().describe('ISO 8601 UTC timestamp');

export const ACADEMIC_MAX_PAGE_SIZE = 100;
export const ACADEMIC_DEFAULT_PAGE_SIZE = 20;
/** Pages past this are read as this one (always empty), so the SQL offset stays a valid bigint. */
export const ACADEMIC_MAX_PAGE = 1_000_000_000;
/** Spec rule 1 of the listing: not a finite number > 0 → the default; rounded down; capped at the maximum. */
const lenientPositive = (fallback: number, max?: number) =>
  z
    .unknown()
    .default(fallback)
    .transform((value) => {
      const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : NaN;
      const floored = Number.isFinite(parsed) && parsed > 0 ? Math.floor(parsed) : fallback;
      const atLeastOne = floored >= 1 ? floored : fallback;
      return max ? Math.min(atLeastOne, max) : atLeastOne;
    });

const search = text().max(100, { error: 'must be at most 100 characters' }).optional();

/**
 * Paging of the directory lists and the completed blocks: a `page` or `limit` that is not a
 * positive integer in digits, or past its maximum, is a 400 naming it (only the administrative
 * listing coerces them, as its spec rule 1 says).
 */
export const DirectoryPageQuery = queryObject({
  page: IdText.max(ACADEMIC_MAX_PAGE, { error: `must be at most ${ACADEMIC_MAX_PAGE}` }).default(1),
  limit: IdText.max(ACADEMIC_MAX_PAGE_SIZE, { error: `must be at most ${ACADEMIC_MAX_PAGE_SIZE}` }).default(ACADEMIC_DEFAULT_PAGE_SIZE),
  search,
});
export type DirectoryPageQuery = z.infer<typeof DirectoryPageQuery>;

const page = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: PageMeta });

/** An update that changes nothing is refused. */
const nonEmpty = [(value: object) => Object.keys(value).length > 0, { error: 'at least one field must be given' }] as const;

// ---------------------------------------------------------------- directory

/**
 * Students without a real e-mail may carry a reserved placeholder such as
 * `sin-email-123@placeholder.invalid` (`.invalid` can never be delivered, RFC 2606). Such an
 * address must never be written to: use `isPlaceholderEmail` before sending.
 */
export const PLACEHOLDER_EMAIL_PATTERN = /^sin-email-\d+@placeholder\.invalid$/i;
export const placeholderEmail = (n: number): string => `sin-email-${n}@placeholder.invalid`;
export const isPlaceholderEmail = (address: string): boolean => PLACEHOLDER_EMAIL_PATTERN.test(address);
/** The address to write to, or null when there is none or it is a placeholder. */
export const deliverableEmail = (address: string | null | undefined): string | null => (address && !isPlaceholderEmail(address) ? address : null);

export const USER_ROLE_VALUES = ['admin', 'user'] as const;
export const UserCreateBody = z.strictObject({
  email,
  password: z.string().regex(/^[^\u0000]*$/, { error: 'must not contain NUL characters' }).min(8, { error: 'must be at least 8 characters' }).max(200),
  role: z.enum(USER_ROLE_VALUES),
  employeeId: AcademicId.nullable().optional(),
  studentId: AcademicId.nullable().optional(),
});
export const UserUpdateBody = UserCreateBody.partial().extend({ active: z.boolean().optional() }).strict().refine(...nonEmpty);
export const UserItem = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(USER_ROLE_VALUES),
  employeeId: z.number().int().nullable(),
  studentId: z.number().int().nullable(),
  active: z.boolean(),
  createdAt: timestamp,
});

export const EMPLOYEE_KIND_VALUES = ['teacher', 'staff'] as const;
/** A Spanish DNI or NIE, stored normalized ("12.345.678-z" → "12345678Z"), with its control letter checked. */
export const TaxId = z
  .string()
  .overwrite(normalizeTaxId)
  .refine(isValidSpanishTaxId, { error: 'must be a Spanish DNI (8 digits and a letter) or NIE (X, Y or Z, 7 digits and a letter) with the right control letter' });
/** The payroll software's code for an employee: letters, digits and . _ - /, at most 32. */
export const PayrollCode = text().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,31}$/, { error: 'must be 1 to 32 letters, digits or . _ - / (starting with a letter or digit)' });
export const EmployeeCreateBody = z.strictObject({
  name,
  lastname: name,
  email: email.nullable().optional(),
  kind: z.enum(EMPLOYEE_KIND_VALUES).optional(),
  userId: AcademicId.nullable().optional(),
  /** Unique; answered to admins only. */
  taxId: TaxId.nullable().optional(),
  /** Unique when set. */
  payrollCode: PayrollCode.nullable().optional(),
});
export const EmployeeUpdateBody = EmployeeCreateBody.partial().extend({ active: z.boolean().optional() }).strict().refine(...nonEmpty);
export const EmployeeItem = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  name: z.string(),
  lastname: z.string(),
  email: z.string().nullable(),
  kind: z.enum(EMPLOYEE_KIND_VALUES),
  /** DNI or NIE, normalized; the employee routes are admin-only. */
  taxId: z.string().nullable(),
  payrollCode: z.string().nullable(),
  active: z.boolean(),
  createdAt: timestamp,
});

export const STUDENT_STATUS_VALUES = ['active', 'inactive', 'withdrawn'] as const;
export const StudentCreateBody = z.strictObject({
  name,
  lastname: name,
  /** Absent, or a real address, or a reserved placeholder (`sin-email-<n>@placeholder.invalid`). */
  email: email.nullable().optional(),
  status: z.enum(STUDENT_STATUS_VALUES).optional(),
  guardianId: AcademicId.nullable().optional(),
});
export const StudentUpdateBody = StudentCreateBody.partial().strict().refine(...nonEmpty);
export const StudentItem = z.object({
  id: z.number().int(),
  name: z.string(),
  lastname: z.string(),
  email: z.string().nullable(),
  status: z.enum(STUDENT_STATUS_VALUES),
  guardianId: z.number().int().nullable(),
  createdAt: timestamp,
});

export const GuardianCreateBody = z.strictObject({
  name,
  lastname: text().max(100).optional(),
  email,
  phone: text().max(40).nullable().optional(),
});
export const GuardianUpdateBody = GuardianCreateBody.partial().extend({ active: z.boolean().optional() }).strict().refine(...nonEmpty);
export const GuardianItem = z.object({
  id: z.number().int(),
  name: z.string(),
  lastname: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  active: z.boolean(),
  createdAt: timestamp,
});

const blockName = text().min(1).max(120);
export const SubjectCreateBody = z.strictObject({
  name: text().min(1).max(120),
  /** Block names in teaching order; positions are assigned from 1. */
  blocks: z.array(blockName).max(50).optional(),
});
export const SubjectUpdateBody = SubjectCreateBody.partial().extend({ active: z.boolean().optional() }).strict().refine(...nonEmpty);
export const BlockItem = z.object({ id: z.number().int(), name: z.string(), position: z.number().int() });
export const SubjectItem = z.object({
  id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  blocks: z.array(BlockItem),
  createdAt: timestamp,
});

export const CenterCreateBody = z.strictObject({
  name: text().min(1).max(120),
  address: text().max(255).nullable().optional(),
});
export const CenterUpdateBody = CenterCreateBody.partial().extend({ active: z.boolean().optional() }).strict().refine(...nonEmpty);
export const CenterItem = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string().nullable(),
  active: z.boolean(),
  createdAt: timestamp,
});

/** The admin CRUD of one directory resource: its family `/api/v2/<resource>` and five routes. */
function directoryApi<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  resource: string,
  tag: string,
  schemas: { item: z.ZodType; query: Q; create: C; update: U },
  deleteSummary: string,
) {
  const family = routeFamily({ prefix: `/api/v2/${resource}`, service: 'academic', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: [tag] });
  const path = `/api/v2/${resource}`;
  const byId = { path: `${path}/{id}`, role: 'admin' } as const;
  const params = IdPathParam('id');
  const errors = (extra: Record<number, string> = {}) => errorResponses({ 400: 'Invalid input', 403: 'Not allowed for this role', ...extra });
  return {
    family,
    list: family.route({ method: 'get', path, role: 'admin', summary: `List ${tag} (admin)`, request: { query: schemas.query }, responses: { 200: jsonContent(page(schemas.item), 'A page'), ...errors() } }),
    create: family.route({ method: 'post', path, role: 'admin', summary: 'Create (admin)', request: { body: schemas.create }, responses: { 201: jsonContent(schemas.item, 'Created'), ...errors({ 409: 'Conflict' }) } }),
    get: family.route({ method: 'get', ...byId, summary: 'Read one (admin)', request: { params }, responses: { 200: jsonContent(schemas.item, 'Found'), ...errors({ 404: 'Not found' }) } }),
    update: family.route({ method: 'patch', ...byId, summary: 'Update (admin)', request: { params, body: schemas.update }, responses: { 200: jsonContent(schemas.item, 'Updated'), ...errors({ 404: 'Not found' }) } }),
    remove: family.route({ method: 'delete', ...byId, summary: deleteSummary, request: { params }, responses: { 200: jsonContent(schemas.item, 'Done'), ...errors({ 404: 'Not found' }) } }),
  };
}
export type DirectoryApi<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType> = ReturnType<typeof directoryApi<Q, C, U>>;

export const usersApi = directoryApi('users', 'Users', { item: UserItem, query: DirectoryPageQuery, create: UserCreateBody, update: UserUpdateBody }, 'Deactivate a user (admin)');
export const employeesApi = directoryApi('employees', 'Employees', { item: EmployeeItem, query: DirectoryPageQuery, create: EmployeeCreateBody, update: EmployeeUpdateBody }, 'Deactivate an employee; publishes employee.deleted (admin)');
export const studentsApi = directoryApi('students', 'Students', { item: StudentItem, query: DirectoryPageQuery, create: StudentCreateBody, update: StudentUpdateBody }, 'Set a student inactive (admin)');
export const guardiansApi = directoryApi('guardians', 'Guardians', { item: GuardianItem, query: DirectoryPageQuery, create: GuardianCreateBody, update: GuardianUpdateBody }, 'Deactivate a guardian (admin)');
export const subjectsApi = directoryApi('subjects', 'Subjects', { item: SubjectItem, query: DirectoryPageQuery, create: SubjectCreateBody, update: SubjectUpdateBody }, 'Deactivate a subject (admin)');
export const centersApi = directoryApi('centers', 'Centers', { item: CenterItem, query: DirectoryPageQuery, create: CenterCreateBody, update: CenterUpdateBody }, 'Deactivate a center (admin)');

// ---------------------------------------------------------------- school courses

export const SchoolCourseCreateBody = z
  .strictObject({ name: text().min(1).max(60), startDate: isoDate, endDate: isoDate })
  .refine((course) => course.endDate >= course.startDate, { error: 'endDate must not be before startDate', path: ['endDate'] });
export const SchoolCourseItem = z.object({
  id: z.number().int(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  /** The latest (current) course: greatest start date, ties by greatest id. */
  isLatest: z.boolean(),
  createdAt: timestamp,
});
export const SchoolCourseList = z.object({ data: z.array(SchoolCourseItem), latestSchoolCourseId: z.number().int().nullable() });

/** `/api/v2/school-courses`: any signed-in user reads the courses; admins create and delete them. */
export const schoolCoursesApi = routeFamily({ prefix: '/api/v2/school-courses', service: 'academic', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['School courses'] });

export const listSchoolCoursesRoute = schoolCoursesApi.route({
  method: 'get',
  path: '/api/v2/school-courses',
  summary: 'List school courses, newest first, marking the latest',
  responses: { 200: jsonContent(SchoolCourseList, 'Courses'), ...errorResponses({ 400: 'Invalid input', 403: 'Not allowed for this role' }) },
});

export const createSchoolCourseRoute = schoolCoursesApi.route({
  method: 'post',
  path: '/api/v2/school-courses',
  summary: 'Create a school course (admin); publishes school-course.created',
  role: 'admin',
  request: { body: SchoolCourseCreateBody },
  responses: { 201: jsonContent(SchoolCourseItem, 'Created'), ...errorResponses({ 400: 'Invalid input', 403: 'Not allowed for this role', 409: 'Name already used' }) },
});

export const deleteSchoolCourseRoute = schoolCoursesApi.route({
  method: 'delete',
  path: '/api/v2/school-courses/{id}',
  summary: 'Delete a school course (admin); 409 while it has registrations',
  role: 'admin',
  request: { params: IdPathParam('id') },
  responses: {
    200: jsonContent(SchoolCourseItem, 'Deleted'),
    ...errorResponses({ 400: 'Invalid input', 403: 'Not allowed for this role', 404: 'Not found', 409: 'The course still has registrations' }),
  },
});

// ---------------------------------------------------------------- registrations and calendar

export const REGISTRATION_STATUS_VALUES = ['pending', 'active', 'cancelled'] as const;
export const RegistrationCreateBody = z.strictObject({
  studentId: AcademicId,
  schoolCourseId: AcademicId,
  subjectId: AcademicId,
  centerId: AcademicId,
  status: z.enum(REGISTRATION_STATUS_VALUES).optional(),
  employeeId: AcademicId.nullable().optional(),
});
export const RegistrationUpdateBody = z.object({ status: z.enum(REGISTRATION_STATUS_VALUES).optional(), employeeId: AcademicId.nullable().optional(), centerId: AcademicId.optional() }).strict().refine(...nonEmpty);
/** Strict: a parameter it does not filter by (`search`, a typo) is a 400, not silently ignored. */
export const RegistrationListQuery = DirectoryPageQuery.omit({ search: true })
  .extend({
    studentId: AcademicIdText.optional(),
    schoolCourseId: AcademicIdText.optional(),
    subjectId: AcademicIdText.optional(),
    status: z.enum(REGISTRATION_STATUS_VALUES).optional(),
  })
  .strict();
export const RegistrationItem = z.object({
  id: z.number().int(),
  studentId: z.number().int(),
  schoolCourseId: z.number().int(),
  subjectId: z.number().int(),
  centerId: z.number().int(),
  employeeId: z.number().int().nullable(),
  status: z.enum(REGISTRATION_STATUS_VALUES),
  createdAt: timestamp,
});

export const CalendarEventCreateBody = z
  .strictObject({
    title: text().max(200).nullable().optional(),
    subjectId: AcademicId,
    centerId: AcademicId,
    employeeId: AcademicId.nullable().optional(),
    startsAt: isoDateTime,
    endsAt: isoDateTime,
  })
  .refine((event) => Date.parse(event.endsAt) > Date.parse(event.startsAt), { error: 'endsAt must be after startsAt', path: ['endsAt'] });
export const CalendarEventUpdateBody = z.object({
    title: text().max(200).nullable().optional(),
    subjectId: AcademicId.optional(),
    centerId: AcademicId.optional(),
    employeeId: AcademicId.nullable().optional(),
    startsAt: isoDateTime.optional(),
    endsAt: isoDateTime.optional(),
  }).strict().refine(...nonEmpty);
/** Strict, like the registrations' query. */
export const CalendarEventListQuery = DirectoryPageQuery.omit({ search: true })
  .extend({
    subjectId: AcademicIdText.optional(),
    centerId: AcademicIdText.optional(),
    employeeId: AcademicIdText.optional(),
  })
  .strict();
export const CalendarEventItem = z.object({
  id: z.number().int(),
  title: z.string().nullable(),
  subjectId: z.number().int(),
  centerId: z.number().int(),
  employeeId: z.number().int().nullable(),
  startsAt: timestamp,
  endsAt: timestamp,
  studentCount: z.number().int(),
});

export const registrationsApi = directoryApi('registrations', 'Registrations', { item: RegistrationItem, query: RegistrationListQuery, create: RegistrationCreateBody, update: RegistrationUpdateBody }, 'Delete a registration (admin)');
export const calendarEventsApi = directoryApi('calendar-events', 'Calendar events', { item: CalendarEventItem, query: CalendarEventListQuery, create: CalendarEventCreateBody, update: CalendarEventUpdateBody }, 'Delete a calendar event and its assignments (admin)');
/** The admin directory, in the gateway's order. */
export const directoryApis = [usersApi, employeesApi, studentsApi, guardiansApi, subjectsApi, centersApi, registrationsApi, calendarEventsApi];

// ---------------------------------------------------------------- event assignment (spec)

/** Bound of the desired set of one call. */
export const MAX_STUDENTS_PER_ASSIGNMENT = 1000;
export const AssignStudentsBody = z.strictObject({
  eventId: AcademicId,
  /** Teacher of the event; defaults to the event's employee. */
  employeeId: z.union([AcademicId, AcademicIdText], { error: 'must be a positive integer' }).optional(),
  /** Must match the event's subject when given. */
  subjectId: AcademicId.optional(),
  /** Must match the event's center when given. */
  centerId: AcademicId.optional(),
  /** The desired set of students of the event; duplicates are ignored. */
  idsStudents: z.array(AcademicId).max(MAX_STUDENTS_PER_ASSIGNMENT, { error: `must have at most ${MAX_STUDENTS_PER_ASSIGNMENT} entries` }),
});
export type AssignStudentsBody = z.infer<typeof AssignStudentsBody>;
export const RejectedStudent = z.object({ studentId: z.number().int(), reason: z.string() });
export const AssignStudentsResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    eventId: z.number().int(),
    employeeId: z.number().int().nullable(),
    /** Students of the desired set that are in the event after the call. */
    assignedStudents: z.array(z.number().int()),
    /** Students this call took out of the event. */
    removedStudents: z.array(z.number().int()),
    rejectedStudents: z.array(RejectedStudent),
  }),
});
export const StudentsBySubjectAndCenterQuery = queryObject({
  subjectId: AcademicIdText,
  centerId: AcademicIdText,
  /** Defaults to the latest school course. */
  schoolCourseId: AcademicIdText.optional(),
});
export const RegisteredStudentItem = z.object({
  studentId: z.number().int(),
  registrationId: z.number().int(),
  fullName: z.string(),
  registrationStatus: z.enum(REGISTRATION_STATUS_VALUES),
  employeeId: z.number().int().nullable(),
});
export const StudentsBySubjectAndCenterResponse = z.object({
  status: z.literal('success'),
  data: z.object({ schoolCourseId: z.number().int().nullable(), students: z.array(RegisteredStudentItem) }),
});
export const StudentsAssignedToEventQuery = queryObject({ eventId: AcademicIdText });
export const AssignedStudentItem = z.object({
  studentId: z.number().int(),
  fullName: z.string(),
  registrationStatus: z.enum(REGISTRATION_STATUS_VALUES).nullable(),
  assignedAt: timestamp,
});
export const StudentsAssignedToEventResponse = z.object({
  status: z.literal('success'),
  data: z.object({ eventId: z.number().int(), employeeId: z.number().int().nullable(), students: z.array(AssignedStudentItem) }),
});

/** `/api/v2/registration` (spec): error bodies are `{ status: 'error', message }`; a user (teacher) acts on the events they teach only, admins on any. */
export const registrationApi = routeFamily({ prefix: '/api/v2/registration', service: 'academic', access: 'bearer', errorStyle: 'status', unauthorizedMessage: 'Invalid or expired token', tags: ['Event assignment'] });
const statusErrors = (descriptions: Record<number, string>) => errorResponses(descriptions, 'status');

export const ASSIGNMENT_PATH = '/api/v2/registration/assign-students-to-event';
export const assignStudentsToEventRoute = registrationApi.route({
  method: 'put',
  path: ASSIGNMENT_PATH,
  summary: 'Make the set of students of an event the given one (admin: any event; user: only events they teach, only themselves as employeeId)',
  request: { body: AssignStudentsBody },
  responses: {
    200: jsonContent(AssignStudentsResponse, 'Applied; pending registrations come back in rejectedStudents'),
    ...statusErrors({
      400: 'Invalid input (EVENT_ID_REQUIRED: `eventId is required`)',
      403: 'NOT_EVENT_TEACHER: a user who does not teach the event; NOT_OWN_EMPLOYEE_ID: a user naming another employee',
      404: 'Event or employee not found',
    }),
  },
});

export const studentsBySubjectAndCenterRoute = registrationApi.route({
  method: 'get',
  path: '/api/v2/registration/students-by-subject-and-center',
  summary: 'Students registered in a subject at a center (latest course by default)',
  request: { query: StudentsBySubjectAndCenterQuery },
  responses: { 200: jsonContent(StudentsBySubjectAndCenterResponse, 'Students'), ...statusErrors({ 400: 'Invalid input', 403: 'Not allowed for this role' }) },
});

export const studentsAssignedToEventRoute = registrationApi.route({
  method: 'get',
  path: '/api/v2/registration/students-assigned-to-event',
  summary: 'Students assigned to an event (admin, or the teacher of the event)',
  request: { query: StudentsAssignedToEventQuery },
  responses: {
    200: jsonContent(StudentsAssignedToEventResponse, 'Students'),
    ...statusErrors({ 400: 'Invalid input', 403: 'NOT_EVENT_TEACHER: a user who does not teach the event', 404: 'Event not found' }),
  },
});

/** The retired v1 update: gone whatever is sent (its handler answers 410 before reading the request). */
export const registrationV1Api = routeFamily({ prefix: '/api/v1/registration/update', service: 'academic', access: 'bearer', errorStyle: 'status', unauthorizedMessage: 'Invalid or expired token', tags: ['Event assignment'] });
export const retiredRegistrationUpdateRoute = registrationV1Api.route({
  method: 'put',
  path: '/api/v1/registration/update',
  summary: `Gone: replaced by PUT ${ASSIGNMENT_PATH}`,
  responses: { 410: jsonContent(StatusErrorBody, 'Gone') },
});

// ---------------------------------------------------------------- administrative listing (spec)

/** `page` and `limit` coerced as spec rule 1 says; an unknown parameter is a 400 as everywhere. */
export const AdministrativeListingQuery = queryObject({
  page: lenientPositive(1, ACADEMIC_MAX_PAGE).meta({ description: 'default 1; not a finite number > 0 becomes 1; rounded down', type: 'string' }),
  limit: lenientPositive(ACADEMIC_DEFAULT_PAGE_SIZE, ACADEMIC_MAX_PAGE_SIZE).meta({ description: `default ${ACADEMIC_DEFAULT_PAGE_SIZE}; same coercion; at most ${ACADEMIC_MAX_PAGE_SIZE}`, type: 'string' }),
  search: search.meta({ description: 'name and lastname, case- and accent-insensitive' }),
  status: z.enum(STUDENT_STATUS_VALUES).optional(),
  subjectId: AcademicIdText.optional(),
  schoolCourseId: AcademicIdText.optional(),
});
export type AdministrativeListingQuery = z.infer<typeof AdministrativeListingQuery>;
export const AdministrativeStudentItem = z.object({
  id: z.number().int(),
  name: z.string(),
  lastname: z.string(),
  status: z.string(),
  renews: z.boolean(),
});
export const AdministrativeListingResponse = page(AdministrativeStudentItem);

/** `/api/students/administrative` (spec): admin-only, as its name says; a teacher gets 403 (they see their events' students instead). */
export const administrativeListingApi = routeFamily({ prefix: '/api/students/administrative', service: 'academic', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', tags: ['Students'] });
export const administrativeListingRoute = administrativeListingApi.route({
  method: 'get',
  path: '/api/students/administrative',
  summary: 'Administrative student listing (admin), newest first, with `renews` from the latest school course',
  role: 'admin',
  request: { query: AdministrativeListingQuery },
  responses: { 200: jsonContent(AdministrativeListingResponse, 'A page of students'), ...errorResponses({ 400: 'Invalid input', 403: 'Not an admin' }) },
});

/** The families of this file's routes declared with `family.route` (the OpenAPI document registers them). */
export const academicFamilies: DeclaredFamily[] = [registrationApi, schoolCoursesApi, ...directoryApis.map((api) => api.family), registrationV1Api, administrativeListingApi];
