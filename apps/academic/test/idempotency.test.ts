import { describe, expect, test } from '@jest/globals';
import { bearer } from '@academy/testing';
import { admin, useAcademic } from './support.ts';
import { blockWorld } from './blocks/blocks-support.ts';

const otherAdmin = bearer({ role: 'admin', sub: '77' });

describe('POST /api/v2/blocks/student-block/:studentBlockId/review with an Idempotency-Key', () => {
  const { service, f } = useAcademic();
  const w = blockWorld(service, f);

  /** A student block closed by its teacher, waiting for review. */
  async function pendingBlock() {
    const subject = await w.subject(['One', 'Two']);
    const teacher = await w.teacher();
    const { studentId, rows } = await w.pendingFirstBlock(subject, teacher);
    return { studentId, subjectId: subject.subjectId, studentBlockId: rows[0]!.id };
  }
  const review = (studentBlockId: number, key: string, body: Record<string, unknown> = { action: 'approve' }, headers = admin) =>
    w.api().post(`/api/v2/blocks/student-block/${studentBlockId}/review`).set(headers).set('Idempotency-Key', key).send(body);
  const keysNamed = async (key: string) => (await f.query<{ n: number }>('select count(*)::int as n from idempotency_keys where key = ?', [key]))[0]!.n;

  test('a retry after the first commit answers the same body, replayed: the block is approved and its event recorded once', async () => {
    const { studentId, subjectId, studentBlockId } = await pendingBlock();
    const first = await review(studentBlockId, 'ac-retry');
    const again = await review(studentBlockId, 'ac-retry');

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await w.statuses(studentId, subjectId)).toEqual(['closed', 'open']);
    expect(await w.outbox('block.approved', studentBlockId)).toHaveLength(1);
  });

  test("a keyed rejection is recorded in the review's own statement (the key's answer is its row), and its retry answers the same body, replayed", async () => {
    const { studentId, subjectId, studentBlockId } = await pendingBlock();
    const first = await review(studentBlockId, 'ac-reject', { action: 'reject', reason: 'Falta el ejercicio 2' });
    const again = await review(studentBlockId, 'ac-reject', { action: 'reject', reason: 'Falta el ejercicio 2' });

    expect([first.status, first.body.newStatus, again.status, again.headers['idempotent-replayed']]).toEqual([200, 'open', 200, 'true']);
    expect(again.body).toEqual(first.body);
    const [stored] = await f.query<{ status: number; body: string }>('select status, body from idempotency_keys where key = ?', ['ac-reject']);
    expect([stored!.status, JSON.parse(stored!.body)]).toEqual([0, { reviewed: 1, answer: first.body }]);
    expect(await w.statuses(studentId, subjectId)).toEqual(['open', 'blocked']);
    expect(await w.outbox('block.rejected', studentBlockId)).toHaveLength(1);
    expect(await f.query('select body from student_block_messages where student_block_id = ?', [studentBlockId])).toEqual([{ body: 'Falta el ejercicio 2' }]);
  });

  test('20 concurrent approvals with one key run once: one executed, the others replayed or 409 Retry-After 1', async () => {
    const { studentBlockId } = await pendingBlock();
    const answers = await Promise.all(Array.from({ length: 20 }, () => review(studentBlockId, 'ac-race')));

    const executed = answers.filter((res) => res.status === 200 && res.headers['idempotent-replayed'] === undefined);
    expect(executed).toHaveLength(1);
    for (const res of answers.filter((answer) => answer !== executed[0])) {
      if (res.status === 409) {
        expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
        expect(res.headers['retry-after']).toBe('1');
      } else {
        expect(res.status).toBe(200);
        expect(res.headers['idempotent-replayed']).toBe('true');
      }
    }
    expect(await w.outbox('block.approved', studentBlockId)).toHaveLength(1);
  });

  test('the same key with another body is 422 naming the key, and the block keeps the first review', async () => {
    const { studentId, subjectId, studentBlockId } = await pendingBlock();
    await review(studentBlockId, 'ac-other').expect(200);
    const res = await review(studentBlockId, 'ac-other', { action: 'reject', reason: 'Incompleto' });

    expect(res.status).toBe(422);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(res.body.message).toMatch(/Idempotency-Key/);
    expect(await w.statuses(studentId, subjectId)).toEqual(['closed', 'open']);
    expect(await w.outbox('block.rejected', studentBlockId)).toHaveLength(0);
  });

  test("another administrator's equal key is their own: their review runs (and finds the block already reviewed)", async () => {
    const { studentBlockId } = await pendingBlock();
    const first = await review(studentBlockId, 'ac-shared');
    const other = await review(studentBlockId, 'ac-shared', { action: 'approve' }, otherAdmin);

    expect(first.status).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.status).not.toBe(200);
    expect(other.body).not.toEqual(first.body);
    expect(await w.outbox('block.approved', studentBlockId)).toHaveLength(1);
  });

  test('a review whose transaction rolls back (a 5xx) leaves no key, no change and no event, and its retry runs', async () => {
    const { studentId, subjectId, studentBlockId } = await pendingBlock();
    await f.query(
      `create function fail_review_${studentBlockId}() returns trigger language plpgsql as $$
       begin if new.id = ${studentBlockId} and new.status = 'closed' then raise exception 'injected fault'; end if; return new; end $$`,
    );
    await f.query(`create trigger fail_review_${studentBlockId} before update on student_blocks for each row execute function fail_review_${studentBlockId}()`);
    const failed = await review(studentBlockId, 'ac-rollback');
    await f.query(`drop trigger fail_review_${studentBlockId} on student_blocks`);

    expect(failed.status).toBe(500);
    expect(await keysNamed('ac-rollback')).toBe(0);
    expect(await w.statuses(studentId, subjectId)).toEqual(['pending', 'blocked']);
    expect(await w.outbox('block.approved', studentBlockId)).toHaveLength(0);

    const retried = await review(studentBlockId, 'ac-rollback');
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await w.statuses(studentId, subjectId)).toEqual(['closed', 'open']);
  });
});
