import { describe, expect, test } from '@jest/globals';
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import {
  academicFamilies,
  AdministrativeListingQuery,
  AssignStudentsBody,
  SchoolCourseCreateBody,
  StudentUpdateBody,
  deliverableEmail,
  isPlaceholderEmail,
  placeholderEmail,
  registerRoutes,
} from '../index.ts';

describe('AdministrativeListingQuery (spec rule 1 of the listing)', () => {
  test.each([
    [{}, 1, 20],
    [{ page: '-1', limit: 'abc' }, 1, 20],
    [{ page: '0', limit: '0' }, 1, 20],
    [{ page: 'Infinity', limit: 'NaN' }, 1, 20],
    [{ page: '2.9', limit: '7.5' }, 2, 7],
    [{ page: '0.5', limit: '1000000' }, 1, 100],
    [{ page: ['1', '2'], limit: '' }, 1, 20],
    [{ page: '1e300' }, 1_000_000_000, 20],
  ])('%j → page %i, limit %i', (query, page, limit) => {
    expect(AdministrativeListingQuery.parse(query)).toMatchObject({ page, limit });
  });

  test('ids in filters are positive integers below 2^31', () => {
    for (const subjectId of ['0', '-1', '1.5', 'abc', '99999999999']) expect(AdministrativeListingQuery.safeParse({ subjectId }).success).toBe(false);
    expect(AdministrativeListingQuery.parse({ subjectId: '7' }).subjectId).toBe(7);
  });
});

describe('AssignStudentsBody', () => {
  test('accepts employeeId as a number or a numeric string', () => {
    expect(AssignStudentsBody.parse({ eventId: 1, employeeId: '12', idsStudents: [1] }).employeeId).toBe(12);
    expect(AssignStudentsBody.parse({ eventId: 1, employeeId: 12, idsStudents: [] }).employeeId).toBe(12);
  });
  test.each([
    ['an unknown field', { eventId: 1, idsStudents: [], extra: 1 }],
    ['1,001 students', { eventId: 1, idsStudents: Array.from({ length: 1001 }, (_, i) => i + 1) }],
    ['a fractional student id', { eventId: 1, idsStudents: [1.5] }],
    ['idsStudents not an array', { eventId: 1, idsStudents: '1' }],
    ['employeeId "1e3"', { eventId: 1, employeeId: '1e3', idsStudents: [] }],
    ['eventId as a string', { eventId: '1', idsStudents: [] }],
  ])('refuses %s', (_name, body) => {
    expect(AssignStudentsBody.safeParse(body).success).toBe(false);
  });
});

describe('bodies', () => {
  test('a school course must not end before it starts', () => {
    expect(SchoolCourseCreateBody.safeParse({ name: 'x', startDate: '2026-09-01', endDate: '2026-08-31' }).success).toBe(false);
  });
  test('an update with no field is refused, an unknown field too', () => {
    expect(StudentUpdateBody.safeParse({}).success).toBe(false);
    expect(StudentUpdateBody.safeParse({ nickname: 'x' }).success).toBe(false);
    expect(StudentUpdateBody.parse({ email: null })).toEqual({ email: null });
  });
});

describe('placeholder e-mails', () => {
  test('placeholders are recognised and never deliverable', () => {
    expect(placeholderEmail(123)).toBe('sin-email-123@placeholder.invalid');
    expect(isPlaceholderEmail('SIN-EMAIL-9@placeholder.invalid')).toBe(true);
    expect(isPlaceholderEmail('ana@example.com')).toBe(false);
    expect(deliverableEmail('sin-email-9@placeholder.invalid')).toBeNull();
    expect(deliverableEmail(null)).toBeNull();
    expect(deliverableEmail('ana@example.com')).toBe('ana@example.com');
  });
});

describe('academicFamilies', () => {
  test('register every academic route in academic.ts in an OpenAPI document', () => {
    const registry = new OpenAPIRegistry();
    registerRoutes(registry, academicFamilies);
    const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({ openapi: '3.0.3', info: { title: 'academic', version: '1' } });
    expect(Object.keys(document.paths ?? {}).sort()).toEqual(
      [
        '/api/students/administrative',
        '/api/v1/registration/update',
        '/api/v2/registration/assign-students-to-event',
        '/api/v2/registration/students-assigned-to-event',
        '/api/v2/registration/students-by-subject-and-center',
        '/api/v2/school-courses',
        '/api/v2/school-courses/{id}',
        ...['users', 'employees', 'students', 'guardians', 'subjects', 'centers', 'registrations', 'calendar-events'].flatMap((r) => [`/api/v2/${r}`, `/api/v2/${r}/{id}`]),
      ].sort(),
    );
  });
});
