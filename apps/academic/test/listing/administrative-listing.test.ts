import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { admin, useAcademic, user } from '../support.ts';

const PATH = '/api/students/administrative';

describe('GET /api/students/administrative', () => {
  const { service, f } = useAcademic();
  let ids: { older: number; newer: number; tieA: number; tieB: number; accent: number; none: number };
  let courses: { previous: number; latest: number };
  let subjectId: number;

  beforeAll(async () => {
    // The latest course is the greatest start date, whatever the insertion order.
    const latest = await f.course('2026-09-01');
    const previous = await f.course('2025-09-01');
    courses = { previous, latest };
    subjectId = await f.subject();
    const centerId = await f.center();
    const tie = new Date('2026-01-10T10:00:00Z');
    const older = await f.student('Carlos', 'Pérez', new Date('2025-01-01T00:00:00Z'));
    const accent = await f.student('José', 'Núñez Ibáñez', new Date('2025-06-01T00:00:00Z'), 'inactive');
    const tieA = await f.student('Tie', 'First', tie);
    const tieB = await f.student('Tie', 'Second', tie);
    const newer = await f.student('Lucía', 'García', new Date('2026-05-01T00:00:00Z'));
    const none = await f.student('Nadie', 'Sinmatrícula', new Date('2026-04-01T00:00:00Z'));
    ids = { older, newer, tieA, tieB, accent, none };
    await f.registration({ studentId: older, courseId: previous, subjectId, centerId });
    await f.registration({ studentId: newer, courseId: latest, subjectId, centerId, status: 'pending' });
    await f.registration({ studentId: accent, courseId: previous, subjectId, centerId });
    await f.registration({ studentId: accent, courseId: latest, subjectId: await f.subject(), centerId });
  });

  const list = (query: Record<string, string | number | undefined> = {}) => request(service().url).get(PATH).query(query).set(admin);

  test('rule 1: page and limit that are not finite numbers > 0 fall back to 1 and 20, and are rounded down', async () => {
    for (const query of [{ page: -1, limit: 'abc' }, { page: 0, limit: 0 }, { page: 'x', limit: '-5' }, { page: 'Infinity', limit: 'NaN' }, { page: '', limit: '' }]) {
      const res = await list(query);
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({ currentPage: 1, pageSize: 20 });
    }
    const rounded = await list({ page: '1.9', limit: '2.7' });
    expect(rounded.body.meta).toMatchObject({ currentPage: 1, pageSize: 2 });
    expect(rounded.body.data).toHaveLength(2);
  });

  test('limit is capped at 100, and a huge page is an empty page, not an error', async () => {
    const res = await list({ limit: 1_000_000 });
    expect(res.status).toBe(200);
    expect(res.body.meta.pageSize).toBe(100);
    const far = await list({ page: '1e300', limit: 100 });
    expect(far.status).toBe(200);
    expect(far.body).toEqual({ data: [], meta: { totalItems: 6, totalPages: 1, currentPage: 1_000_000_000, pageSize: 100 } });
  });

  test('rule 2: totalPages is totalItems / limit rounded up, and 1 when there are no items', async () => {
    const res = await list({ limit: 4 });
    expect(res.body.meta).toEqual({ totalItems: 6, totalPages: 2, currentPage: 1, pageSize: 4 });
    const empty = await list({ search: 'zzzz-nobody' });
    expect(empty.body).toEqual({ data: [], meta: { totalItems: 0, totalPages: 1, currentPage: 1, pageSize: 20 } });
    const beyond = await list({ page: 9, limit: 4 });
    expect(beyond.body).toEqual({ data: [], meta: { totalItems: 6, totalPages: 2, currentPage: 9, pageSize: 4 } });
  });

  test('rule 3: newest first, and students created at the same instant keep a stable order (id descending)', async () => {
    const res = await list();
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([ids.newer, ids.none, ids.tieB, ids.tieA, ids.accent, ids.older]);
    const pages = [];
    for (let page = 1; page <= 6; page++) pages.push(...(await list({ page, limit: 1 })).body.data.map((s: { id: number }) => s.id));
    expect(pages).toEqual([ids.newer, ids.none, ids.tieB, ids.tieA, ids.accent, ids.older]);
  });

  test('rule 4: renews is true with a registration in the latest course (any status); students without registrations are included', async () => {
    const res = await list();
    const renews = Object.fromEntries(res.body.data.map((s: { id: number; renews: boolean }) => [s.id, s.renews]));
    expect(renews).toEqual({ [ids.newer]: true, [ids.accent]: true, [ids.older]: false, [ids.none]: false, [ids.tieA]: false, [ids.tieB]: false });
    expect(res.body.data[0]).toEqual({ id: ids.newer, name: 'Lucía', lastname: 'García', status: 'active', renews: true });
  });

  test('rule 5: renews always uses the latest course, whatever schoolCourseId filters', async () => {
    const res = await list({ schoolCourseId: courses.previous });
    expect(res.body.data).toEqual([
      expect.objectContaining({ id: ids.accent, renews: true }),
      expect.objectContaining({ id: ids.older, renews: false }),
    ]);
  });

  test('search is case- and accent-insensitive over name and lastname', async () => {
    for (const search of ['jose', 'JOSÉ', 'nunez', 'ibáñez', 'jose nuñez', 'IBANEZ']) {
      const res = await list({ search });
      expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([ids.accent]);
    }
    const wildcard = await list({ search: '%' });
    expect(wildcard.body.meta.totalItems).toBe(0);
  });

  test('status and subjectId filter', async () => {
    expect((await list({ status: 'inactive' })).body.data.map((s: { id: number }) => s.id)).toEqual([ids.accent]);
    expect((await list({ subjectId })).body.data.map((s: { id: number }) => s.id)).toEqual([ids.newer, ids.accent, ids.older]);
  });

  test('bad filters are a 400 naming the field', async () => {
    for (const query of [{ subjectId: 'abc' }, { schoolCourseId: 0 }, { subjectId: '1.5' }, { schoolCourseId: '99999999999' }, { status: 'nope' }, { search: 'x'.repeat(101) }, { search: 'a\u0000b' }]) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
  });

  test('admin-only, as the OpenAPI document says: a user (teacher) gets 403; without a token it is 401', async () => {
    const refused = await request(service().url).get(PATH).set(user);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await request(service().url).get(PATH)).status).toBe(401);
  });
});
