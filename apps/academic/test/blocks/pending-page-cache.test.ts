import { describe, expect, jest, test } from '@jest/globals';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { admin, em, useAcademic } from '../support.ts';
import { selectPendingPageJson } from '../../src/blocks/blocks.store.ts';
import { blockWorld } from './blocks-support.ts';

// The pending queue's pages are kept in the instance's memory under the queue's version
// (`listing_versions` row `pending_blocks`), which the database bumps at the commit of every change
// to what the queue shows. Each test: a page answered (and kept), a write, and the next answer must be
// the page as the database gives it now, not the one kept.
describe('the pending queue page cache (in memory, keyed by the version the database keeps)', () => {
  const { service, f } = useAcademic();
  const w = blockWorld(service, f);
  const version = async () => Number((await f.query<{ version: string }>(`select version from listing_versions where name = 'pending_blocks'`))[0].version);

  /** A subject of three blocks and a teacher; two students with their first block pending. */
  async function queue() {
    const teacher = await w.teacher();
    const subject = await w.subject(['C1', 'C2', 'C3']);
    const first = await w.pendingFirstBlock(subject, teacher);
    const second = await w.pendingFirstBlock(subject, teacher);
    return { teacher, subject, first, second };
  }
  const query = (subjectId: number) => `/api/v2/blocks/pending?subjectId=${subjectId}&limit=50`;
  const page = async (subjectId: number) => {
    const answer = await w.api().get(query(subjectId)).set(admin);
    expect(answer.status).toBe(200);
    return answer.body as { total: number; byStudent: { studentId: number; studentName: string; blocks: { studentBlockId: number; blockName: string; subjectName: string; grade: number | null; employeeName: string }[] }[] };
  };
  /** The page as the database gives it now, without the cache. */
  const fresh = async (subjectId: number) => JSON.parse(await selectPendingPageJson(em(service()), { subjectId, limit: 50 }));
  /** Answers the page twice (the second from the cache), runs `write`, and returns the page after it, checked against the database. */
  async function afterWrite(subjectId: number, write: () => Promise<unknown>) {
    const before = await page(subjectId);
    expect(await page(subjectId)).toEqual(before);
    const versionBefore = await version();
    await write();
    const after = await page(subjectId);
    expect(after).toEqual(await fresh(subjectId));
    expect(await version()).toBeGreaterThan(versionBefore);
    return { before, after };
  }

  /**
   * The statements of the pending queue (its version, its page) `ask` sends through the service's
   * pool, as `version`, `page` or `both` (one statement reading the two).
   */
  async function statementsOf(ask: () => Promise<unknown>): Promise<string[]> {
    const pool = (await (service().ctx.orm.em.getConnection() as PostgreSqlConnection).getNativeClient()) as unknown as Pool;
    const spy = jest.spyOn(pool, 'query');
    try {
      await ask();
      return spy.mock.calls
        .map(([config]) => (typeof config === 'string' ? config : (config as { text: string }).text))
        .filter((text) => text.includes("'pending_blocks'") || text.includes('with page as') || text.includes('count(*)::int as count'))
        .map((text) => (text.includes('count(*)::int as count') ? 'count' : text.includes('with page as') ? (text.includes("'pending_blocks'") ? 'both' : 'page') : 'version'));
    } finally {
      spy.mockRestore();
    }
  }

  test('a page never asked costs one statement (its version read in it), kept under that version; asked again it reads the version first', async () => {
    const { subject, first } = await queue();
    let kept: Awaited<ReturnType<typeof page>> | undefined;
    expect(await statementsOf(async () => (kept = await page(subject.subjectId)))).toEqual(['both']);
    expect(kept).toEqual(await fresh(subject.subjectId));
    // Kept under the version its statement read: a change the version does not see (its trigger off) is not shown.
    await f.query(`alter table student_blocks disable trigger student_blocks_pending_blocks_version_update`);
    try {
      await f.query(`update student_blocks set grade = 3 where id = ?`, [first.rows[0]!.id]);
    } finally {
      await f.query(`alter table student_blocks enable trigger student_blocks_pending_blocks_version_update`);
    }
    expect(await statementsOf(async () => expect(await page(subject.subjectId)).toEqual(kept))).toEqual(['version']);
    // A commit between two asks is never hidden: the query was asked before, so the version is read first, and it moved.
    await f.query(`update student_blocks set grade = 4 where id = ?`, [first.rows[0]!.id]);
    let after: Awaited<ReturnType<typeof page>> | undefined;
    expect(await statementsOf(async () => (after = await page(subject.subjectId)))).toEqual(['version', 'page']);
    expect(after).toEqual(await fresh(subject.subjectId));
    expect(after!.byStudent.flatMap((group) => group.blocks).find((block) => block.studentBlockId === first.rows[0]!.id)!.grade).toBe(4);
  });

  test("one student's whole listing (no limit) is a page of the cache: one statement never asked, then the version alone, and a commit is shown", async () => {
    const { first } = await queue();
    const listing = async () => {
      const answer = await w.api().get(`/api/v2/blocks/pending?studentId=${first.studentId}`).set(admin);
      expect(answer.status).toBe(200);
      return answer.body as { total: number; nextCursor?: unknown; byStudent: { studentId: number; blocks: { studentBlockId: number; grade: number | null }[] }[] };
    };
    const database = async () => JSON.parse(await selectPendingPageJson(em(service()), { studentId: first.studentId }));
    let kept: Awaited<ReturnType<typeof listing>> | undefined;
    expect(await statementsOf(async () => (kept = await listing()))).toEqual(['both']);
    expect(kept).toEqual(await database());
    expect(kept!.byStudent.map((group) => [group.studentId, group.blocks.map((block) => block.studentBlockId)])).toEqual([[first.studentId, [first.rows[0]!.id]]]);
    expect('nextCursor' in kept!).toBe(false);
    expect(await statementsOf(async () => expect(await listing()).toEqual(kept))).toEqual(['version']);
    await f.query(`update student_blocks set grade = 4 where id = ?`, [first.rows[0]!.id]);
    let after: Awaited<ReturnType<typeof listing>> | undefined;
    expect(await statementsOf(async () => (after = await listing()))).toEqual(['version', 'page']);
    expect(after).toEqual(await database());
    expect(after!.byStudent[0]!.blocks[0]!.grade).toBe(4);
  });

  test('the badge is kept under the queue version: asked again it reads the version alone; a close, a review, a change the version does not see', async () => {
    const { teacher, subject, first } = await queue();
    const badge = async (query = `?subjectId=${subject.subjectId}`) => {
      const answer = await w.api().get(`/api/v2/blocks/pending/count${query}`).set(admin);
      expect([answer.status, answer.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
      return answer.body as { ok: true; count: number };
    };
    let counted: { ok: true; count: number } | undefined;
    expect(await statementsOf(async () => (counted = await badge()))).toEqual(['version', 'count']);
    expect(counted).toEqual({ ok: true, count: 2 });
    expect(await statementsOf(async () => expect(await badge()).toEqual({ ok: true, count: 2 }))).toEqual(['version']);
    // The whole queue's count is another answer (another subject's block in it), and a page's key is never the badge's.
    await w.pendingFirstBlock(await w.subject(['O1']), teacher);
    const pendingNow = async () => Number((await f.query<{ n: string }>(`select count(*) as n from student_blocks where status = 'pending'`))[0].n);
    const whole = (await badge('')).count;
    expect(whole).toBe(await pendingNow());
    expect(whole).toBeGreaterThan(2);
    await page(subject.subjectId);
    expect(await badge()).toEqual({ ok: true, count: 2 });
    // Kept: a change the version does not see (its trigger off) is not counted.
    await f.query(`alter table student_blocks disable trigger student_blocks_pending_blocks_version_update`);
    try {
      await f.query(`update student_blocks set status = 'open' where id = ?`, [first.rows[0]!.id]);
      expect(await badge()).toEqual({ ok: true, count: 2 });
      await f.query(`update student_blocks set status = 'pending' where id = ?`, [first.rows[0]!.id]);
    } finally {
      await f.query(`alter table student_blocks enable trigger student_blocks_pending_blocks_version_update`);
    }
    // A review and a close move the version: the next badge counts again.
    await w.review(first.rows[0]!.id, { action: 'approve' });
    expect(await statementsOf(async () => expect(await badge()).toEqual({ ok: true, count: 1 }))).toEqual(['version', 'count']);
    expect((await badge('')).count).toBe(await pendingNow());
    expect(await pendingNow()).toBe(whole - 1);
    const third = await w.student();
    await w.enrol(third, subject.subjectId, teacher.employeeId);
    await w.close(subject.blockIds[0]!, { studentId: third, grade: 6 }, teacher.headers);
    expect(await badge()).toEqual({ ok: true, count: 2 });
  });

  test('a commit while never-asked pages are computed is never hidden from the asks after it', async () => {
    const teacher = await w.teacher();
    const subject = await w.subject(['N1', 'N2']);
    const pending = await Promise.all(Array.from({ length: 8 }, () => w.pendingFirstBlock(subject, teacher)));
    // Pages never asked before (three limits), answered while reviews commit; then each asked again.
    const limits = [50, 2, 3];
    const path = (limit: number) => `/api/v2/blocks/pending?subjectId=${subject.subjectId}&limit=${limit}`;
    const answers = await Promise.all([
      ...pending.slice(0, 4).map((one) => w.review(one.rows[0]!.id, { action: 'approve' })),
      ...limits.map((limit) => w.api().get(path(limit)).set(admin)),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const again = await Promise.all(limits.map((limit) => w.api().get(path(limit)).set(admin)));
    for (const [i, answer] of again.entries()) {
      expect(answer.body).toEqual(JSON.parse(await selectPendingPageJson(em(service()), { subjectId: subject.subjectId, limit: limits[i]! })));
    }
    expect(again[0]!.body.total).toBe(4);
  });

  test('a page is answered from the cache until a commit changes the queue', async () => {
    const { subject, first } = await queue();
    const kept = await page(subject.subjectId);
    // A change the version does not see (its trigger off) is not shown: the answer came from the cache.
    await f.query(`alter table student_blocks disable trigger student_blocks_pending_blocks_version_update`);
    try {
      await f.query(`update student_blocks set grade = 3 where id = ?`, [first.rows[0]!.id]);
    } finally {
      await f.query(`alter table student_blocks enable trigger student_blocks_pending_blocks_version_update`);
    }
    expect(await page(subject.subjectId)).toEqual(kept);
    // With the trigger on, the same kind of write moves the version and the next page is read anew.
    const { after } = await afterWrite(subject.subjectId, () => f.query(`update student_blocks set grade = 4 where id = ?`, [first.rows[0]!.id]));
    expect(after.byStudent.flatMap((group) => group.blocks).find((block) => block.studentBlockId === first.rows[0]!.id)!.grade).toBe(4);
  });

  test('a block closed, approved or rejected through the API is in or out of the next page at once', async () => {
    const { teacher, subject, first, second } = await queue();
    const third = await w.student();
    await w.enrol(third, subject.subjectId, teacher.employeeId);
    const closed = await afterWrite(subject.subjectId, () => w.close(subject.blockIds[0]!, { studentId: third, grade: 6 }, teacher.headers));
    expect(closed.after.total).toBe(closed.before.total + 1);
    const approved = await afterWrite(subject.subjectId, () => w.review(first.rows[0]!.id, { action: 'approve' }));
    expect(approved.after.total).toBe(approved.before.total - 1);
    const rejected = await afterWrite(subject.subjectId, () => w.review(second.rows[0]!.id, { action: 'reject', reason: 'again' }));
    expect(rejected.after.total).toBe(rejected.before.total - 1);
    const bulk = await afterWrite(subject.subjectId, async () => {
      const [row] = await w.studentBlocks(third, subject.subjectId);
      const answer = await w.api().post('/api/v2/blocks/review').set(admin).send({ items: [{ studentBlockId: row!.id, action: 'approve', grade: 9 }] });
      expect(answer.body.reviewed).toBe(1);
    });
    expect(bulk.after.total).toBe(0);
  });

  test('the names a page shows (student, teacher, block, subject) renamed, a student or a teacher deleted: the next page shows it', async () => {
    const { teacher, subject, first, second } = await queue();
    const names = (listing: Awaited<ReturnType<typeof page>>) => listing.byStudent.flatMap((group) => group.blocks.map((block) => [group.studentName, block.blockName, block.subjectName, block.employeeName]));
    const student = await afterWrite(subject.subjectId, () => f.query(`update students set name = 'Renamed' where id = ?`, [first.studentId]));
    expect(student.after.byStudent.find((group) => group.studentId === first.studentId)!.studentName).toMatch(/^Renamed /);
    const employee = await afterWrite(subject.subjectId, () => f.query(`update employees set lastname = 'Otero' where id = ?`, [teacher.employeeId]));
    expect(names(employee.after).every(([, , , employeeName]) => employeeName === 'Ana Otero')).toBe(true);
    const block = await afterWrite(subject.subjectId, () => f.query(`update blocks set name = 'Chapter one' where id = ?`, [subject.blockIds[0]]));
    expect(names(block.after).every(([, blockName]) => blockName === 'Chapter one')).toBe(true);
    const renamedSubject = await afterWrite(subject.subjectId, () => f.query(`update subjects set name = 'Renamed subject' where id = ?`, [subject.subjectId]));
    expect(names(renamedSubject.after).every(([, , subjectName]) => subjectName === 'Renamed subject')).toBe(true);
    // The teacher deleted: their blocks keep no teacher (a foreign key's set null, a write of the block rows).
    await f.query(`update registrations set employee_id = null where employee_id = ?`, [teacher.employeeId]);
    const teacherGone = await afterWrite(subject.subjectId, () => f.query(`delete from employees where id = ?`, [teacher.employeeId]));
    expect(names(teacherGone.after).every(([, , , employeeName]) => employeeName === '')).toBe(true);
    // A student deleted: their blocks go with them (a cascade).
    await f.query(`delete from registrations where student_id = ?`, [second.studentId]);
    const studentGone = await afterWrite(subject.subjectId, () => f.query(`delete from students where id = ?`, [second.studentId]));
    expect(studentGone.after.byStudent.map((group) => group.studentId)).toEqual([first.studentId]);
  });

  test('writes that do not change the queue keep its version (and its pages), and so does a rolled-back one', async () => {
    const { teacher, subject, first } = await queue();
    await page(subject.subjectId);
    const before = await version();
    // A registration creates open and blocked blocks; a student's other fields, a non-pending block, a subject's other fields.
    const other = await w.student();
    await w.enrol(other, subject.subjectId, teacher.employeeId);
    await f.query(`update students set email = 'x@example.com', updated_at = now() where id = ?`, [first.studentId]);
    await f.query(`update student_blocks set updated_at = now() where student_id = ? and status <> 'pending'`, [other]);
    await f.query(`update subjects set updated_at = now() where id = ?`, [subject.subjectId]);
    expect(await version()).toBe(before);
    await expect(
      em(service()).transactional(async (tx) => {
        await tx.execute(`update student_blocks set grade = 1 where id = ?`, [first.rows[0]!.id]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await version()).toBe(before);
    // One transaction of several changes to the queue: one bump, at its commit.
    await em(service()).transactional(async (tx) => {
      await tx.execute(`update student_blocks set grade = 2 where id = ?`, [first.rows[0]!.id]);
      await tx.execute(`update students set lastname = 'Once' where id = ?`, [first.studentId]);
    });
    expect(await version()).toBe(before + 1);
  });

  test('many reviews and closes at once: each commits (the version is the last lock each takes), and every page after them is the database’s', async () => {
    const teacher = await w.teacher();
    const subject = await w.subject(['R1', 'R2']);
    const pending = await Promise.all(Array.from({ length: 12 }, () => w.pendingFirstBlock(subject, teacher)));
    const openOnes = await Promise.all(Array.from({ length: 6 }, async () => {
      const studentId = await w.student();
      await w.enrol(studentId, subject.subjectId, teacher.employeeId);
      return studentId;
    }));
    await page(subject.subjectId);
    const before = await version();
    const answers = await Promise.all([
      ...pending.map((one, i) => w.review(one.rows[0]!.id, i % 2 ? { action: 'approve' } : { action: 'reject', reason: 'no' })),
      ...openOnes.map((studentId) => w.close(subject.blockIds[0]!, { studentId, grade: 5 }, teacher.headers)),
      ...Array.from({ length: 6 }, () => w.api().get(query(subject.subjectId)).set(admin)),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(await version()).toBe(before + 18);
    const after = await page(subject.subjectId);
    expect(after).toEqual(await fresh(subject.subjectId));
    expect(after.total).toBe(6);
  });
});
