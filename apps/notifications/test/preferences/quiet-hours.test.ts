import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { EventData } from '@academy/contracts';
import { fixedClock } from '@academy/kit';
import { bearer } from '@academy/testing';
import { startTestService } from '@academy/testing/harness';
import { defineNotificationsService } from '../../src/service.ts';
import type { NotificationsContext } from '../../src/notifications-context.ts';
import { releaseHeldPushes } from '../../src/push/release-held-pushes.ts';
import { envelope, sql, stopNotifications, until, useNotificationsWithSmtp, type Notifications } from '../support.ts';

// 23:30 in Madrid (CEST) on Monday 4 May; the quiet hours end at 07:00 on the 5th, 05:00 UTC.
const clock = fixedClock('2026-05-04T21:30:00Z');
const contextOf = (instance: Notifications) => instance.deps as NotificationsContext;
const as = (userId: number) => bearer({ sub: String(userId), role: 'user' });
let nextId = 1;

function missing(userId: number, tag: string): EventData<'attendance.missing'> {
  const id = nextId++;
  return {
    employeeId: 400 + id,
    day: '2026-05-04',
    teacher: { name: 'Marta Ruiz', email: `teacher.${tag}@school.test`, userId },
    missingCount: 1,
    classes: [{ eventId: 10 + id, subjectId: 1, subjectName: 'Matemáticas', centerId: 1, centerName: 'Centro Norte', startsAt: '2026-05-04T09:00:00+02:00', endsAt: '2026-05-04T10:00:00+02:00' }],
  };
}

describe('quiet hours for push (pinned clock)', () => {
  const { service, publish, mailsTo } = useNotificationsWithSmtp({ HELD_PUSH_POLL_MS: 0 }, { clock });

  const put = (userId: number, body: unknown) => request(service().url).put('/api/v2/notifications/preferences').set(as(userId)).send(body as object);
  const quietOf = async (userId: number) => (await request(service().url).get('/api/v2/notifications/preferences').set(as(userId))).body.data.quietHours;
  const device = (userId: number, token: string) => request(service().url).post('/api/v2/notifications/token').set(as(userId)).send({ deviceId: `device-${token}`, token, platform: 'android' });
  const pushesTo = (userId: number) => sql<{ event_type: string; status: string }>(service(), `select event_type, status from deliveries where channel = 'push' and user_id = ? order by id`, [userId]);
  const held = (userId: number) => sql<{ release_at: Date; sent_at: Date | null }>(service(), `select release_at, sent_at from held_pushes where user_id = ? order by id`, [userId]);

  test('quiet hours are set, read back and removed with the preferences; bad ones are a 400 naming the field, nothing changed', async () => {
    expect(await quietOf(600)).toBeNull();
    const set = await put(600, { quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Madrid' } });
    expect(set.status).toBe(200);
    expect(set.body.data.quietHours).toEqual({ start: '22:00', end: '07:00', timeZone: 'Europe/Madrid' });
    expect(set.body.data.preferences).toHaveLength(14);
    for (const [quietHours, field] of [
      [{ start: '25:00', end: '07:00', timeZone: 'Europe/Madrid' }, 'quietHours.start'],
      [{ start: '22:00', end: '07:00', timeZone: 'Mars/Olympus' }, 'quietHours.timeZone'],
      [{ start: '22:00', end: '22:00', timeZone: 'Europe/Madrid' }, 'quietHours.end'],
      [{ start: '22:00', end: '07:00' }, 'quietHours.timeZone'],
    ] as const) {
      const refused = await put(600, { quietHours });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain(field);
    }
    const alsoCritical = await put(600, { quietHours: { start: '21:00', end: '06:00', timeZone: 'UTC' }, preferences: [{ type: 'incident', channel: 'push', enabled: false }] });
    expect(alsoCritical.status).toBe(400);
    expect(await quietOf(600)).toEqual({ start: '22:00', end: '07:00', timeZone: 'Europe/Madrid' });
    expect((await put(600, { quietHours: null })).body.data.quietHours).toBeNull();
    expect((await put(600, {})).status).toBe(400);
  });

  test('a non-critical push during them is held and sent once when they end, whatever the instances; a critical one and the e-mail go at once; a user without quiet hours gets it at once', async () => {
    clock.set('2026-05-04T21:30:00Z');
    expect((await put(601, { quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Madrid' } })).status).toBe(200);
    expect((await device(601, 'quiet-token')).status).toBe(200);
    expect((await device(602, 'awake-token')).status).toBe(200);

    await publish(envelope('attendance.missing', missing(601, 'quiet')));
    await publish(envelope('attendance.missing', missing(602, 'awake')));
    await publish(envelope('payslip.published', {
      payslipId: 77,
      employeeId: 3,
      employee: { name: 'Marta Ruiz', email: 'employee.quiet@school.test', userId: 601 },
      label: 'Nómina mayo',
      periodStart: '2026-05-01',
      periodEnd: '2026-05-31',
      issuedOn: '2026-05-04',
      supersedesPayslipId: null,
      batchId: null,
    }));
    expect(await pushesTo(601)).toEqual([{ event_type: 'payslip.published', status: 'recorded' }]);
    expect(await pushesTo(602)).toEqual([{ event_type: 'attendance.missing', status: 'recorded' }]);
    expect((await held(601)).map((row) => [new Date(row.release_at).toISOString(), row.sent_at])).toEqual([['2026-05-05T05:00:00.000Z', null]]);
    // E-mail is unaffected.
    await until(async () => mailsTo('teacher.quiet@school.test').length > 0, 10_000, 'the reminder mail');

    clock.set('2026-05-05T04:59:00Z');
    expect(await releaseHeldPushes(contextOf(service()), { now: clock.now() })).toBe(0);

    clock.set('2026-05-05T05:00:00Z');
    const second = await startTestService(defineNotificationsService(), service().ctx.config, { clock });
    try {
      const sent = await Promise.all([service(), second, service(), second].map((instance) => releaseHeldPushes(contextOf(instance), { now: clock.now() })));
      expect(sent.reduce((sum, n) => sum + n, 0)).toBe(1);
    } finally {
      await stopNotifications(second, false);
    }
    expect(await pushesTo(601)).toEqual([
      { event_type: 'payslip.published', status: 'recorded' },
      { event_type: 'attendance.missing', status: 'recorded' },
    ]);
    expect((await held(601))[0]!.sent_at).not.toBeNull();
    const [recorded] = await sql<{ count: number }>(service(), `select count(*)::int as count from recorded_pushes where tokens::text like '%quiet-token%'`);
    expect(recorded!.count).toBe(2);
    clock.set('2026-05-05T06:00:00Z');
    expect(await releaseHeldPushes(contextOf(service()), { now: clock.now() })).toBe(0);
  });
});
