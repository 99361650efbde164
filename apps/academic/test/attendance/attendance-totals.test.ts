import { describe, expect, test } from '@jest/globals';
import { adminToken, useAttendance } from './attendance-support.ts';

// The report reads whole UTC months from attendance_totals and the edge days from the marks; the
// totals are kept by triggers. Whatever happens to marks and classes, the totals equal a recount of
// the marks, and the report equals the one computed from the marks alone.
describe('attendance totals behind the report', () => {
  const { clock, world: w } = useAttendance('2026-05-20T12:00:00Z');

  /** attendance_totals (non-zero rows) against a recount of the marks: the rows that differ, either way. */
  const drift = () =>
    w.f.query(`
      with recount as (
        select e.subject_id, m.student_id, e.center_id, date_trunc('month', e.starts_at at time zone 'UTC')::date as month, m.status, count(*)::int as sessions
          from attendance_marks m join calendar_events e on e.id = m.event_id group by 1, 2, 3, 4, 5),
      kept as (select subject_id, student_id, center_id, month, status, sessions from attendance_totals where sessions <> 0)
      (select 'missing' as side, * from (select * from recount except select * from kept) a)
      union all
      (select 'extra', * from (select * from kept except select * from recount) b)`);

  /** The report as the marks alone give it: every session row of the CSV's summaries. */
  async function reportFromMarks(query: string) {
    const csv = await w.api().get(`/api/v2/attendance/report?${query}`).set(adminToken).set('accept', 'text/csv');
    expect(csv.status).toBe(200);
    return (csv.text as string)
      .split('\r\n')
      .filter((line) => line.startsWith('summary,'))
      .map((line) => line.split(','))
      .map((cells) => ({ studentId: Number(cells[1]), subjectId: Number(cells[3]), sessions: Number(cells[12]), counted: Number(cells[13]), percentage: cells[14] === '' ? null : Number(cells[14]) }))
      .sort((a, b) => a.studentId - b.studentId || a.subjectId - b.subjectId);
  }
  async function reportFromTotals(query: string) {
    const res = await w.api().get(`/api/v2/attendance/report?${query}`).set(adminToken);
    expect(res.status).toBe(200);
    return (res.body.data as { studentId: number; subjectId: number; sessions: number; counted: number; percentage: number | null }[])
      .map(({ studentId, subjectId, sessions, counted, percentage }) => ({ studentId, subjectId, sessions, counted, percentage }))
      .sort((a, b) => a.studentId - b.studentId || a.subjectId - b.subjectId);
  }

  test('saves, changes, moved and deleted classes, a deleted student: the totals equal the marks, and reports over whole months and edges equal the marks’ own', async () => {
    const place = await w.place();
    const other = await w.place();
    const students = await w.students(4, place);
    // Classes from January to April; 2026-03-31T22:30Z is 1 April in Madrid (CEST) but March in UTC.
    const starts = ['2026-01-30T18:00:00Z', '2026-02-02T09:00:00Z', '2026-02-27T23:30:00Z', '2026-03-05T09:00:00Z', '2026-03-31T22:30:00Z', '2026-04-14T09:00:00Z'];
    const events: number[] = [];
    for (const startsAt of starts) events.push(await w.event(place, startsAt, new Date(Date.parse(startsAt) + 3600_000).toISOString(), students));
    const statuses = ['P', 'L', 'A', 'E'];
    for (const [i, eventId] of events.entries()) {
      const res = await w.take(eventId, { marks: students.map((studentId, s) => ({ studentId, status: statuses[(i + s) % 4], ...((i + s) % 4 === 1 ? { minutesLate: 5 } : {}) })) }, adminToken);
      expect(res.status).toBe(200);
    }
    expect(await drift()).toEqual([]);

    // Changes of marks, markRest on a fresh class, a class moved to another subject and month, one deleted, a student deleted.
    await w.take(events[1]!, { marks: [{ studentId: students[0]!, status: 'A' }, { studentId: students[1]!, status: 'A' }] }, adminToken);
    const extra = await w.event(place, '2026-02-16T09:00:00Z', '2026-02-16T10:00:00Z', students);
    await w.take(extra, { marks: [{ studentId: students[2]!, status: 'L', minutesLate: 3 }], markRest: 'P' }, adminToken);
    expect((await w.api().patch(`/api/v2/calendar-events/${events[3]}`).set(adminToken).send({ subjectId: other.subjectId, startsAt: '2026-04-02T09:00:00Z', endsAt: '2026-04-02T10:00:00Z' })).status).toBe(200);
    expect((await w.api().delete(`/api/v2/calendar-events/${events[0]}`).set(adminToken)).status).toBe(200);
    await w.f.query(`delete from registrations where student_id = ?`, [students[3]]);
    await w.f.query(`delete from students where id = ?`, [students[3]]);
    expect(await drift()).toEqual([]);

    for (const query of ['from=2026-01-01&to=2026-04-30', 'from=2026-01-15&to=2026-04-15', 'from=2026-02-01&to=2026-02-28', 'from=2026-02-10&to=2026-03-31', 'from=2026-04-01&to=2026-04-01', `from=2026-01-01&to=2026-04-30&subjectId=${place.subjectId}`]) {
      const expected = await reportFromMarks(query);
      expect(expected.length).toBeGreaterThan(0);
      expect(await reportFromTotals(query)).toEqual(expected);
    }
    const empty = await w.api().get('/api/v2/attendance/report?from=2025-01-01&to=2025-01-31').set(adminToken);
    expect(empty.headers['content-type']).toMatch(/^application\/json/);
    expect(empty.body).toEqual({ from: '2025-01-01', to: '2025-01-31', thresholdPercent: 80, data: [] });
    // 1 April in Madrid holds the class of 31 March 22:30Z: read from the marks, as an edge day.
    expect((await reportFromTotals('from=2026-04-01&to=2026-04-01')).map((row) => row.sessions)).toEqual([1, 1, 1]);
  });

  test('the teacher and an admin saving one sheet at once: the totals count each student once', async () => {
    clock.set('2026-05-20T12:00:00Z');
    const place = await w.place();
    const students = await w.students(20, place);
    const eventId = await w.event(place, '2026-05-20T11:00:00Z', '2026-05-20T12:00:00Z', students);
    const [teacher, admin] = await Promise.all([
      w.take(eventId, { marks: students.map((studentId) => ({ studentId, status: 'P' })) }, place.token),
      w.take(eventId, { marks: students.map((studentId) => ({ studentId, status: 'A' })) }, adminToken),
    ]);
    expect([teacher.status, admin.status]).toEqual([200, 200]);
    expect(await drift()).toEqual([]);
    const [{ sessions }] = await w.f.query<{ sessions: number }>(`select sum(t.sessions)::int as sessions from attendance_totals t where t.subject_id = ?`, [place.subjectId]);
    expect(sessions).toBe(20);
  });
});
