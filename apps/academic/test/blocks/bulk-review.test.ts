import { describe, expect, test } from '@jest/globals';
import { admin, useAcademic, user } from '../support.ts';
import { blockWorld } from './blocks-support.ts';

describe('POST /api/v2/blocks/review and GET /api/v2/blocks/pending/count', () => {
  const { service, f } = useAcademic();
  const w = blockWorld(service, f);
  const bulk = (body: unknown, headers: Record<string, string> = admin, extra: Record<string, string> = {}) =>
    w.api().post('/api/v2/blocks/review').set(headers).set(extra).send(body as object);
  const count = (query = '') => w.api().get(`/api/v2/blocks/pending/count${query}`).set(admin);

  /** `n` students of one teacher, each with the first block of a two-block subject pending. */
  async function pendingBlocks(n: number) {
    const subject = await w.subject(['P1', 'P2']);
    const teacher = await w.teacher();
    const students: { studentId: number; pendingId: number; nextId: number }[] = [];
    for (let i = 0; i < n; i++) {
      const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
      students.push({ studentId, pendingId: rows[0]!.id, nextId: rows[1]!.id });
    }
    return { subject, students };
  }

  test('a mix of valid, already reviewed and unknown items: 200, each outcome in order, the valid ones applied with their events', async () => {
    const { subject, students } = await pendingBlocks(4);
    const [a, b, c, d] = students;
    await w.setStatus(c!.pendingId, 'closed');
    const response = await bulk({
      items: [
        { studentBlockId: d!.pendingId, action: 'reject', reason: 'Redo exercise 3' },
        { studentBlockId: a!.pendingId, action: 'approve', grade: 9.25 },
        { studentBlockId: 99_999_999, action: 'approve' },
        { studentBlockId: c!.pendingId, action: 'approve' },
        { studentBlockId: b!.pendingId, action: 'approve' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ok: true,
      reviewed: 3,
      failed: 2,
      results: [
        { studentBlockId: d!.pendingId, ok: true },
        { studentBlockId: a!.pendingId, ok: true },
        { studentBlockId: 99_999_999, ok: false, code: 'STUDENT_BLOCK_NOT_FOUND', message: 'Student block not found' },
        { studentBlockId: c!.pendingId, ok: false, code: 'INVALID_STATUS_FOR_REVIEW', message: 'Only pending blocks can be reviewed; this block is closed' },
        { studentBlockId: b!.pendingId, ok: true },
      ],
    });
    expect(await w.statuses(a!.studentId, subject.subjectId)).toEqual(['closed', 'open']);
    expect(await w.statuses(b!.studentId, subject.subjectId)).toEqual(['closed', 'open']);
    expect(await w.statuses(d!.studentId, subject.subjectId)).toEqual(['open', 'blocked']);
    const [approvedA] = await w.outbox('block.approved', a!.pendingId);
    expect(approvedA!.envelope.data).toMatchObject({ grade: 9.25, studentBlockId: a!.pendingId });
    expect(await w.outbox('block.approved', b!.pendingId)).toHaveLength(1);
    expect(await w.outbox('block.approved', c!.pendingId)).toHaveLength(0);
    expect((await w.outbox('block.rejected', d!.pendingId)).map((row) => row.envelope.data.reason)).toEqual(['Redo exercise 3']);
  });

  test.each([
    ['no items', { items: [] }, 'items'],
    ['101 items', { items: Array.from({ length: 101 }, (_, i) => ({ studentBlockId: i + 1, action: 'approve' })) }, 'items'],
    ['a duplicate id', { items: [{ studentBlockId: 'X', action: 'approve' }, { studentBlockId: 'X', action: 'reject' }] }, 'items.1.studentBlockId'],
    ['an unknown action', { items: [{ studentBlockId: 'X', action: 'accept' }] }, 'items.0.action'],
    ['a grade with a reject', { items: [{ studentBlockId: 'X', action: 'reject', grade: 5 }] }, 'items.0.grade'],
    ['a grade out of range', { items: [{ studentBlockId: 'X', action: 'approve', grade: 11 }] }, 'items.0.grade'],
    ['a field it does not take', { items: [{ studentBlockId: 'X', action: 'approve', status: 'closed' }] }, 'status'],
  ])('%s: 400 naming the field, nothing changed', async (_case, template, field) => {
    const { subject, students } = await pendingBlocks(1);
    const id = students[0]!.pendingId;
    const body = JSON.parse(JSON.stringify(template).replaceAll('"X"', String(id)));
    const response = await bulk(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(response.body)).toContain(field);
    expect(await w.statuses(students[0]!.studentId, subject.subjectId)).toEqual(['pending', 'blocked']);
    expect(await w.outbox('block.approved', id)).toHaveLength(0);
  });

  test('a non-admin is 401 and nothing changes', async () => {
    const { subject, students } = await pendingBlocks(1);
    const response = await bulk({ items: [{ studentBlockId: students[0]!.pendingId, action: 'approve' }] }, user);
    expect(response.status).toBe(401);
    expect(await w.statuses(students[0]!.studentId, subject.subjectId)).toEqual(['pending', 'blocked']);
  });

  test('20 concurrent bulk requests on overlapping items, with single reviews racing: each block approved once (one event, one unlock)', async () => {
    const { subject, students } = await pendingBlocks(6);
    const ids = students.map((student) => student.pendingId);
    const requests = Array.from({ length: 20 }, (_, i) => {
      // Each request names 3 of the 6 blocks, in a rotating order, so every block is in several requests.
      const mine = [ids[i % 6]!, ids[(i + 2) % 6]!, ids[(i + 4) % 6]!].sort(() => (i % 2 ? 1 : -1));
      return bulk({ items: mine.map((studentBlockId) => ({ studentBlockId, action: 'approve' })) });
    });
    const singles = ids.map((id) => w.review(id, { action: 'approve' }));
    const answers = await Promise.all(requests);
    const singleAnswers = await Promise.all(singles);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const wins = new Map<number, number>();
    for (const result of answers.flatMap((answer) => answer.body.results as { studentBlockId: number; ok: boolean; code?: string }[])) {
      if (result.ok) wins.set(result.studentBlockId, (wins.get(result.studentBlockId) ?? 0) + 1);
      else expect(result.code).toBe('INVALID_STATUS_FOR_REVIEW');
    }
    for (const answer of singleAnswers) if (answer.status === 200) wins.set(answer.body.studentBlockId, (wins.get(answer.body.studentBlockId) ?? 0) + 1);
    expect(ids.map((id) => wins.get(id))).toEqual(Array(6).fill(1));
    for (const student of students) {
      expect(await w.outbox('block.approved', student.pendingId)).toHaveLength(1);
      expect(await w.statuses(student.studentId, subject.subjectId)).toEqual(['closed', 'open']);
    }
  });

  test('with an Idempotency-Key: one failing item leaves the others applied, and the retry replays the answer without reviewing again', async () => {
    const { subject, students } = await pendingBlocks(2);
    const [a, b] = students;
    const body = { items: [{ studentBlockId: a!.pendingId, action: 'approve' }, { studentBlockId: 99_999_998, action: 'approve' }, { studentBlockId: b!.pendingId, action: 'reject' }] };
    const first = await bulk(body, admin, { 'idempotency-key': `bulk-${a!.pendingId}` });
    expect(first.status).toBe(200);
    expect(first.body.results.map((result: { ok: boolean }) => result.ok)).toEqual([true, false, true]);
    expect(await w.statuses(a!.studentId, subject.subjectId)).toEqual(['closed', 'open']);
    expect(await w.statuses(b!.studentId, subject.subjectId)).toEqual(['open', 'blocked']);
    const again = await bulk(body, admin, { 'idempotency-key': `bulk-${a!.pendingId}` });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await w.outbox('block.approved', a!.pendingId)).toHaveLength(1);
    expect(await w.outbox('block.rejected', b!.pendingId)).toHaveLength(1);
  });

  test('the badge counts the pending blocks, of a subject when asked; a non-admin is 401, a bad subjectId 400', async () => {
    const { subject, students } = await pendingBlocks(3);
    const before = (await count()).body.count as number;
    expect((await count(`?subjectId=${subject.subjectId}`)).body).toEqual({ ok: true, count: 3 });
    await bulk({ items: [{ studentBlockId: students[0]!.pendingId, action: 'approve' }] });
    expect((await count(`?subjectId=${subject.subjectId}`)).body).toEqual({ ok: true, count: 2 });
    expect((await count()).body.count).toBe(before - 1);
    expect((await w.api().get('/api/v2/blocks/pending/count').set(user)).status).toBe(401);
    const bad = await count('?subjectId=abc');
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  test('the pending listing: any page of a subject is the matching slice of the whole, oldest close first', async () => {
    const { subject } = await pendingBlocks(7);
    const all = await w.api().get(`/api/v2/blocks/pending?subjectId=${subject.subjectId}`).set(admin);
    const ids = (body: { byStudent: { blocks: { studentBlockId: number }[] }[] }) => body.byStudent.flatMap((group) => group.blocks.map((block) => block.studentBlockId));
    const whole = ids(all.body);
    expect(whole).toHaveLength(7);
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push(ids((await w.api().get(`/api/v2/blocks/pending?subjectId=${subject.subjectId}&limit=2&page=${page}`).set(admin)).body));
    expect(pages).toEqual([whole.slice(0, 2), whole.slice(2, 4), whole.slice(4, 6), whole.slice(6)]);
  });
});
