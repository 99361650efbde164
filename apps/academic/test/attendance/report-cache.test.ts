import { describe, expect, test } from '@jest/globals';
import { reportCacheKey, type ReportKeyParts } from '../../src/shared/attendance-report-cache.ts';
import { reportVersions, type SummaryRow } from '../../src/attendance/attendance.store.ts';
import { adminToken, useAttendance, type attendanceWorld } from './attendance-support.ts';
import type { RunningService } from '@academy/service';
import type { Config } from '../../src/config.ts';
import type { SettableClock } from '@academy/kit';
import { stopTestService } from '@academy/testing/harness';
import { em, startAcademic } from '../support.ts';

// The admins' JSON report is kept in Redis under the versions of what it shows, bumped by triggers in
// the transaction of every change: a cached answer is the computed one, and no change is ever hidden.
const RANGE = 'from=2026-03-01&to=2026-04-30';
const PREFIX = 'academic:attendance-report';

type Row = SummaryRow & { below: boolean };

function helpers(clock: SettableClock, service: () => RunningService<Config>, w: ReturnType<typeof attendanceWorld>) {
  /** A subject with three students and three classes (10 and 17 March, 14 April): P L A, P P P, E A P. */
  async function term() {
    clock.set('2026-04-20T10:00:00Z');
    const place = await w.place();
    const students = await w.students(3, place);
    const events: number[] = [];
    for (const day of ['2026-03-10', '2026-03-17', '2026-04-14']) events.push(await w.event(place, `${day}T17:00:00Z`, `${day}T18:00:00Z`, students));
    const marks = [['P', 'L', 'A'], ['P', 'P', 'P'], ['E', 'A', 'P']];
    for (const [i, eventId] of events.entries()) {
      const res = await w.take(eventId, { marks: students.map((studentId, s) => ({ studentId, status: marks[s]![i], ...(marks[s]![i] === 'L' ? { minutesLate: 5 } : {}) })) }, adminToken);
      expect(res.status).toBe(200);
    }
    return { place, students, events };
  }
  const report = (query: string, token: Record<string, string> = adminToken) => w.api().get(`/api/v2/attendance/report?${RANGE}${query ? `&${query}` : ''}`).set(token);
  /** The report twice (a miss or a hit, then a hit): both the same text. */
  async function settled(query: string): Promise<Row[]> {
    const first = await report(query);
    const second = await report(query);
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    return second.body.data as Row[];
  }
  /** The Redis key of an admin's report as the service would compute it now. */
  async function keyOf(parts: Pick<ReportKeyParts, 'subjectId' | 'centerId' | 'below'>) {
    const { config, orm } = service().ctx;
    const versions = await reportVersions(orm.em.fork(), parts.subjectId);
    return reportCacheKey(PREFIX, versions!, { from: '2026-03-01', to: '2026-04-30', timeZone: config.ACADEMY_TIME_ZONE, thresholdPercent: config.ATTENDANCE_WARNING_PERCENT, ...parts });
  }
  const rowOf = (rows: Row[], studentId: number, subjectId?: number) => rows.find((row) => row.studentId === studentId && (subjectId === undefined || row.subjectId === subjectId));
  return { term, report, settled, keyOf, rowOf };
}

