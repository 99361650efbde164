import { describe, expect, test } from '@jest/globals';
import { bearer, tokenFor } from '@academy/testing';
import { admin, useAcademic, user } from '../support.ts';
import { blockWorld } from './blocks-support.ts';

describe('student blocks: creation, close, review', () => {
  const { service, f } = useAcademic();
  const w = blockWorld(service, f);

  describe('creation', () => {
    test('registering a student in a subject gives them every block: the first open, the others blocked', async () => {
      const subject = await w.subject(['Intro', 'Middle', 'End']);
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, null);
      const rows = await w.studentBlocks(studentId, subject.subjectId);
      expect(rows.map((row) => [row.blockId, row.status, row.grade])).toEqual([
        [subject.blockIds[0], 'open', null],
        [subject.blockIds[1], 'blocked', null],
        [subject.blockIds[2], 'blocked', null],
      ]);
    });

    test('a second registration in the same subject (another course) creates nothing twice and keeps the progress', async () => {
      const subject = await w.subject(['One', 'Two']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      const otherCourse = await f.course('2024-09-01');
      const { centerId } = await w.coursePlace();
      const again = await w.api().post('/api/v2/registrations').set(admin).send({ studentId, subjectId: subject.subjectId, schoolCourseId: otherCourse, centerId });
      expect(again.status).toBe(201);
      expect(await w.studentBlocks(studentId, subject.subjectId)).toEqual(rows);
    });

    test('a subject gaining a block: a student who closed every earlier block gets it open, the others blocked', async () => {
      const subject = await w.subject(['First']);
      const teacher = await w.teacher();
      const done = await w.pendingFirstBlock(subject, teacher);
      expect((await w.review(done.rows[0]!.id, { action: 'approve' })).body.subjectCompleted).toBe(true);
      const behind = await w.student();
      await w.enrol(behind, subject.subjectId, teacher.employeeId);

      const updated = await w.api().patch(`/api/v2/subjects/${subject.subjectId}`).set(admin).send({ blocks: ['First', 'Second'] });
      expect(updated.status).toBe(200);
      expect(await w.statuses(done.studentId, subject.subjectId)).toEqual(['closed', 'open']);
      expect(await w.statuses(behind, subject.subjectId)).toEqual(['open', 'blocked']);
    });

    test('a block in use cannot be removed from its subject: 409, nothing changed', async () => {
      const subject = await w.subject(['Keep', 'In use']);
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, null);
      const shrunk = await w.api().patch(`/api/v2/subjects/${subject.subjectId}`).set(admin).send({ blocks: ['Keep'] });
      expect(shrunk.status).toBe(409);
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['open', 'blocked']);
    });
  });

  describe('POST /api/v2/blocks/:blockId/close', () => {
    test('the teacher closes an open block: pending with grade, teacher and time, and block.closed in the outbox', async () => {
      const subject = await w.subject();
      const teacher = await w.teacher();
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      const [first] = await w.studentBlocks(studentId, subject.subjectId);
      const closed = await w.close(subject.blockIds[0]!, { studentId, grade: 7.25 }, teacher.headers);
      expect(closed.status).toBe(200);
      expect(closed.body).toEqual({
        ok: true,
        studentBlockId: first!.id,
        blockId: subject.blockIds[0],
        studentId,
        previousStatus: 'open',
        newStatus: 'pending',
        grade: 7.25,
        closedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      });
      expect((await w.studentBlocks(studentId, subject.subjectId))[0]).toMatchObject({ status: 'pending', grade: 7.25, employeeId: teacher.employeeId });
      const events = await w.outbox('block.closed', first!.id);
      expect(events.map((e) => e.envelope.data)).toEqual([
        { studentBlockId: first!.id, blockId: subject.blockIds[0], studentId, employeeId: teacher.employeeId, grade: 7.25, closedAt: closed.body.closedAt },
      ]);
    });

    test('an admin may close for a student, on behalf of the registration teacher; the grade may be omitted', async () => {
      const subject = await w.subject();
      const teacher = await w.teacher();
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      const closed = await w.close(subject.blockIds[0]!, { studentId });
      expect(closed.status).toBe(200);
      expect(closed.body.grade).toBeNull();
      expect((await w.studentBlocks(studentId, subject.subjectId))[0]).toMatchObject({ status: 'pending', employeeId: teacher.employeeId });
    });

    test('a blocked, pending or closed block cannot be closed: 400 INVALID_STATUS_FOR_CLOSE naming the status, nothing changed', async () => {
      const subject = await w.subject(['A', 'B']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      const blocked = await w.close(subject.blockIds[1]!, { studentId, grade: 5 }, teacher.headers);
      expect(blocked.status).toBe(400);
      expect(blocked.body).toMatchObject({ code: 'INVALID_STATUS_FOR_CLOSE', message: expect.stringContaining('blocked') });
      const pending = await w.close(subject.blockIds[0]!, { studentId, grade: 2 }, teacher.headers);
      expect(pending.status).toBe(400);
      expect(pending.body).toMatchObject({ code: 'INVALID_STATUS_FOR_CLOSE', message: expect.stringContaining('pending') });
      await w.review(rows[0]!.id, { action: 'approve' });
      const closedAgain = await w.close(subject.blockIds[0]!, { studentId }, teacher.headers);
      expect(closedAgain.body).toMatchObject({ code: 'INVALID_STATUS_FOR_CLOSE', message: expect.stringContaining('closed') });
      expect((await w.studentBlocks(studentId, subject.subjectId))[0]).toMatchObject({ status: 'closed', grade: 8.5 });
      expect(await w.outbox('block.closed', rows[0]!.id)).toHaveLength(1);
    });

    test('bad grades, a bad block id, a missing student: 400; nothing changed', async () => {
      const subject = await w.subject();
      const teacher = await w.teacher();
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      for (const grade of [11, -1, 7.123, '7', true]) {
        const refused = await w.close(subject.blockIds[0]!, { studentId, grade }, teacher.headers);
        expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR']);
      }
      expect((await w.close(subject.blockIds[0]!, { grade: 5 }, teacher.headers)).status).toBe(400);
      expect((await w.close(subject.blockIds[0]!, { studentId: 'x' }, teacher.headers)).status).toBe(400);
      expect((await w.close(subject.blockIds[0]!, { studentId, extra: 1 }, teacher.headers)).status).toBe(400);
      for (const blockId of ['abc', '0', '-3', '1.5', '1e3']) {
        const refused = await w.api().post(`/api/v2/blocks/${blockId}/close`).set(teacher.headers).send({ studentId });
        expect([refused.status, refused.body.code]).toEqual([400, 'BLOCK_ID_REQUIRED']);
      }
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['open', 'blocked', 'blocked']);
    });

    test("another teacher's student is 403, a user who is no employee is 403, an unknown block or a student without it is 404", async () => {
      const subject = await w.subject();
      const teacher = await w.teacher();
      const stranger = await w.teacher();
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      const foreign = await w.close(subject.blockIds[0]!, { studentId, grade: 5 }, stranger.headers);
      expect([foreign.status, foreign.body.code]).toEqual([403, 'FORBIDDEN']);
      expect((await w.close(subject.blockIds[0]!, { studentId }, bearer({ role: 'user', sub: '77' }))).status).toBe(403);
      expect((await w.close(2_000_000_000, { studentId })).body.code).toBe('BLOCK_NOT_FOUND');
      const unregistered = await w.student();
      const missing = await w.close(subject.blockIds[0]!, { studentId: unregistered });
      expect([missing.status, missing.body.code]).toEqual([404, 'STUDENT_BLOCK_NOT_FOUND']);
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['open', 'blocked', 'blocked']);
    });

    test('a cancelled registration no longer makes its teacher the student teacher', async () => {
      const subject = await w.subject();
      const teacher = await w.teacher();
      const studentId = await w.student();
      const registrationId = await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      await w.api().patch(`/api/v2/registrations/${registrationId}`).set(admin).send({ status: 'cancelled' }).expect(200);
      expect((await w.close(subject.blockIds[0]!, { studentId }, teacher.headers)).status).toBe(403);
    });
  });

  describe('POST /api/v2/blocks/student-block/:studentBlockId/review', () => {
    test('approve: pending → closed, the next block opens, one block.approved with the names', async () => {
      const subject = await w.subject(['Números', 'Álgebra', 'Geometría']);
      const teacher = await w.teacher('ana.ruiz@academy.test');
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher, { email: 'leo@example.com' });
      const approved = await w.review(rows[0]!.id, { action: 'approve' });
      expect(approved.status).toBe(200);
      expect(approved.body).toEqual({
        ok: true,
        studentBlockId: rows[0]!.id,
        blockId: subject.blockIds[0],
        studentId,
        previousStatus: 'pending',
        newStatus: 'closed',
        action: 'approve',
        nextBlockUnlocked: true,
        message: expect.stringMatching(/closed.*Álgebra.*open/),
      });
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['closed', 'open', 'blocked']);
      const events = await w.outbox('block.approved', rows[0]!.id);
      expect(events).toHaveLength(1);
      expect(events[0]!.envelope.data).toEqual({
        studentBlockId: rows[0]!.id,
        blockId: subject.blockIds[0],
        blockName: 'Números',
        subjectId: subject.subjectId,
        subjectName: expect.any(String),
        studentId,
        grade: 8.5,
        nextBlock: { blockId: subject.blockIds[1], blockName: 'Álgebra' },
        subjectCompleted: false,
        teacher: { name: 'Ana Ruiz', email: 'ana.ruiz@academy.test' },
        student: { name: expect.stringMatching(/^Leo Gil/), email: 'leo@example.com' },
        guardian: null,
      });
    });

    test('approve of the last block: subjectCompleted, no next block', async () => {
      const subject = await w.subject(['Only']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      const approved = await w.review(rows[0]!.id, { action: 'approve' });
      expect(approved.body).toMatchObject({ newStatus: 'closed', subjectCompleted: true, message: expect.stringContaining('completed') });
      expect(approved.body).not.toHaveProperty('nextBlockUnlocked');
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['closed']);
      const [event] = await w.outbox('block.approved', rows[0]!.id);
      expect(event!.envelope.data).toMatchObject({ nextBlock: null, subjectCompleted: true });
    });

    test.each([
      ['a guardian and a valid student e-mail: both', { email: 'kid@example.com', guardian: { name: 'Eva', email: 'eva@example.com' } }, 'kid@example.com', { name: 'Eva Tutor', email: 'eva@example.com' }],
      ['a guardian and a placeholder e-mail: the guardian only', { email: 'sin-email-77@placeholder.invalid', guardian: { name: 'Eva', email: 'eva@example.com' } }, null, { name: 'Eva Tutor', email: 'eva@example.com' }],
      ['no guardian and a valid e-mail: the student only', { email: 'kid@example.com', guardian: null }, 'kid@example.com', null],
      ['no guardian and no e-mail: neither', { email: null, guardian: null }, null, null],
    ])('the event names the recipients: %s', async (_case, student, studentEmail, guardian) => {
      const subject = await w.subject(['X', 'Y']);
      const teacher = await w.teacher(null);
      const { rows } = await w.pendingFirstBlock(subject, teacher, student);
      await w.review(rows[0]!.id, { action: 'approve' }).expect(200);
      const events = await w.outbox('block.approved', rows[0]!.id);
      expect(events).toHaveLength(1);
      expect(events[0]!.envelope.data).toMatchObject({ student: { email: studentEmail }, guardian, teacher: null });
    });

    test('reject: pending → open, the reason is the admin message in the thread and on block.rejected; nothing else opens', async () => {
      const subject = await w.subject(['P', 'Q']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      const rejected = await w.review(rows[0]!.id, { action: 'reject', reason: 'Faltan los ejercicios 3 y 4' });
      expect(rejected.status).toBe(200);
      expect(rejected.body).toEqual({
        ok: true,
        studentBlockId: rows[0]!.id,
        blockId: subject.blockIds[0],
        studentId,
        previousStatus: 'pending',
        newStatus: 'open',
        action: 'reject',
        message: expect.stringContaining('open'),
      });
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['open', 'blocked']);
      const thread = await w.api().get(`/api/v2/blocks/student-block/${rows[0]!.id}/thread`).set(teacher.headers);
      expect(thread.body.messages).toEqual([expect.objectContaining({ authorRole: 'admin', kind: 'rejection', message: 'Faltan los ejercicios 3 y 4' })]);
      const events = await w.outbox('block.rejected', rows[0]!.id);
      expect(events.map((e) => e.envelope.data)).toEqual([
        { studentBlockId: rows[0]!.id, blockId: subject.blockIds[0], studentId, employeeId: teacher.employeeId, reason: 'Faltan los ejercicios 3 y 4', rejectedAt: expect.any(String) },
      ]);
      expect(await w.outbox('block.approved', rows[0]!.id)).toHaveLength(0);
      // Back with the teacher: closed again, it can be approved.
      expect((await w.close(subject.blockIds[0]!, { studentId, grade: 9 }, teacher.headers)).status).toBe(200);
      expect((await w.review(rows[0]!.id, { action: 'approve' })).body.nextBlockUnlocked).toBe(true);
    });

    test('the state table: only pending can be reviewed; open, blocked and closed answer 400 INVALID_STATUS_FOR_REVIEW and change nothing', async () => {
      const subject = await w.subject(['S1', 'S2']);
      const teacher = await w.teacher();
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      const rows = await w.studentBlocks(studentId, subject.subjectId);
      for (const [row, status] of [
        [rows[0]!, 'open'],
        [rows[1]!, 'blocked'],
      ] as const) {
        for (const action of ['approve', 'reject']) {
          const refused = await w.review(row.id, { action });
          expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_STATUS_FOR_REVIEW']);
          expect(refused.body.message).toContain(status);
        }
      }
      await w.setStatus(rows[0]!.id, 'closed');
      expect((await w.review(rows[0]!.id, { action: 'reject' })).body.code).toBe('INVALID_STATUS_FOR_REVIEW');
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['closed', 'blocked']);
      expect(await w.outbox('block.approved', rows[0]!.id)).toHaveLength(0);
      expect(await w.outbox('block.rejected', rows[0]!.id)).toHaveLength(0);
    });

    test('bad ids are 400 STUDENT_BLOCK_ID_REQUIRED, bad actions 400 INVALID_ACTION, an unknown id 404 STUDENT_BLOCK_NOT_FOUND', async () => {
      const subject = await w.subject(['Z']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      for (const id of ['abc', '0', '-3', '1.5', '1e3']) {
        const refused = await w.review(id, { action: 'approve' });
        expect([id, refused.status, refused.body.code]).toEqual([id, 400, 'STUDENT_BLOCK_ID_REQUIRED']);
      }
      const missingId = await w.api().post('/api/v2/blocks/student-block//review').set(admin).send({ action: 'approve' });
      expect([missingId.status, missingId.body.code]).toEqual([400, 'STUDENT_BLOCK_ID_REQUIRED']);
      for (const body of [{}, { action: 'APPROVE' }, { action: 7 }, { action: null }]) {
        const refused = await w.review(rows[0]!.id, body);
        expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_ACTION']);
      }
      expect((await w.review(rows[0]!.id, { action: 'reject', reason: 'x'.repeat(5001) })).status).toBe(400);
      expect((await w.review(rows[0]!.id, { action: 'reject', reason: 42 })).status).toBe(400);
      const unknown = await w.review(2_000_000_000, { action: 'approve' });
      expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([404, 'STUDENT_BLOCK_NOT_FOUND', 'Student block not found']);
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['pending']);
    });

    test('401 UNAUTHORIZED for no token, an expired token and a non-admin; nothing changed', async () => {
      const subject = await w.subject(['R']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      const expired = { authorization: `Bearer ${tokenFor({ role: 'admin' }, -60)}` };
      for (const headers of [{}, expired, teacher.headers, user]) {
        const refused = await w.review(rows[0]!.id, { action: 'approve' }, headers);
        expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHORIZED']);
      }
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['pending']);
    });

    test('20 concurrent approvals of one block: exactly one succeeds, the others 400 INVALID_STATUS_FOR_REVIEW; one event, the next block opened once', async () => {
      const subject = await w.subject(['C1', 'C2', 'C3']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => w.review(rows[0]!.id, { action: i % 2 === 0 ? 'approve' : 'reject', reason: 'race' })));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, ...Array(19).fill(400)]);
      expect(answers.filter((answer) => answer.status === 400).every((answer) => answer.body.code === 'INVALID_STATUS_FOR_REVIEW')).toBe(true);
      const winner = answers.find((answer) => answer.status === 200)!.body;
      const approvedEvents = await w.outbox('block.approved', rows[0]!.id);
      const rejectedEvents = await w.outbox('block.rejected', rows[0]!.id);
      expect(approvedEvents.length + rejectedEvents.length).toBe(1);
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(winner.action === 'approve' ? ['closed', 'open', 'blocked'] : ['open', 'blocked', 'blocked']);
    });

    test('20 concurrent approvals only: one success, one block.approved, the next block unlocked once', async () => {
      const subject = await w.subject(['D1', 'D2']);
      const teacher = await w.teacher();
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      const answers = await Promise.all(Array.from({ length: 20 }, () => w.review(rows[0]!.id, { action: 'approve' })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 400 && answer.body.code === 'INVALID_STATUS_FOR_REVIEW')).toHaveLength(19);
      expect(await w.outbox('block.approved', rows[0]!.id)).toHaveLength(1);
      expect(await w.statuses(studentId, subject.subjectId)).toEqual(['closed', 'open']);
      const [{ updates }] = await f.query<{ updates: number }>(`select count(*)::int as updates from student_blocks where id = ? and status = 'open'`, [rows[1]!.id]);
      expect(updates).toBe(1);
    });
  });
});
