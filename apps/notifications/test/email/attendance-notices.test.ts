import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ParsedMail } from 'mailparser';
import type { EventData } from '@academy/contracts';
import { onAttendanceMissing } from '../../src/email/attendance-notices.handler.ts';
import { envelope, handled, notificationsConfig, sleep, sql, startNotifications, stopNotifications, until, type Notifications } from '../support.ts';
import { recipientsOf, startSmtp, type TestSmtp } from '../smtp.ts';

const APP_URL = 'https://app.academy.test/';
let nextId = 1;

function missing(tag: string, overrides: Partial<EventData<'attendance.missing'>> = {}): EventData<'attendance.missing'> {
  const id = nextId++;
  return {
    employeeId: 400 + id,
    day: '2026-05-04',
    teacher: { name: 'Marta Ruiz', email: `teacher.${tag}@school.test`, userId: 8000 + id },
    missingCount: 2,
    classes: [
      { eventId: 10 + id, subjectId: 1, subjectName: 'Matemáticas', centerId: 1, centerName: 'Centro Norte', startsAt: '2026-04-30T09:00:00+02:00', endsAt: '2026-04-30T10:00:00+02:00' },
      { eventId: 20 + id, subjectId: 2, subjectName: 'Física', centerId: 1, centerName: 'Centro Norte', startsAt: '2026-05-03T23:30:00+02:00', endsAt: '2026-05-04T01:30:00+02:00' },
    ],
    ...overrides,
  };
}

function crossed(tag: string, overrides: Partial<EventData<'attendance.threshold-crossed'>> = {}): EventData<'attendance.threshold-crossed'> {
  const id = nextId++;
  return {
    studentId: 600 + id,
    studentName: 'Pablo Gil',
    subjectId: 3,
    subjectName: 'Química',
    percentage: 71.43,
    thresholdPercent: 80,
    sessions: 7,
    eventId: 30 + id,
    crossedAt: '2026-05-04T10:00:00.000Z',
    guardian: { name: 'Ana Gil', email: `guardian.${tag}@family.test` },
    admins: [
      { name: 'Admin One', email: `admin1.${tag}@school.test` },
      { name: 'Admin Two', email: `admin2.${tag}@school.test` },
    ],
    ...overrides,
  };
}

type RecordedPush = { tokens: string[]; message: { notification: { title: string; body: string }; data: Record<string, string> } };

describe('attendance notices: the teacher reminder (mail + push) and the threshold warning (mails to the admins and the guardian)', () => {
  let smtp: TestSmtp;
  let service: Notifications;

  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startNotifications(await notificationsConfig({ ACADEMY_LOCALE: 'en', SMTP_URL: smtp.url, APP_URL }));
  });
  afterAll(async () => {
    await stopNotifications(service);
    await smtp.close();
  });

  const mailsTo = (tag: string) => smtp.mails.filter((mail) => recipientsOf(mail).some((address) => address.includes(`.${tag}@`)));
  const device = (userId: number, token: string) =>
    sql(service, `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (?, ?, ?, 'android', now(), now(), now())`, [userId, `phone-${token}`, token]);
  const pushesTo = (token: string) => sql<RecordedPush>(service, `select tokens, message from recorded_pushes where tokens @> ?::jsonb`, [JSON.stringify([token])]);
  async function publish(tag: string, count: number, ...events: ReturnType<typeof envelope>[]): Promise<ParsedMail[]> {
    await service.ctx.broker.publish(events);
    for (const event of events) await handled(service, event.id, service.ctx.config.EMAIL_QUEUE);
    if (count > 0) await until(async () => mailsTo(tag).length >= count, 10_000, `${count} mails to ${tag}`);
    await sleep(400);
    return mailsTo(tag);
  }

  test('attendance.missing: one mail to the teacher listing the classes in the academy time, and one push', async () => {
    const data = missing('reminder');
    await device(data.teacher.userId!, 'reminder-token');
    const event = envelope('attendance.missing', data);
    const mails = await publish('reminder', 1, event);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Attendance to take: 2 classes');
    expect(mails[0]!.text).toContain('Hello Marta Ruiz,');
    expect(mails[0]!.text).toContain('· Matemáticas at Centro Norte: Thu, 30 April 2026, 09:00–10:00');
    expect(mails[0]!.text).toContain('· Física at Centro Norte: Sun, 3 May 2026, 23:30–Mon, 4 May 2026, 01:30');
    expect(mails[0]!.text).toContain('https://app.academy.test/attendance');
    const pushes = await pushesTo('reminder-token');
    expect(pushes).toHaveLength(1);
    expect(pushes[0]!.message.notification.title).toBe('Attendance to take');
    expect(pushes[0]!.message.data).toEqual({ type: 'attendance_missing', day: '2026-05-04', missingCount: '2' });
  });

  test('attendance.missing delivered three times, and handled once more past the inbox: one mail and one push', async () => {
    const data = missing('again');
    await device(data.teacher.userId!, 'again-token');
    const event = envelope('attendance.missing', data);
    await publish('again', 1, event, event, event);
    const sends: string[][] = [];
    const push = { kind: 'recording' as const, send: async (_message: unknown, tokens: string[]) => (sends.push(tokens), tokens.map(() => ({ ok: true as const }))), close: async () => undefined };
    await service.ctx.orm.em.fork().transactional((em) => onAttendanceMissing({ orm: service.ctx.orm, push, wake: () => undefined, appUrl: APP_URL, academy: { locale: 'en', timeZone: 'Europe/Madrid' }, clock: service.ctx.clock })(em, event));
    expect(sends).toEqual([]);
    await sleep(600);
    expect(mailsTo('again')).toHaveLength(1);
    expect(await pushesTo('again-token')).toHaveLength(1);
  });

  test('attendance.threshold-crossed: one mail to each admin and one to the guardian, recorded as deliveries; redelivery sends nothing more', async () => {
    const data = crossed('warning');
    const event = envelope('attendance.threshold-crossed', data);
    const mails = await publish('warning', 3, event, event);
    expect(mails).toHaveLength(3);
    const guardian = mails.find((mail) => recipientsOf(mail).includes('guardian.warning@family.test'))!;
    expect(guardian.subject).toBe('Attendance below 80%: Pablo Gil (Química)');
    expect(guardian.text).toContain("Hello Ana Gil,");
    expect(guardian.text).toContain("Pablo Gil's attendance in Química has fallen to 71.43%, below the 80% the academy asks for, over 7 sessions.");
    const deliveries = await sql(service, `select recipient, template, status from deliveries where event_id = ? order by recipient`, [event.id]);
    expect(deliveries).toEqual([
      { recipient: 'admin1.warning@school.test', template: 'attendanceWarningAdminTemplate', status: 'sent' },
      { recipient: 'admin2.warning@school.test', template: 'attendanceWarningAdminTemplate', status: 'sent' },
      { recipient: 'guardian.warning@family.test', template: 'attendanceWarningGuardianTemplate', status: 'sent' },
    ]);
  });

  test('no guardian and no admin address: nothing sent, nothing fails', async () => {
    const before = smtp.mails.length;
    const event = envelope('attendance.threshold-crossed', crossed('nobody', { guardian: null, admins: [] }));
    await publish('nobody', 0, event);
    expect(smtp.mails.length).toBe(before);
    expect(await sql(service, `select id from deliveries where event_id = ?`, [event.id])).toEqual([]);
  });
});
