import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { EventData } from '@academy/contracts';
import { bearer } from '@academy/testing';
import { recordingPushProvider } from '../../src/push/push-provider.ts';
import type { NotificationsContext } from '../../src/notifications-context.ts';
import { sendPush } from '../../src/push/send-push.ts';
import { envelope, sleep, sql, until, useNotificationsWithSmtp } from '../support.ts';

let nextId = 1;
const as = (userId: number) => bearer({ sub: String(userId), role: 'user' });

function approval(tag: string, teacherUserId: number): EventData<'block.approved'> {
  const id = nextId++;
  return {
    studentBlockId: id,
    blockId: 30 + id,
    blockName: 'Block 3',
    subjectId: 7,
    subjectName: 'Mathematics',
    studentId: 500 + id,
    grade: null,
    nextBlock: null,
    subjectCompleted: true,
    teacher: { name: 'Marta Ruiz', email: `teacher.${tag}@school.test`, userId: teacherUserId },
    student: { name: 'Leo Gil', email: `student.${tag}@school.test` },
    guardian: null,
  };
}

describe('notification preferences (real SMTP server)', () => {
  const { service, publish, mailsTo } = useNotificationsWithSmtp();

  const get = (userId: number) => request(service().url).get('/api/v2/notifications/preferences').set(as(userId));
  const put = (userId: number, body: unknown) => request(service().url).put('/api/v2/notifications/preferences').set(as(userId)).send(body as object);
  const setting = (body: { data: { preferences: { type: string; channel: string; enabled: boolean }[] } }, type: string, channel: string) =>
    body.data.preferences.find((row) => row.type === type && row.channel === channel)?.enabled;
  const deliveriesOf = (eventId: string) =>
    sql<{ channel: string; recipient: string; status: string }>(service(), `select channel, recipient, status from deliveries where event_id = ? order by recipient`, [eventId]);

  describe('GET and PUT /api/v2/notifications/preferences', () => {
    test('a user who set nothing has every type on on both channels, the critical ones marked', async () => {
      const response = await get(101);
      expect(response.status).toBe(200);
      expect(response.body.data.preferences).toHaveLength(14);
      expect(response.body.data.preferences.every((row: { enabled: boolean }) => row.enabled)).toBe(true);
      expect(response.body.data.preferences.filter((row: { critical: boolean }) => row.critical).map((row: { type: string; channel: string }) => `${row.type}/${row.channel}`)).toEqual([
        'incident/email',
        'incident/push',
        'payslip_published/email',
        'payslip_published/push',
      ]);
    });

    test('switching a type off on one channel changes that setting only, for that user only', async () => {
      const response = await put(102, { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: false }] });
      expect(response.status).toBe(200);
      expect(setting(response.body, 'attendance_reminder', 'push')).toBe(false);
      expect(setting(response.body, 'attendance_reminder', 'email')).toBe(true);
      expect(setting((await get(102)).body, 'attendance_reminder', 'push')).toBe(false);
      expect(setting((await get(103)).body, 'attendance_reminder', 'push')).toBe(true);
      const back = await put(102, { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: true }] });
      expect(setting(back.body, 'attendance_reminder', 'push')).toBe(true);
    });

    test('a malformed JSON body is a 400 in the family\'s error body (`success: false`), and nothing is stored', async () => {
      const response = await request(service().url).put('/api/v2/notifications/preferences').set(as(109)).type('json').send('{"preferences": [');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, code: 'MALFORMED_JSON', message: 'Request body is not valid JSON', requestId: expect.any(String) });
      expect(await sql(service(), `select 1 from notification_preferences where user_id = ?`, [109])).toEqual([]);
    });

    test('switching a critical type off is a 400 naming it, and nothing of the request is stored', async () => {
      const response = await put(104, {
        preferences: [
          { type: 'block_approved', channel: 'email', enabled: false },
          { type: 'payslip_published', channel: 'push', enabled: false },
          { type: 'incident', channel: 'email', enabled: false },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'CRITICAL_NOTIFICATION_TYPE' });
      expect(response.body.message).toContain('payslip_published (push)');
      expect(response.body.message).toContain('incident (email)');
      expect(await sql(service(), `select * from notification_preferences where user_id = 104`)).toEqual([]);
    });

    test.each([
      ['an unknown type', { preferences: [{ type: 'newsletter', channel: 'email', enabled: false }] }, 'preferences.0.type'],
      ['an unknown channel', { preferences: [{ type: 'block_approved', channel: 'sms', enabled: false }] }, 'preferences.0.channel'],
      ['enabled not a boolean', { preferences: [{ type: 'block_approved', channel: 'email', enabled: 'no' }] }, 'preferences.0.enabled'],
      ['no settings', { preferences: [] }, 'preferences'],
      ['a field it does not take', { preferences: [{ type: 'block_approved', channel: 'email', enabled: false, userId: 1 }] }, 'userId'],
    ])('%s is a 400 naming the field, nothing stored', async (_case, body, field) => {
      const response = await put(105, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(response.body.message).toContain(field);
      expect(await sql(service(), `select * from notification_preferences where user_id = 105`)).toEqual([]);
    });

    test('without a token: 401', async () => {
      expect((await request(service().url).get('/api/v2/notifications/preferences')).status).toBe(401);
    });
  });

  describe('honoured at send time', () => {
    test('a teacher who switched block approvals off by e-mail gets no mail (a "skipped" delivery, in the listing), the student still does', async () => {
      expect((await put(201, { preferences: [{ type: 'block_approved', channel: 'email', enabled: false }] })).status).toBe(200);
      const event = envelope('block.approved', approval('skip', 201));
      await publish(event);
      await until(async () => mailsTo('student.skip@school.test').length === 1, 10_000, 'the student mail');
      await until(async () => (await deliveriesOf(event.id)).every((row) => row.status !== 'pending' && row.status !== 'sending'), 10_000, 'both settled');
      await sleep(300);
      expect(mailsTo('teacher.skip@school.test')).toEqual([]);
      expect(await deliveriesOf(event.id)).toEqual([
        { channel: 'email', recipient: 'student.skip@school.test', status: 'sent' },
        { channel: 'email', recipient: 'teacher.skip@school.test', status: 'skipped' },
      ]);
      const listed = await request(service().url).get('/api/v2/notifications/deliveries?status=skipped&recipient=teacher.skip@school.test').set(bearer({ sub: '1', role: 'admin' }));
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([expect.objectContaining({ status: 'skipped', userId: 201, lastError: expect.stringContaining('preference') })]);
    });

    test('a type switched off by e-mail only: another type still mails, and the same type of another teacher too', async () => {
      expect((await put(202, { preferences: [{ type: 'attendance_warning', channel: 'email', enabled: false }] })).status).toBe(200);
      const own = envelope('block.approved', approval('othertype', 202));
      const other = envelope('block.approved', approval('otherteacher', 203));
      await service().ctx.broker.publish([own, other]);
      await until(async () => mailsTo('teacher.othertype@school.test').length === 1 && mailsTo('teacher.otherteacher@school.test').length === 1, 10_000, 'both teachers');
    });

    test('a critical type is delivered on both channels even when a stored setting says off', async () => {
      // The API refuses it; a row written by hand (or by an older version) must not silence a payslip either.
      await sql(service(), `insert into notification_preferences (user_id, type, channel, enabled, updated_at) values (204, 'payslip_published', 'email', false, now()), (204, 'payslip_published', 'push', false, now())`);
      await sql(service(), `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (204, 'phone', 'critical-token', 'android', now(), now(), now())`);
      const event = envelope('payslip.published', {
        payslipId: 1,
        employeeId: 2,
        employee: { name: 'Lucía Pérez', email: 'employee.critical@school.test', userId: 204 },
        label: 'Nómina',
        periodStart: '2026-11-01',
        periodEnd: '2026-11-30',
        issuedOn: '2026-11-28',
        supersedesPayslipId: null,
        batchId: null,
      });
      await service().ctx.broker.publish([event]);
      await until(async () => mailsTo('employee.critical@school.test').length === 1, 10_000, 'the payslip mail');
      expect(await sql(service(), `select status from deliveries where channel = 'push' and recipient = 'user:204'`)).toEqual([{ status: 'recorded' }]);
    });

    test('push: a user who switched a type off for push gets nothing on their devices (recorded as skipped); the others do', async () => {
      expect((await put(205, { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: false }] })).status).toBe(200);
      await sql(service(), `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (205, 'phone', 'off-token', 'android', now(), now(), now()), (206, 'phone', 'on-token', 'ios', now(), now(), now())`);
      const sent: string[][] = [];
      const recording = recordingPushProvider(service().ctx.config.DATABASE_URL);
      const provider = { ...recording, send: (message: Parameters<typeof recording.send>[0], tokens: string[]) => (sent.push(tokens), recording.send(message, tokens)) };
      const ctx = { ...(service().deps as NotificationsContext), push: provider };
      const response = await sendPush(ctx, { message: { userIds: [205, 206], title: 'Attendance', body: 'Take the register' }, eventType: 'attendance.missing' });
      expect(sent).toEqual([['on-token']]);
      expect(response).toMatchObject({ tokensCount: 1, successCount: 1 });
      expect(await sql(service(), `select recipient, status from deliveries where channel = 'push' and user_id in (205, 206) order by recipient`)).toEqual([
        { recipient: 'user:205', status: 'skipped' },
        { recipient: 'user:206', status: 'recorded' },
      ]);
      // The same user, a type still on: pushed.
      await sendPush(ctx, { message: { userIds: [205], title: 'Warning', body: 'Attendance below threshold' }, eventType: 'attendance.threshold-crossed' });
      expect(sent).toEqual([['on-token'], ['off-token']]);
    });
  });
});
