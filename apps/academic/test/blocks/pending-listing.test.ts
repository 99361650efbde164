import { describe, expect, test } from '@jest/globals';
import { admin, useAcademic } from '../support.ts';
import { blockWorld } from './blocks-support.ts';

interface Listing {
  ok: true;
  total: number;
  byStudent: { studentId: number; studentName: string; blocks: { studentBlockId: number }[] }[];
  nextCursor?: string | null;
}

describe('GET /api/v2/blocks/pending: pages by cursor, the whole listing streamed', () => {
  const { service, f } = useAcademic();
  const w = blockWorld(service, f);
  const get = (query: string) => w.api().get(`/api/v2/blocks/pending?${query}`).set(admin);

  /**
   * Two subjects of three blocks; 9 students in the first, each with one block of it pending (their
   * first, second or third), 4 of them in the second too with a block pending there. Close times set
   * by hand: ties (equal instants, ordered by id), instants a microsecond apart, and one pending block
   * without a close time (listed last).
   */
  async function queue() {
    const teacher = await w.teacher();
    const math = await w.subject(['M1', 'M2', 'M3']);
    const art = await w.subject(['A1', 'A2', 'A3']);
    const students: number[] = [];
    for (let i = 0; i < 9; i++) {
      const studentId = await w.student({ name: `S${i}` });
      students.push(studentId);
      await w.enrol(studentId, math.subjectId, teacher.employeeId);
      if (i % 2 === 0) await w.enrol(studentId, art.subjectId, teacher.employeeId);
    }
    const base = '2026-11-20 09:00:00.000000+00';
    // [student index, subject, block index, microseconds after base, or null for no close time]
    const pending: [number, typeof math, number, number | null][] = [
      [0, math, 0, 5],
      [1, math, 1, 1],
      [2, math, 2, 0],
      [3, math, 0, 0],
      [4, math, 1, 2],
      [5, math, 2, 2],
      [6, math, 0, 3],
      [7, math, 1, null],
      [8, math, 2, 4],
      [0, art, 0, 2],
      [2, art, 1, 0],
      [4, art, 2, 6],
      [6, art, 0, 1],
    ];
    for (const [student, subject, block, micros] of pending) {
      await f.query(
        `update student_blocks set status = 'pending', grade = 7, employee_id = ?, closed_at = case when ?::bigint is null then null else ?::timestamptz + ?::bigint * interval '1 microsecond' end
          where student_id = ? and block_id = ?`,
        [teacher.employeeId, micros, base, micros, students[student], subject.blockIds[block]],
      );
    }
    return { math, art, students };
  }

  /** The pending blocks (id and student) of the filter, in the listing's order, read from the database. */
  const expected = (where = 'true', params: unknown[] = []) =>
    f.query<{ id: number; studentId: number }>(
      `select sb.id, sb.student_id as "studentId" from student_blocks sb join blocks b on b.id = sb.block_id
        where sb.status = 'pending' and ${where} order by sb.closed_at asc nulls last, sb.id asc`,
      params,
    );

  /** A page's blocks grouped as the spec groups them: by student, in the order of each student's first block in the slice. */
  const grouped = (slice: { id: number; studentId: number }[]) => {
    const groups = new Map<number, number[]>();
    for (const row of slice) groups.set(row.studentId, [...(groups.get(row.studentId) ?? []), row.id]);
    return [...groups].map(([studentId, ids]) => ({ studentId, ids }));
  };
  const groupsOf = (listing: Listing) => listing.byStudent.map((group) => ({ studentId: group.studentId, ids: group.blocks.map((block) => block.studentBlockId) }));

  /** Follows `nextCursor` from the first page until it is null: every page answered, never more than `most` pages. */
  async function walk(filter: string, limit: number, most: number): Promise<Listing[]> {
    const pages: Listing[] = [];
    let cursor: string | null | undefined;
    do {
      const answer = await get(`${filter}&limit=${limit}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
      expect(answer.status).toBe(200);
      pages.push(answer.body);
      cursor = answer.body.nextCursor;
      expect(pages.length).toBeLessThanOrEqual(most);
    } while (cursor);
    return pages;
  }

  test('walking nextCursor reads every block once, oldest close first (ties by id, a microsecond apart, none last), each page grouped by student; page numbers give the same pages', async () => {
    const { math, students } = await queue();
    const filters: [string, Awaited<ReturnType<typeof expected>>][] = [
      ['', await expected()],
      [`subjectId=${math.subjectId}`, await expected('b.subject_id = ?', [math.subjectId])],
      [`studentId=${students[0]}`, await expected('sb.student_id = ?', [students[0]])],
      [`studentId=${students[0]}&subjectId=${math.subjectId}`, await expected('sb.student_id = ? and b.subject_id = ?', [students[0], math.subjectId])],
    ];
    // The unfiltered listing also holds what the file's other tests left.
    expect(filters.map(([, rows]) => rows.length)).toEqual([expect.any(Number), 9, 2, 1]);
    for (const [filter, rows] of filters) {
      for (const limit of [1, 2, 4, 13]) {
        // Every block once, and an empty last page when the last one is full: no walk reads more pages.
        const pages = await walk(filter, limit, Math.floor(rows.length / limit) + 1);
        const slices = Array.from({ length: Math.ceil(rows.length / limit) }, (_, i) => rows.slice(i * limit, (i + 1) * limit));
        // A full last page is followed by an empty one, whose nextCursor is null.
        if (rows.length % limit === 0) slices.push([]);
        expect([filter, limit, pages.map(groupsOf)]).toEqual([filter, limit, slices.map(grouped)]);
        expect(pages.map((page) => page.total)).toEqual(slices.map((slice) => slice.length));
        expect(pages.at(-1)!.nextCursor).toBeNull();
        for (const [i, slice] of slices.entries()) {
          if (!slice.length) continue;
          const numbered = await get(`${filter}&limit=${limit}&page=${i + 1}`);
          expect([filter, limit, i + 1, groupsOf(numbered.body)]).toEqual([filter, limit, i + 1, grouped(slice)]);
        }
      }
    }
  });

  test('the whole listing (no limit) is every page in one answer: the same JSON, grouped by student in the order of their oldest block, no nextCursor', async () => {
    const { math, students } = await queue();
    // A student's whole listing is answered as a page is (from the page cache), the others streamed: the same answers.
    const wholes: [string, Awaited<ReturnType<typeof expected>>][] = [
      ['', await expected()],
      [`subjectId=${math.subjectId}`, await expected('b.subject_id = ?', [math.subjectId])],
      [`studentId=${students[0]}`, await expected('sb.student_id = ?', [students[0]])],
      [`studentId=${students[0]}&subjectId=${math.subjectId}`, await expected('sb.student_id = ? and b.subject_id = ?', [students[0], math.subjectId])],
    ];
    for (const [filter, rows] of wholes) {
      const whole = await get(filter);
      expect(whole.status).toBe(200);
      expect(whole.headers['content-type']).toMatch(/^application\/json/);
      // Grouped over the whole listing: a student's blocks together, at the place of their oldest one.
      expect(groupsOf(whole.body)).toEqual(grouped(rows));
      expect(whole.body.total).toBe(rows.length);
      expect('nextCursor' in whole.body).toBe(false);
      const onePage = await get(`${filter}&limit=1000`);
      expect(onePage.body).toEqual({ ...whole.body, nextCursor: null });
      const block = onePage.body.byStudent[0].blocks[0];
      expect(block).toEqual({
        studentBlockId: expect.any(Number),
        blockId: expect.any(Number),
        blockName: expect.stringMatching(/^[MA]\d$/),
        subjectId: expect.any(Number),
        subjectName: expect.stringMatching(/^Subject /),
        grade: 7,
        status: 'pending',
        employeeId: expect.any(Number),
        employeeName: 'Ana Ruiz',
        closedAt: '2026-11-20T09:00:00.000Z',
      });
    }
  });

  test('a whole listing longer than one write (400 students, over 64 KiB) is one JSON answer with every block once, in order', async () => {
    const { math } = await queue();
    // 400 more students straight in the database, each with the subject's first block pending.
    await f.query(
      `with s as (insert into students (name, lastname, status, created_at, updated_at)
                  select 'Many', 'Student ' || g, 'active', now(), now() from generate_series(1, 400) g returning id)
       insert into student_blocks (student_id, block_id, status, grade, closed_at, created_at, updated_at)
       select s.id, ?, 'pending', 5, timestamptz '2026-11-21 08:00:00+00' + s.id * interval '1 second', now(), now() from s`,
      [math.blockIds[0]],
    );
    const rows = await expected('b.subject_id = ?', [math.subjectId]);
    const whole = await get(`subjectId=${math.subjectId}`);
    expect(whole.status).toBe(200);
    expect(Number(whole.headers['content-length'] ?? 0) || whole.text.length).toBeGreaterThan(64 * 1024);
    expect(whole.body.total).toBe(rows.length);
    expect(groupsOf(whole.body)).toEqual(grouped(rows));
  });

  test('a cursor that is not one of the listing (or with page, or without limit) is a 400 naming after, and nothing is listed', async () => {
    for (const after of ['abc', '1', '1.0', '.5', 'n.0', '1.', '01.5', '12345678901234567.1', '9007199254740993.1', '1.2147483648', '1.12345678901', 'n.1.2', '1e3.4', ' 1.2']) {
      const refused = await get(`limit=2&after=${encodeURIComponent(after)}`);
      expect([after, refused.status, refused.body.code, refused.body.details?.[0]?.path]).toEqual([after, 400, 'VALIDATION_ERROR', 'after']);
    }
    for (const query of ['after=1.2', 'limit=2&page=2&after=1.2']) {
      const refused = await get(query);
      expect([query, refused.status, refused.body.code, refused.body.details?.[0]?.path]).toEqual([query, 400, 'VALIDATION_ERROR', 'after']);
    }
    const twice = await get('limit=2&after=1.2&after=1.3');
    expect([twice.status, twice.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
