import { describe, expect, test } from '@jest/globals';
import { adminToken, useAttendance } from './attendance-support.ts';

describe('reading attendance', () => {
  const { clock, world: w } = useAttendance('2026-04-20T10:00:00Z');

  /** Four classes of one subject (one across the spring DST change, one ending after midnight), a student marked P, L, E, A. */
  async function term() {
    clock.set('2026-04-20T10:00:00Z');
    const place = await w.place();
    const [student, other] = await w.students(2, place);
    const times: [string, string][] = [
      ['2026-03-28T17:00:00Z', '2026-03-28T18:00:00Z'], // Saturday 18:00 CET
      ['2026-03-30T17:00:00Z', '2026-03-30T18:00:00Z'], // Monday 19:00 CEST
      ['2026-04-06T21:30:00Z', '2026-04-06T23:30:00Z'], // 23:30 → 01:30 local
      ['2026-04-13T17:00:00Z', '2026-04-13T18:00:00Z'],
    ];
    const events: number[] = [];
    for (const [startsAt, endsAt] of times) events.push(await w.event(place, startsAt, endsAt, [student!, other!]));
    const statuses = ['P', 'L', 'E', 'A'];
    for (const [i, eventId] of events.entries()) {
      const res = await w.take(eventId, { marks: [{ studentId: student, status: statuses[i], ...(statuses[i] === 'L' ? { minutesLate: 10 } : {}) }, { studentId: other, status: 'P' }] }, adminToken);
      expect(res.status).toBe(200);
    }
    return { place, student: student!, other: other!, events };
  }

  test('GET events/:eventId: the roster with marks, who took it and when, the unmarked', async () => {
    const place = await w.place();
    const students = await w.students(2, place);
    const eventId = await w.event(place, '2026-04-20T09:00:00Z', '2026-04-20T10:30:00Z', students);
    await w.take(eventId, { marks: [{ studentId: students[0], status: 'P' }] }, place.token);
    const res = await w.api().get(`/api/v2/attendance/events/${eventId}`).set(place.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ eventId, taken: { byUserId: place.userId, at: '2026-04-20T10:00:00.000Z' }, unmarked: [students[1]], changed: 0 });
    expect(res.body.students).toHaveLength(2);
    const other = await w.place();
    expect((await w.api().get(`/api/v2/attendance/events/${eventId}`).set(other.token)).status).toBe(403);
  });

  test("GET students/:studentId: counts by status and the weighted percentage (Excused not counted, Late 0.8)", async () => {
    const { place, student } = await term();
    const res = await w.api().get(`/api/v2/attendance/students/${student}?subjectId=${place.subjectId}&from=2026-03-01&to=2026-04-30`).set(place.token);
    expect(res.status).toBe(200);
    expect(res.body.subjects).toEqual([
      { subjectId: place.subjectId, subjectName: expect.any(String), sessions: 4, counted: 3, counts: { P: 1, L: 1, E: 1, A: 1 }, percentage: 60 },
    ]);
    const stranger = await w.place();
    const refused = await w.api().get(`/api/v2/attendance/students/${student}`).set(stranger.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_SUBJECT_TEACHER');
  });

  test("the academy's days bound the range: a class at 23:30 local on 6 April is that day's, not the 7th's", async () => {
    const { place, student } = await term();
    const on6 = await w.api().get(`/api/v2/attendance/students/${student}?from=2026-04-06&to=2026-04-06`).set(adminToken);
    expect(on6.body.subjects[0]).toMatchObject({ subjectId: place.subjectId, sessions: 1, counts: { E: 1 } });
    const on7 = await w.api().get(`/api/v2/attendance/students/${student}?from=2026-04-07&to=2026-04-07`).set(adminToken);
    expect(on7.body.subjects).toEqual([]);
  });

  test.each([
    ['from after to', 'from=2026-04-10&to=2026-04-01', 'INVALID_RANGE'],
    ['a range over one year', 'from=2025-01-01&to=2026-04-01', 'INVALID_RANGE'],
    ['a date that is not one', 'from=2026-02-30', 'VALIDATION_ERROR'],
    ['an unknown parameter', 'since=2026-01-01', 'VALIDATION_ERROR'],
    ['a subject id that is not an id', 'subjectId=1e3', 'VALIDATION_ERROR'],
  ])('GET students/:studentId with %s: 400 %s', async (_name, query, code) => {
    const res = await w.api().get(`/api/v2/attendance/students/1?${query}`).set(adminToken);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
  });

  test('GET report: per student, percentages, below the threshold flagged; below= keeps only those', async () => {
    const { place, student, other } = await term();
    const res = await w.api().get(`/api/v2/attendance/report?subjectId=${place.subjectId}&from=2026-03-01&to=2026-04-30`).set(adminToken);
    expect(res.status).toBe(200);
    expect(res.body.thresholdPercent).toBe(80);
    const rows = Object.fromEntries(res.body.data.map((row: { studentId: number }) => [row.studentId, row]));
    expect(rows[student]).toMatchObject({ percentage: 60, below: true });
    expect(rows[other]).toMatchObject({ percentage: 100, below: false });
    const below = await w.api().get(`/api/v2/attendance/report?subjectId=${place.subjectId}&from=2026-03-01&to=2026-04-30&below=70`).set(place.token);
    expect(below.status).toBe(200);
    expect(below.body.data.map((row: { studentId: number }) => row.studentId)).toEqual([student]);
    expect((await w.api().get(`/api/v2/attendance/report?below=101`).set(adminToken)).status).toBe(400);
    expect((await w.api().get(`/api/v2/attendance/report`).set(place.token)).status).toBe(403);
  });

  test('GET report as text/csv: a row per student × session with local ISO times (across DST, past midnight), then a summary row', async () => {
    const { place, student, events } = await term();
    const res = await w.api().get(`/api/v2/attendance/report?subjectId=${place.subjectId}&from=2026-03-01&to=2026-04-30`).set(adminToken).set('Accept', 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('row,studentId,student,subjectId,subject,centerId,eventId,startsAt,endsAt,status,minutesLate,remark,sessions,counted,percentage,below');
    const mine = lines.filter((line) => line.split(',')[1] === String(student));
    expect(mine.map((line) => line.split(',').slice(6, 11).join(','))).toEqual([
      `${events[0]},2026-03-28T18:00:00+01:00,2026-03-28T19:00:00+01:00,P,`,
      `${events[1]},2026-03-30T19:00:00+02:00,2026-03-30T20:00:00+02:00,L,10`,
      `${events[2]},2026-04-06T23:30:00+02:00,2026-04-07T01:30:00+02:00,E,`,
      `${events[3]},2026-04-13T19:00:00+02:00,2026-04-13T20:00:00+02:00,A,`,
      `,,,,`,
    ]);
    expect(mine.at(-1)!.split(',').slice(0, 1).concat(mine.at(-1)!.split(',').slice(12))).toEqual(['summary', '4', '3', '60', 'true']);
    expect(lines.filter((line) => line.startsWith('summary,')).length).toBe(2);
  });

  test('GET report as text/csv: the raw bytes start with the UTF-8 byte-order mark (Excel reads "Iván Díaz Sánchez" right), then the header; names are UTF-8', async () => {
    const { place, student } = await term();
    await w.f.query(`update students set name = 'Iván', lastname = 'Díaz Sánchez' where id = ?`, [student]);
    const res = await w
      .api()
      .get(`/api/v2/attendance/report?subjectId=${place.subjectId}&from=2026-03-01&to=2026-04-30`)
      .set(adminToken)
      .set('Accept', 'text/csv')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const bytes = res.body as Buffer;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3, 3 + 'row,studentId,'.length).toString('latin1')).toBe('row,studentId,');
    expect(bytes.includes(Buffer.from(`,Iván Díaz Sánchez,`, 'utf8'))).toBe(true);
    // The mark comes once, at the start only.
    expect(bytes.subarray(3).includes(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
  });

  test('GET missing: past classes with no sheet; a teacher sees their own, another employeeId is 403', async () => {
    clock.set('2026-04-20T10:00:00Z');
    const place = await w.place();
    const students = await w.students(1, place);
    const taken = await w.event(place, '2026-04-17T08:00:00Z', '2026-04-17T09:00:00Z', students);
    const missing = await w.event(place, '2026-04-18T08:00:00Z', '2026-04-18T09:00:00Z', students);
    await w.event(place, '2026-04-20T09:30:00Z', '2026-04-20T10:30:00Z', students); // not over yet
    await w.event(place, '2026-04-19T08:00:00Z', '2026-04-19T09:00:00Z', []); // no students
    await w.take(taken, { marks: [], markRest: 'P' }, place.token);
    const res = await w.api().get('/api/v2/attendance/missing').set(place.token);
    expect(res.status).toBe(200);
    expect(res.body.data.map((row: { eventId: number }) => row.eventId)).toEqual([missing]);
    expect(res.body).toMatchObject({ from: '2026-04-13', to: '2026-04-20' });
    const admin = await w.api().get(`/api/v2/attendance/missing?employeeId=${place.employeeId}&from=2026-04-01&to=2026-04-30`).set(adminToken);
    expect(admin.body.data.map((row: { eventId: number }) => row.eventId)).toEqual([missing]);
    const other = await w.place();
    expect((await w.api().get(`/api/v2/attendance/missing?employeeId=${place.employeeId}`).set(other.token)).status).toBe(403);
  });

  describe('statuses', () => {
    test('GET lists the seeded set; an admin replaces it; a user may not (403)', async () => {
      const list = await w.api().get('/api/v2/attendance/statuses').set(adminToken);
      expect(list.body.data).toEqual([
        { code: 'P', name: 'Present', weight: 1 },
        { code: 'L', name: 'Late', weight: 0.8 },
        { code: 'E', name: 'Excused', weight: null },
        { code: 'A', name: 'Absent', weight: 0 },
      ]);
      const place = await w.place();
      expect((await w.api().put('/api/v2/attendance/statuses').set(place.token).send({ statuses: list.body.data })).status).toBe(403);
      const changed = await w.api().put('/api/v2/attendance/statuses').set(adminToken).send({ statuses: [...list.body.data, { code: 'R', name: 'Remote', weight: 0.5 }] });
      expect(changed.status).toBe(200);
      expect(changed.body.data.at(-1)).toEqual({ code: 'R', name: 'Remote', weight: 0.5 });
      const back = await w.api().put('/api/v2/attendance/statuses').set(adminToken).send({ statuses: list.body.data });
      expect(back.body.data).toEqual(list.body.data);
    });

    test('a status used by marks cannot be removed: 409 naming it, nothing changed', async () => {
      await term();
      const list = await w.api().get('/api/v2/attendance/statuses').set(adminToken);
      const res = await w.api().put('/api/v2/attendance/statuses').set(adminToken).send({ statuses: list.body.data.filter((s: { code: string }) => s.code !== 'L') });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('ATTENDANCE_STATUS_IN_USE');
      expect(res.body.message).toContain('L');
      expect((await w.api().get('/api/v2/attendance/statuses').set(adminToken)).body.data).toEqual(list.body.data);
    });

    test.each([
      ['a weight over 1', { statuses: [{ code: 'P', name: 'Present', weight: 1.5 }] }],
      ['a duplicated code', { statuses: [{ code: 'P', name: 'Present', weight: 1 }, { code: 'P', name: 'Again', weight: 1 }] }],
      ['an empty set', { statuses: [] }],
      ['an unknown field', { statuses: [{ code: 'P', name: 'Present', weight: 1, colour: 'green' }] }],
    ])('PUT with %s: 400', async (_name, body) => {
      expect((await w.api().put('/api/v2/attendance/statuses').set(adminToken).send(body)).status).toBe(400);
    });
  });
});
