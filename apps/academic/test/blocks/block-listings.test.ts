import { describe, expect, test } from '@jest/globals';
import { bearer, tokenFor } from '@academy/testing';
import { admin, useAcademic, user } from '../support.ts';
import { blockWorld } from './blocks-support.ts';

const expired = { authorization: `Bearer ${tokenFor({ role: 'admin' }, -60)}` };

describe('block listings, thread and grades', () => {
  const { service, f } = useAcademic();
  const w = blockWorld(service, f);
  const get = (path: string, headers: Record<string, string> = admin) => w.api().get(path).set(headers);

  test('every block route answers 401 UNAUTHORIZED to a missing or expired token', async () => {
    const routes: [string, string][] = [
      ['get', '/api/v2/blocks/pending'],
      ['get', '/api/v2/blocks/pending-rejected'],
      ['get', '/api/v2/blocks/completed'],
      ['post', '/api/v2/blocks/1/close'],
      ['post', '/api/v2/blocks/student-block/1/review'],
      ['get', '/api/v2/blocks/student-block/1/thread'],
      ['post', '/api/v2/blocks/student-block/1/thread'],
      ['get', '/api/v2/blocks/grades/1/1'],
    ];
    for (const [method, path] of routes) {
      for (const headers of [{}, expired, { authorization: 'Bearer not-a-token' }]) {
        const answer = await (method === 'get' ? w.api().get(path) : w.api().post(path).send({})).set(headers);
        expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 401, 'UNAUTHORIZED']);
      }
    }
  });

  describe('GET /api/v2/blocks/pending', () => {
    test('groups pending blocks by student, oldest close first, with names and teacher; filters by student and subject', async () => {
      const math = await w.subject(['M1', 'M2']);
      const art = await w.subject(['A1']);
      const teacher = await w.teacher(null, 'Marta');
      const ana = await w.student({ name: 'Ana' });
      const bea = await w.student({ name: 'Bea' });
      for (const [studentId, subject] of [
        [ana, math],
        [bea, math],
        [ana, art],
      ] as const) {
        await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      }
      // Close order: Ana/math, Bea/math, Ana/art (closedAt increases).
      await w.close(math.blockIds[0]!, { studentId: ana, grade: 6 }, teacher.headers).expect(200);
      await w.close(math.blockIds[0]!, { studentId: bea }, teacher.headers).expect(200);
      await w.close(art.blockIds[0]!, { studentId: ana, grade: 9.75 }, teacher.headers).expect(200);

      const all = await get(`/api/v2/blocks/pending?subjectId=${math.subjectId}`);
      expect(all.status).toBe(200);
      expect(all.body.total).toBe(2);
      expect(all.body.byStudent.map((group: { studentId: number }) => group.studentId)).toEqual([ana, bea]);

      const anas = await get(`/api/v2/blocks/pending?studentId=${ana}`);
      expect(anas.body).toEqual({
        ok: true,
        total: 2,
        byStudent: [
          {
            studentId: ana,
            studentName: expect.stringMatching(/^Ana Gil/),
            blocks: [
              expect.objectContaining({ blockId: math.blockIds[0], blockName: 'M1', subjectId: math.subjectId, grade: 6, status: 'pending', employeeId: teacher.employeeId, employeeName: 'Marta Ruiz' }),
              expect.objectContaining({ blockId: art.blockIds[0], blockName: 'A1', subjectId: art.subjectId, grade: 9.75, status: 'pending' }),
            ],
          },
        ],
      });
      const [first, second] = anas.body.byStudent[0].blocks;
      expect(Date.parse(first.closedAt)).toBeLessThanOrEqual(Date.parse(second.closedAt));
      expect((await get(`/api/v2/blocks/pending?studentId=${ana}&subjectId=${art.subjectId}`)).body.total).toBe(1);
      expect((await get(`/api/v2/blocks/pending?studentId=${bea}&subjectId=${art.subjectId}`)).body).toEqual({ ok: true, total: 0, byStudent: [] });
      const paged = await get(`/api/v2/blocks/pending?studentId=${ana}&limit=1&page=2`);
      expect(paged.body.byStudent[0].blocks.map((block: { blockId: number }) => block.blockId)).toEqual([art.blockIds[0]]);
    });

    test('401 UNAUTHORIZED for no token, an expired one and a non-admin; bad filters are 400', async () => {
      for (const headers of [{}, expired, user]) {
        const refused = await get('/api/v2/blocks/pending', headers);
        expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHORIZED']);
      }
      for (const query of ['studentId=abc', 'subjectId=0', 'limit=5000', 'studentId=1.5']) expect((await get(`/api/v2/blocks/pending?${query}`)).status).toBe(400);
    });

    test('an unknown query parameter, or a limit or page that is not a positive integer in range, is a 400 naming it', async () => {
      const unknown = await get('/api/v2/blocks/pending?foo=1');
      expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([400, 'VALIDATION_ERROR', 'Invalid request: unknown query parameter: foo']);
      for (const [query, name] of [['limit=abc', 'limit'], ['limit=-5', 'limit'], ['limit=1e8', 'limit'], ['limit=100000000', 'limit'], ['page=1e20', 'page'], ['page=0', 'page']]) {
        const refused = await get(`/api/v2/blocks/pending?${query}`);
        expect([query, refused.status, refused.body.details?.[0]?.path]).toEqual([query, 400, name]);
      }
    });
  });

  describe('GET /api/v2/blocks/pending-rejected', () => {
    test('pending blocks first, then rejected ones not closed again, with the rejection time; state filter', async () => {
      const subject = await w.subject(['R1', 'R2']);
      const teacher = await w.teacher();
      const pending = await w.pendingFirstBlock(subject, teacher);
      const rejected = await w.pendingFirstBlock(subject, teacher);
      await w.review(rejected.rows[0]!.id, { action: 'reject', reason: 'Incompleto' }).expect(200);

      const both = await get(`/api/v2/blocks/pending-rejected?subjectId=${subject.subjectId}`);
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ ok: true, total: 2, pendingCount: 1, rejectedCount: 1 });
      expect(both.body.blocks).toEqual([
        expect.objectContaining({ studentBlockId: pending.rows[0]!.id, state: 'pending', status: 'pending', rejectedAt: null, closedAt: expect.any(String) }),
        expect.objectContaining({ studentBlockId: rejected.rows[0]!.id, state: 'rejected', status: 'open', rejectedAt: expect.any(String), position: 1 }),
      ]);
      expect((await get(`/api/v2/blocks/pending-rejected?subjectId=${subject.subjectId}&state=rejected`)).body.blocks.map((b: { studentBlockId: number }) => b.studentBlockId)).toEqual([rejected.rows[0]!.id]);

      // Closed again: pending once more (and still showing its earlier rejection).
      await w.close(subject.blockIds[0]!, { studentId: rejected.studentId }, teacher.headers).expect(200);
      const after = await get(`/api/v2/blocks/pending-rejected?subjectId=${subject.subjectId}`);
      expect(after.body).toMatchObject({ pendingCount: 2, rejectedCount: 0 });
      expect(after.body.blocks[1]).toMatchObject({ studentBlockId: rejected.rows[0]!.id, state: 'pending', rejectedAt: expect.any(String) });
    });

    test('admins only: 401 otherwise', async () => {
      for (const headers of [{}, expired, user]) expect((await get('/api/v2/blocks/pending-rejected', headers)).status).toBe(401);
      expect((await get('/api/v2/blocks/pending-rejected?state=closed')).status).toBe(400);
    });
  });

  describe('GET /api/v2/blocks/completed', () => {
    test('closed blocks of the students of a course, newest approval first, paginated; a teacher sees their own registrations', async () => {
      const subject = await w.subject(['K1', 'K2']);
      const teacher = await w.teacher();
      const other = await w.teacher();
      const mine = await w.pendingFirstBlock(subject, teacher);
      const theirs = await w.pendingFirstBlock(subject, other);
      await w.review(mine.rows[0]!.id, { action: 'approve' }).expect(200);
      await w.review(theirs.rows[0]!.id, { action: 'approve' }).expect(200);
      const { courseId } = await w.coursePlace();

      const page = await get(`/api/v2/blocks/completed?subjectId=${subject.subjectId}&limit=1`);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ ok: true, schoolCourseId: courseId, meta: { totalItems: 2, totalPages: 2, currentPage: 1, pageSize: 1 } });
      expect(page.body.data).toEqual([
        expect.objectContaining({ studentBlockId: theirs.rows[0]!.id, blockName: 'K1', position: 1, grade: 8.5, employeeId: other.employeeId, approvedAt: expect.any(String), closedAt: expect.any(String) }),
      ]);
      const past = await get(`/api/v2/blocks/completed?subjectId=${subject.subjectId}&limit=1&page=9`);
      expect(past.body).toMatchObject({ data: [], meta: { totalItems: 2, currentPage: 9 } });

      const asTeacher = await get(`/api/v2/blocks/completed?subjectId=${subject.subjectId}&schoolCourseId=${courseId}`, teacher.headers);
      expect(asTeacher.body.data.map((row: { studentBlockId: number }) => row.studentBlockId)).toEqual([mine.rows[0]!.id]);
      const otherCourse = await f.course('2019-09-01');
      expect((await get(`/api/v2/blocks/completed?schoolCourseId=${otherCourse}`)).body).toMatchObject({ data: [], meta: { totalItems: 0 } });
    });

    test('an unknown query parameter, or a limit or page that is not a positive integer in range, is a 400 naming it (not clamped)', async () => {
      const unknown = await get('/api/v2/blocks/completed?foo=1&search=x');
      expect([unknown.status, unknown.body.message]).toEqual([400, 'Invalid request: unknown query parameters: foo, search']);
      for (const [query, name] of [['limit=abc', 'limit'], ['limit=-5', 'limit'], ['limit=1e8', 'limit'], ['limit=101', 'limit'], ['page=1e20', 'page'], ['page=0', 'page'], ['page=99999999999', 'page']]) {
        const refused = await get(`/api/v2/blocks/completed?${query}`);
        expect([query, refused.status, refused.body.code, refused.body.details?.[0]?.path]).toEqual([query, 400, 'VALIDATION_ERROR', name]);
        expect(refused.body.message).toContain(`${name}: `);
      }
    });

    test('an unknown course is 404; a user who is no employee 403; no token 401; a bad course id 400', async () => {
      expect((await get('/api/v2/blocks/completed?schoolCourseId=2000000000')).body.code).toBe('SCHOOL_COURSE_NOT_FOUND');
      expect((await get('/api/v2/blocks/completed', bearer({ role: 'user', sub: '5' }))).status).toBe(403);
      expect((await get('/api/v2/blocks/completed', {})).status).toBe(401);
      expect((await get('/api/v2/blocks/completed?schoolCourseId=x')).status).toBe(400);
    });
  });

  describe('/api/v2/blocks/student-block/:studentBlockId/thread', () => {
    test('the teacher and admins exchange messages, oldest first; the text is kept as written', async () => {
      const subject = await w.subject(['T1']);
      const teacher = await w.teacher(null, 'Pilar');
      const { rows } = await w.pendingFirstBlock(subject, teacher);
      const path = `/api/v2/blocks/student-block/${rows[0]!.id}/thread`;
      const question = await w.api().post(path).set(teacher.headers).send({ message: '¿Puedes revisarlo hoy? <b>gracias</b>' });
      expect(question.status).toBe(201);
      expect(question.body).toEqual({
        ok: true,
        data: { id: expect.any(Number), studentBlockId: rows[0]!.id, authorUserId: expect.any(Number), authorRole: 'teacher', authorName: null, kind: 'message', message: '¿Puedes revisarlo hoy? <b>gracias</b>', createdAt: expect.any(String) },
      });
      await w.api().post(path).set(admin).send({ message: 'Sí, esta tarde.' }).expect(201);
      const thread = await get(path, teacher.headers);
      expect(thread.body).toMatchObject({ ok: true, studentBlockId: rows[0]!.id, status: 'pending' });
      expect(thread.body.messages.map((m: { authorRole: string; message: string }) => [m.authorRole, m.message])).toEqual([
        ['teacher', '¿Puedes revisarlo hoy? <b>gracias</b>'],
        ['admin', 'Sí, esta tarde.'],
      ]);
    });

    test('empty, too long, NUL or non-text messages are 400, a 1 MB body 413; another teacher 403; unknown 404; nothing stored', async () => {
      const subject = await w.subject(['T2']);
      const teacher = await w.teacher();
      const stranger = await w.teacher();
      const { rows } = await w.pendingFirstBlock(subject, teacher);
      const path = `/api/v2/blocks/student-block/${rows[0]!.id}/thread`;
      for (const body of [{}, { message: '' }, { message: '   ' }, { message: 'x'.repeat(5001) }, { message: 'a\u0000b' }, { message: 5 }, { message: 'ok', extra: 1 }]) {
        expect((await w.api().post(path).set(teacher.headers).send(body)).status).toBe(400);
      }
      const huge = await w.api().post(path).set(teacher.headers).send({ message: 'x'.repeat(1024 * 1024) });
      expect(huge.status).toBe(413);
      expect((await w.api().post(path).set(stranger.headers).send({ message: 'hola' })).status).toBe(403);
      expect((await get(path, stranger.headers)).status).toBe(403);
      expect((await get(path, {})).status).toBe(401);
      expect((await get('/api/v2/blocks/student-block/2000000000/thread')).body.code).toBe('STUDENT_BLOCK_NOT_FOUND');
      expect((await get('/api/v2/blocks/student-block/1e3/thread')).body.code).toBe('STUDENT_BLOCK_ID_REQUIRED');
      expect((await get(path, teacher.headers)).body.messages).toEqual([]);
      expect((await w.api().post(path).set(teacher.headers).send({ message: 'x'.repeat(5000) })).status).toBe(201);
    });
  });

  describe('GET /api/v2/blocks/grades/:studentId/:subjectId', () => {
    test('every block of the subject in order with status and grade, and the average of the graded ones', async () => {
      const subject = await w.subject(['G1', 'G2', 'G3']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      await w.review(rows[0]!.id, { action: 'approve' }).expect(200);
      await w.close(subject.blockIds[1]!, { studentId, grade: 7.33 }, teacher.headers).expect(200);
      const grades = await get(`/api/v2/blocks/grades/${studentId}/${subject.subjectId}`, teacher.headers);
      expect(grades.status).toBe(200);
      expect(grades.body).toMatchObject({ ok: true, studentId, subjectId: subject.subjectId, gradedCount: 2, average: 7.92 });
      expect(grades.body.blocks.map((b: { blockName: string; status: string; grade: number | null }) => [b.blockName, b.status, b.grade])).toEqual([
        ['G1', 'closed', 8.5],
        ['G2', 'pending', 7.33],
        ['G3', 'blocked', null],
      ]);
    });

    test('no grades: average null; unknown student or subject 404; not registered 404; another teacher 403; bad ids 400', async () => {
      const subject = await w.subject(['H1']);
      const teacher = await w.teacher();
      const stranger = await w.teacher();
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      expect((await get(`/api/v2/blocks/grades/${studentId}/${subject.subjectId}`)).body).toMatchObject({ gradedCount: 0, average: null });
      expect((await get(`/api/v2/blocks/grades/2000000000/${subject.subjectId}`)).body.code).toBe('STUDENT_NOT_FOUND');
      expect((await get(`/api/v2/blocks/grades/${studentId}/2000000000`)).body.code).toBe('SUBJECT_NOT_FOUND');
      const unregistered = await w.student();
      expect((await get(`/api/v2/blocks/grades/${unregistered}/${subject.subjectId}`)).body.code).toBe('STUDENT_BLOCK_NOT_FOUND');
      expect((await get(`/api/v2/blocks/grades/${studentId}/${subject.subjectId}`, stranger.headers)).status).toBe(403);
      expect((await get(`/api/v2/blocks/grades/abc/${subject.subjectId}`)).body.code).toBe('STUDENT_ID_REQUIRED');
      expect((await get(`/api/v2/blocks/grades/${studentId}/0`)).body.code).toBe('SUBJECT_ID_REQUIRED');
      expect((await get(`/api/v2/blocks/grades/${studentId}/${subject.subjectId}`, {})).status).toBe(401);
    });
  });
});
