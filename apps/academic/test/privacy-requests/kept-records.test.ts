import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { PrivacySubject } from '@academy/contracts';
import { academicPrivacyProviders } from '../../src/privacy-requests/academic-providers.ts';
import { purgeKeptAcademicRecords } from '../../src/privacy-requests/purge-kept-records.ts';
import type { AcademicContext } from '../../src/shared/academic-context.ts';
import { admin, em, useAcademic } from '../support.ts';

// Issue 35: what an erasure keeps of a student (their academic records) is restricted, no list names
// them, and it goes on the day the erasure's outcome lists as `until`.

const ERASED_AT = new Date('2026-11-27T10:00:00Z');

describe("an erased student's kept academic records", () => {
  const { service, f } = useAcademic();
  const ctx = () => service().deps as AcademicContext;

  /** A registered student with a mark, an attended class (marked late) and a class to come. */
  async function student(name: string) {
    const studentId = await f.student(name, 'Quintana');
    const [subjectId, centerId, courseId] = [await f.subject(), await f.center(), await f.course('2026-09-01')];
    await f.registration({ studentId, courseId, subjectId, centerId });
    const [block] = await f.query<{ id: number }>(`insert into blocks (subject_id, name, position) values (?, 'Block 1', 1) returning id`, [subjectId]);
    await f.query(`insert into student_blocks (student_id, block_id, status, grade, closed_at, approved_at, created_at, updated_at) values (?, ?, 'closed', 7.5, now(), now(), now(), now())`, [studentId, block!.id]);
    const [past, future] = [await f.event({ subjectId, centerId }), await f.event({ subjectId, centerId })];
    await f.query(`update calendar_events set starts_at = ?, ends_at = ?::timestamptz + interval '1 hour' where id = ?`, ['2026-11-20T09:00:00Z', '2026-11-20T09:00:00Z', past]);
    await f.query(`update calendar_events set starts_at = ?, ends_at = ?::timestamptz + interval '1 hour' where id = ?`, ['2026-12-10T09:00:00Z', '2026-12-10T09:00:00Z', future]);
    for (const eventId of [past, future]) await f.query(`insert into event_students (event_id, student_id, assigned_at) values (?, ?, now())`, [eventId, studentId]);
    await f.query(`insert into attendance_marks (event_id, student_id, status, minutes_late, remark, marked_by_user_id, marked_at) values (?, ?, 'L', 5, null, 1, now())`, [past, studentId]);
    return { studentId, past, future, subjectId, courseId, blockId: block!.id };
  }

  const erase = (studentId: number) => {
    const subject: PrivacySubject = { kind: 'student', id: studentId, userId: null, email: null };
    return em(service()).transactional((tx) =>
      Promise.all(academicPrivacyProviders(ctx()).filter((provider) => provider.subjects.includes('student')).map((provider) => provider.erase({ em: tx, subject, now: ERASED_AT, requestId: randomUUID(), locale: 'es' }))),
    );
  };
  const records = async (studentId: number) =>
    (await f.query<{ blocks: number; marks: number }>(`select (select count(*)::int from student_blocks where student_id = ?) as blocks, (select count(*)::int from attendance_marks where student_id = ?) as marks`, [studentId, studentId]))[0];

  test('erasure takes the student out of every class not yet given and cancels their registrations; the class they attended keeps their mark under no name', async () => {
    const { studentId, past, future } = await student('Leocadia');
    const [students] = await erase(studentId);
    expect(students!.erased).toEqual(expect.arrayContaining([{ what: 'places in classes not yet given', count: 1 }, { what: 'registrations (cancelled)', count: 1 }]));
    expect(await f.query(`select event_id from event_students where student_id = ? order by event_id`, [studentId])).toEqual([{ event_id: past }]);
    expect(await f.query(`select status from registrations where student_id = ?`, [studentId])).toEqual([{ status: 'cancelled' }]);
    const upcoming = await request(service().url).get(`/api/v2/attendance/events/${future}`).set(admin);
    expect(upcoming.status).toBe(200);
    expect(upcoming.body.students.map((s: { studentId: number }) => s.studentId)).not.toContain(studentId);
    const attended = await request(service().url).get(`/api/v2/attendance/events/${past}`).set(admin);
    expect(attended.body.students).toEqual([expect.objectContaining({ studentId, status: 'L' })]);
    expect(JSON.stringify(attended.body)).not.toMatch(/Leocadia|Quintana/);
    expect((await erase(studentId))[0]!.erased).toEqual([{ what: 'student record (anonymized, withdrawn, guardian unlinked)', count: 0 }, { what: 'login (disabled, sessions ended)', count: 0 }]);
  });

  test("the kept mark and attendance leave the admin's lists by course (completed blocks and their total, the attendance report as JSON and CSV); the block pending review goes, so no review and no block.approved can name the student", async () => {
    const { studentId, subjectId, courseId, blockId } = await student('Eduvigis');
    const other = await student('Pancracia');
    const [second] = await f.query<{ id: number }>(`insert into blocks (subject_id, name, position) values (?, 'Block 2', 2) returning id`, [subjectId]);
    const [pending] = await f.query<{ id: number }>(
      `insert into student_blocks (student_id, block_id, status, grade, closed_at, created_at, updated_at) values (?, ?, 'pending', 6, now(), now(), now()) returning id`,
      [studentId, second!.id],
    );
    const completed = async (id: number, course = courseId) => (await request(service().url).get(`/api/v2/blocks/completed?schoolCourseId=${course}&subjectId=${id}`).set(admin)).body;
    const report = (id: number, accept = 'application/json') => request(service().url).get(`/api/v2/attendance/report?subjectId=${id}&from=2026-11-01&to=2026-11-30`).set(admin).set('accept', accept);
    const listed = async (id: number, course = courseId) => ({
      completed: (await completed(id, course)).data.map((row: { studentId: number }) => row.studentId),
      report: (await report(id)).body.data.map((row: { studentId: number }) => row.studentId),
    });
    expect(await listed(subjectId)).toEqual({ completed: [studentId], report: [studentId] });

    const [students, blocks] = await erase(studentId);
    expect(blocks!.erased).toEqual([{ what: 'block thread messages', count: 0 }, { what: 'blocks not completed (no approved mark)', count: 1 }]);
    expect(blocks!.kept).toEqual([expect.objectContaining({ what: 'blocks and marks (1)' })]);
    expect(students!.kept).toEqual([]);
    expect(await listed(subjectId)).toEqual({ completed: [], report: [] });
    expect((await completed(subjectId)).meta).toMatchObject({ totalItems: 0 });
    const csv = await report(subjectId, 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.text).not.toMatch(new RegExp(`Erased|#${studentId}\\b`));
    // The kept mark itself stays (the record), restricted.
    expect(await f.query(`select block_id from student_blocks where student_id = ? order by id`, [studentId])).toEqual([{ block_id: blockId }]);
    // Nothing of theirs is left to review, so nothing can be approved and announced.
    const review = await request(service().url).post(`/api/v2/blocks/student-block/${pending!.id}/review`).set(admin).send({ action: 'approve' });
    expect(review.status).toBe(404);
    expect(await f.query(`select id from outbox where type = 'block.approved' and (envelope->'data'->>'studentId')::int = ?`, [studentId])).toEqual([]);
    // Another student of another subject is listed as before.
    expect(await listed(other.subjectId, other.courseId)).toEqual({ completed: [other.studentId], report: [other.studentId] });
  });

  test('the kept marks, blocks and attendance are deleted on the day the erasure listed as until, not a day before; those of a student not erased stay', async () => {
    const { studentId } = await student('Remedios');
    const other = await student('Casilda');
    const outcomes = await erase(studentId);
    expect(outcomes.flatMap((outcome) => outcome.kept.map((kept) => kept.until))).toEqual(['2031-11-27', '2031-11-27']);
    expect(await purgeKeptAcademicRecords(ctx(), { now: new Date('2031-11-26T23:59:00Z') })).toEqual({ students: 0, blocks: 0, attendanceMarks: 0 });
    expect(await records(studentId)).toEqual({ blocks: 1, marks: 1 });
    // Every student erased that day goes (the other test's too: one database per file).
    const purged = await purgeKeptAcademicRecords(ctx(), { now: new Date('2031-11-27T00:00:00Z') });
    expect(purged.students).toBeGreaterThanOrEqual(1);
    expect(purged).toEqual({ students: purged.students, blocks: purged.students, attendanceMarks: purged.students });
    expect([await records(studentId), await records(other.studentId)]).toEqual([{ blocks: 0, marks: 0 }, { blocks: 1, marks: 1 }]);
    expect(await f.query(`select name from students where id = ?`, [studentId])).toEqual([{ name: 'Erased' }]);
    expect(await purgeKeptAcademicRecords(ctx(), { now: new Date('2031-11-27T00:00:00Z') })).toEqual({ students: 0, blocks: 0, attendanceMarks: 0 });
  });
});