describe('the attendance report cache', () => {
  // These tests read and write what the service keeps in Redis, through its client: at 100 ms (the
  // default) a command on a loaded machine (load 27) timed out with Redis answering, the connection was
  // dropped and the test's next command refused ("Stream isn't writeable"), or the report went uncached.
  const { clock, service, world: w } = useAttendance('2026-04-20T10:00:00Z', { REDIS_COMMAND_TIMEOUT_MS: 5000 });
  const { term, report, settled, keyOf, rowOf } = helpers(clock, service, w);
  const redis = () => service().ctx.redis;

  test('two databases cloned from one migrated template never share a cached report: their epochs differ', async () => {
    // Test databases are copies of one migrated template, as a restored backup is of its original: the
    // global row's random epoch is the same in each, and equal versions would meet in Redis.
    const other = await startAcademic({}, { clock });
    try {
      const [mine, theirs] = [await reportVersions(em(service()), undefined), await reportVersions(em(other), undefined)];
      expect(mine!.epoch).not.toBe(theirs!.epoch);
    } finally {
      await stopTestService(other);
    }
  });

  test('a cached report is the computed one, stored and sent as its JSON text', async () => {
    const { place } = await term();
    for (const query of [`subjectId=${place.subjectId}`, '', `subjectId=${place.subjectId}&centerId=${place.centerId}`, `subjectId=${place.subjectId}&below=70`]) {
      const params = new URLSearchParams(query);
      const parts = { subjectId: params.has('subjectId') ? Number(params.get('subjectId')) : undefined, centerId: params.has('centerId') ? Number(params.get('centerId')) : undefined, below: params.has('below') ? Number(params.get('below')) : undefined };
      const key = await keyOf(parts);
      await redis().del(key);
      const computed = await report(query);
      expect(computed.status).toBe(200);
      expect(computed.body.data.length).toBeGreaterThan(0);
      expect(await redis().get(key)).toBe(computed.text);
      const cached = await report(query);
      expect(cached.status).toBe(200);
      expect(cached.headers['content-type']).toMatch(/^application\/json/);
      expect(cached.text).toBe(computed.text);
      // The hit is what Redis holds, sent as is.
      await redis().set(key, '{"from":"stored"}', 'EX', 60);
      expect((await report(query)).body).toEqual({ from: 'stored' });
      await redis().del(key);
      expect((await report(query)).text).toBe(computed.text);
    }
  });

  test('every kind of change shows in the next report at once: a mark, a class moved or deleted, a student or subject renamed, a weight', async () => {
    const { place, students, events } = await term();
    const [first, second, third] = students as [number, number, number];
    const bySubject = `subjectId=${place.subjectId}`;
    expect(rowOf(await settled(bySubject), first)).toMatchObject({ sessions: 3, counts: { P: 1, L: 1, A: 1 }, percentage: 60 });

    // A mark saved.
    expect((await w.take(events[2]!, { marks: [{ studentId: first, status: 'P' }] }, adminToken)).status).toBe(200);
    expect(rowOf(await settled(bySubject), first)).toMatchObject({ sessions: 3, counts: { P: 2, L: 1 }, percentage: 93.33 });

    // A status's weight changed (and back).
    const statuses = (await w.api().get('/api/v2/attendance/statuses').set(adminToken)).body.data as { code: string; name: string; weight: number | null }[];
    const late = (weight: number) => statuses.map((status) => (status.code === 'L' ? { ...status, weight } : status));
    expect((await w.api().put('/api/v2/attendance/statuses').set(adminToken).send({ statuses: late(0.5) })).status).toBe(200);
    try {
      expect(rowOf(await settled(bySubject), first)?.percentage).toBe(83.33);
      expect(rowOf(await settled(''), first, place.subjectId)?.percentage).toBe(83.33);
    } finally {
      expect((await w.api().put('/api/v2/attendance/statuses').set(adminToken).send({ statuses: late(0.8) })).status).toBe(200);
    }
    expect(rowOf(await settled(bySubject), first)?.percentage).toBe(93.33);

    // A student renamed, a subject renamed (each report cached just before the change).
    await settled(bySubject);
    await w.f.query(`update students set name = 'Renamed' where id = ?`, [second]);
    expect(rowOf(await settled(bySubject), second)?.studentName).toMatch(/^Renamed /);
    await settled('');
    await w.f.query(`update subjects set name = 'Renamed subject' where id = ?`, [place.subjectId]);
    expect(rowOf(await settled(''), second, place.subjectId)?.subjectName).toBe('Renamed subject');

    // A class moved to another subject: it leaves this subject's report and shows under the other in the whole one.
    const other = await w.place();
    await settled(bySubject);
    await settled(`subjectId=${other.subjectId}`);
    await settled('');
    expect((await w.api().patch(`/api/v2/calendar-events/${events[0]}`).set(adminToken).send({ subjectId: other.subjectId })).status).toBe(200);
    expect(rowOf(await settled(bySubject), third)).toMatchObject({ sessions: 2, counts: { A: 1, P: 1 } });
    expect(rowOf(await settled(`subjectId=${other.subjectId}`), third)).toMatchObject({ subjectId: other.subjectId, sessions: 1, counts: { E: 1 } });
    expect(rowOf(await settled(''), third, other.subjectId)).toMatchObject({ sessions: 1, counts: { E: 1 } });

    // A class moved within its month and subject, out of the range (read from the marks, not the totals).
    clock.set('2026-05-20T10:00:00Z');
    const inMay = `subjectId=${place.subjectId}&from=2026-04-01&to=2026-05-31`;
    const before = await w.api().get(`/api/v2/attendance/report?${inMay}`).set(adminToken);
    expect(rowOf(before.body.data, third)).toMatchObject({ sessions: 1, counts: { P: 1 } });
    expect((await w.api().get(`/api/v2/attendance/report?${inMay}`).set(adminToken)).text).toBe(before.text);
    expect((await w.api().patch(`/api/v2/calendar-events/${events[2]}`).set(adminToken).send({ startsAt: '2026-03-31T08:00:00Z', endsAt: '2026-03-31T09:00:00Z' })).status).toBe(200);
    expect((await w.api().get(`/api/v2/attendance/report?${inMay}`).set(adminToken)).body.data).toEqual([]);

    // A class deleted.
    expect(rowOf(await settled(bySubject), third)).toMatchObject({ sessions: 2, counts: { A: 1, P: 1 } });
    expect((await w.api().delete(`/api/v2/calendar-events/${events[1]}`).set(adminToken)).status).toBe(200);
    expect(rowOf(await settled(bySubject), third)).toMatchObject({ sessions: 1, counts: { P: 1 } });
  });

  test("a teacher's report is never served from the cache, nor stored", async () => {
    const { place, students } = await term();
    const query = `subjectId=${place.subjectId}`;
    const key = await keyOf({ subjectId: place.subjectId });
    await redis().del(key);
    const teachers = await report(query, place.token);
    expect(teachers.status).toBe(200);
    expect(teachers.body.data.map((row: Row) => row.studentId)).toEqual(students);
    expect(await redis().get(key)).toBeNull();
    await redis().set(key, '{"from":"stored"}', 'EX', 60);
    expect((await report(query)).body).toEqual({ from: 'stored' });
    expect((await report(query, place.token)).text).toBe(teachers.text);
    await redis().del(key);
  });

  test('the CSV is not cached', async () => {
    const { place } = await term();
    const key = await keyOf({ subjectId: place.subjectId });
    await redis().del(key);
    const csv = await report(`subjectId=${place.subjectId}`).set('accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(await redis().get(key)).toBeNull();
  });
});

describe('the attendance report with Redis unreachable', () => {
  // Nothing listens on port 1: every report is computed.
  const { clock, service, world: w } = useAttendance('2026-04-20T10:00:00Z', { REDIS_URL: 'redis://127.0.0.1:1' });
  const { term, report, rowOf } = helpers(clock, service, w);

  test('the report still answers 200 with the right data, and changes show at once', async () => {
    const { place, students, events } = await term();
    const res = await report(`subjectId=${place.subjectId}`);
    expect(res.status).toBe(200);
    expect(rowOf(res.body.data, students[0]!)).toMatchObject({ sessions: 3, counts: { P: 1, L: 1, A: 1 }, percentage: 60 });
    expect((await w.take(events[2]!, { marks: [{ studentId: students[0]!, status: 'P' }] }, adminToken)).status).toBe(200);
    const after = await report(`subjectId=${place.subjectId}`);
    expect(after.status).toBe(200);
    expect(rowOf(after.body.data, students[0]!)?.percentage).toBe(93.33);
  });
});

describe('the attendance report when Redis goes away and comes back', () => {
  const { clock, service, world: w } = useAttendance('2026-04-20T10:00:00Z');
  const { term, report, settled, rowOf } = helpers(clock, service, w);

  test('computed while Redis is away; cached again once it is back, never stale', async () => {
    const { place, students, events } = await term();
    const query = `subjectId=${place.subjectId}`;
    expect(rowOf(await settled(query), students[0]!)?.percentage).toBe(60);
    const redis = service().ctx.redis;
    redis.disconnect();
    try {
      expect((await w.take(events[2]!, { marks: [{ studentId: students[0]!, status: 'P' }] }, adminToken)).status).toBe(200);
      const res = await report(query);
      expect(res.status).toBe(200);
      expect(rowOf(res.body.data, students[0]!)?.percentage).toBe(93.33);
    } finally {
      await redis.connect();
    }
    expect(rowOf(await settled(query), students[0]!)?.percentage).toBe(93.33);
  });
});
