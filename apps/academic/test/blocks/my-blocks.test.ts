import { describe, expect, test } from '@jest/globals';
import { bearer } from '@academy/testing';
import { useAcademic } from '../support.ts';
import { blockWorld } from './blocks-support.ts';

describe('GET /api/v2/blocks/mine (a teacher\'s blocks, the console\'s Blocks)', () => {
  const { service, f } = useAcademic();
  const w = blockWorld(service, f);
  const mine = (headers: Record<string, string>, query = '') => w.api().get(`/api/v2/blocks/mine${query}`).set(headers);

  test("lists the open, pending and rejected blocks of the caller's students only, with the last rejection's reason; a subject filter", async () => {
    const math = await w.subject(['M1', 'M2', 'M3']);
    const art = await w.subject(['A1', 'A2']);
    const marta = await w.teacher(null, 'Marta');
    const other = await w.teacher(null, 'Otro');
    const ana = await w.student({ name: 'Ana' });
    const bea = await w.student({ name: 'Bea' });
    await w.enrol(ana, math.subjectId, marta.employeeId);
    await w.enrol(bea, math.subjectId, marta.employeeId);
    await w.enrol(ana, art.subjectId, other.employeeId);

    // Ana's M1 closed by Marta and rejected twice (the reason shown is the last one); Bea's M1 closed: pending.
    const [anaM1] = await w.studentBlocks(ana, math.subjectId);
    await w.close(math.blockIds[0]!, { studentId: ana, grade: 4 }, marta.headers).expect(200);
    await w.review(anaM1!.id, { action: 'reject', reason: 'Falta el ejercicio 3' }).expect(200);
    await w.close(math.blockIds[0]!, { studentId: ana, grade: 5 }, marta.headers).expect(200);
    await w.review(anaM1!.id, { action: 'reject', reason: 'Sigue faltando el 3' }).expect(200);
    await w.close(math.blockIds[0]!, { studentId: bea, grade: 7.5 }, marta.headers).expect(200);

    const answer = await mine(marta.headers);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, total: 2, schoolCourseId: expect.any(Number) });
    expect(answer.body.blocks).toEqual([
      expect.objectContaining({ studentId: ana, studentBlockId: anaM1!.id, blockId: math.blockIds[0], position: 1, subjectId: math.subjectId, state: 'rejected', status: 'open', grade: 5, rejectedAt: expect.any(String), rejectionReason: 'Sigue faltando el 3' }),
      expect.objectContaining({ studentId: bea, blockId: math.blockIds[0], state: 'pending', status: 'pending', grade: 7.5, closedAt: expect.any(String), rejectionReason: null }),
    ]);
    // Blocked blocks (M2, M3) and the other teacher's student (Ana's art) are not Marta's to act on.
    const others = await mine(other.headers);
    expect(others.body.blocks.map((b: { studentId: number; blockId: number; state: string }) => [b.studentId, b.blockId, b.state])).toEqual([[ana, art.blockIds[0], 'open']]);
    expect((await mine(marta.headers, `?subjectId=${art.subjectId}`)).body).toMatchObject({ total: 0, blocks: [] });
    expect((await mine(marta.headers, `?subjectId=${math.subjectId}`)).body.total).toBe(2);
  });

  test('a block the teacher closes moves from open to pending', async () => {
    const subject = await w.subject(['B1', 'B2']);
    const teacher = await w.teacher(null, 'Luis');
    const leo = await w.student({ name: 'Leo' });
    await w.enrol(leo, subject.subjectId, teacher.employeeId);
    expect((await mine(teacher.headers)).body.blocks.map((b: { state: string }) => b.state)).toEqual(['open']);
    await w.close(subject.blockIds[0]!, { studentId: leo, grade: 9 }, teacher.headers).expect(200);
    expect((await mine(teacher.headers)).body.blocks).toEqual([expect.objectContaining({ blockId: subject.blockIds[0], state: 'pending', grade: 9 })]);
  });

  test('a cancelled registration takes its blocks off the list', async () => {
    const subject = await w.subject(['C1']);
    const teacher = await w.teacher(null, 'Eva');
    const registrationId = await w.enrol(await w.student(), subject.subjectId, teacher.employeeId);
    expect((await mine(teacher.headers)).body.total).toBe(1);
    await f.query(`update registrations set status = 'cancelled' where id = ?`, [registrationId]);
    expect((await mine(teacher.headers)).body).toMatchObject({ total: 0, blocks: [] });
  });

  test('a user who is not an employee is refused 403; a bad subject id is a 400; no token is a 401', async () => {
    const notEmployee = await mine(bearer({ role: 'user', sub: '4242' }));
    expect([notEmployee.status, notEmployee.body.code]).toEqual([403, 'FORBIDDEN']);
    const bad = await mine(bearer({ role: 'user', sub: '4243', employeeId: 7 }), '?subjectId=abc');
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await w.api().get('/api/v2/blocks/mine')).status).toBe(401);
  });
});
