import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { DEV_TAX_ID_DIGEST_KEY, demoTaxId, taxIdDigest } from '@academy/contracts';
import { seedDemoData } from '../src/seed.ts';
import { republishAll } from '../src/republish.ts';
import { admin, useAcademic } from './support.ts';

// Each describe has a database of its own: the first test needs an empty one, the others seed theirs
// (seedDemoData does nothing when the academy is already seeded), so any order of the tests passes.
describe('demo seed', () => {
  const { service, f } = useAcademic();

  test('seedDemoData creates a realistic academy once; a second run does nothing', async () => {
    const first = await seedDemoData(service().ctx.orm);
    expect(first.created).toBe(true);
    expect(first.counts!.students).toBeGreaterThanOrEqual(200);
    const count = async () => (await f.query<{ n: number }>(`select (select count(*) from students) + (select count(*) from registrations) + (select count(*) from outbox) as n`))[0].n;
    const before = await count();
    expect(await seedDemoData(service().ctx.orm)).toEqual({ created: false });
    expect(await count()).toBe(before);

    const [shape] = await f.query<Record<string, number>>(`
      select (select count(*)::int from users where role = 'admin') as admins,
             (select count(*)::int from users u join employees e on e.user_id = u.id where u.role = 'user') as teachers,
             (select count(*)::int from students where guardian_id is not null) as with_guardian,
             (select count(*)::int from students where email like 'sin-email-%@placeholder.invalid') as placeholder,
             (select count(*)::int from students where email is null) as no_email,
             (select count(*)::int from school_courses) as courses,
             (select count(*)::int from registrations where status = 'pending') as pending,
             (select count(*)::int from calendar_events) as events,
             (select min(c)::int from (select count(*) as c from blocks group by subject_id) b) as min_blocks,
             (select max(c)::int from (select count(*) as c from blocks group by subject_id) b) as max_blocks`);
    expect(shape.admins).toBe(2);
    expect(shape.teachers).toBeGreaterThanOrEqual(3);
    for (const key of ['with_guardian', 'placeholder', 'no_email', 'pending', 'events']) expect(shape[key]).toBeGreaterThan(0);
    expect(shape.courses).toBe(2);
    expect(shape.min_blocks).toBeGreaterThanOrEqual(3);
    expect(shape.max_blocks).toBeLessThanOrEqual(5);

    // The seeded academy answers the listing: some students renew, some do not.
    const listing = await request(service().url).get('/api/students/administrative').query({ limit: 100 }).set(admin);
    const renews = listing.body.data.map((s: { renews: boolean }) => s.renews);
    expect(renews).toContain(true);
    expect(renews).toContain(false);
  });
});

describe('republish', () => {
  const { service, f } = useAcademic();

  test('republishAll records an employee.upserted per employee, a school-course.created per course and a calendar-event.created per class', async () => {
    await seedDemoData(service().ctx.orm);
    const [{ employees, courses, events }] = await f.query<{ employees: number; courses: number; events: number }>(
      `select (select count(*)::int from employees) as employees, (select count(*)::int from school_courses) as courses, (select count(*)::int from calendar_events) as events`,
    );
    const before = await f.query<{ type: string; n: number }>(`select type, count(*)::int as n from outbox group by type order by type`);
    const result = await republishAll(service().ctx.orm, DEV_TAX_ID_DIGEST_KEY);
    expect(result).toEqual({ employees, schoolCourses: courses, calendarEvents: events });
    const after = await f.query<{ type: string; n: number }>(`select type, count(*)::int as n from outbox group by type order by type`);
    const delta = Object.fromEntries(after.map((row) => [row.type, row.n - (before.find((b) => b.type === row.type)?.n ?? 0)]).filter(([, n]) => n !== 0));
    const expected = { 'employee.upserted': employees, 'school-course.created': courses, 'calendar-event.created': events };
    expect(delta).toEqual(Object.fromEntries(Object.entries(expected).filter(([, n]) => n !== 0)));
  });

  test('teacherN gets the demo tax id demoTaxId(N), and republish carries every employee\'s tax id digest and payroll code (version 3 only, never the tax id)', async () => {
    await seedDemoData(service().ctx.orm);
    const teachers = await f.query<{ email: string; tax_id: string }>(`select u.email, e.tax_id from users u join employees e on e.user_id = u.id where u.email like 'teacher%' order by e.id`);
    expect(teachers.length).toBe(6);
    for (const teacher of teachers) expect(teacher.tax_id).toBe(demoTaxId(Number(/^teacher(\d+)@/.exec(teacher.email)![1])));
    await republishAll(service().ctx.orm, DEV_TAX_ID_DIGEST_KEY, 'republish-tax-ids');
    const events = await f.query<{ version: number; data: { id: number; taxIdDigest?: string | null; payrollCode: string | null } }>(
      `select envelope->'version' as version, envelope->'data' as data from outbox where type = 'employee.upserted' and envelope->>'correlationId' = 'republish-tax-ids'`,
    );
    const stored = await f.query<{ id: number; tax_id: string | null; payroll_code: string | null }>(`select id, tax_id, payroll_code from employees order by id`);
    const byId = (a: unknown[], b: unknown[]) => Number(a[1]) - Number(b[1]);
    expect(events.map((event) => [event.version, event.data.id, event.data.taxIdDigest, event.data.payrollCode]).sort(byId)).toEqual(
      stored.map((row) => [3, row.id, row.tax_id && taxIdDigest(row.tax_id, DEV_TAX_ID_DIGEST_KEY), row.payroll_code]),
    );
    expect(JSON.stringify(events)).not.toMatch(/"taxId"/);
  });
});
