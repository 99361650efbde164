import { describe, expect, test } from '@jest/globals';
import type { EventData } from '@academy/contracts';
import { onAttendanceMissing } from '../../src/email/attendance-notices.handler.ts';
import type { NotificationsContext } from '../../src/notifications-context.ts';
import { sendPush } from '../../src/push/send-push.ts';
import { countingPushProvider, envelope, sleep, sql, tagged, useNotificationsWithSmtp } from '../support.ts';
import { recipientsOf } from '../smtp.ts';

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

describe('attendance notices: the teacher reminder (mail + push) and the threshold warning (mails to the admins and the guardian)', () => {
  const { service, smtp, publish, settledMailsTo, mailsTo, device, pushesTo } = useNotificationsWithSmtp({ ACADEMY_LOCALE: 'en', APP_URL });

  test('attendance.missing: one mail to the teacher listing the classes in the academy time, and one push', async () => {
    const data = missing('reminder');
    await device(data.teacher.userId!, 'reminder-token');
    const event = envelope('attendance.missing', data);
    await publish(event);
    const mails = await settledMailsTo(tagged('reminder'), 1);
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
    await publish(event, event, event);
    await settledMailsTo(tagged('again'), 1);
    const { push, sends } = countingPushProvider();
    const ctx = { ...(service().deps as NotificationsContext), push };
    await ctx.orm.em.fork().transactional((em) => onAttendanceMissing({ sendPush: (input) => sendPush(ctx, input), wake: () => undefined, appUrl: APP_URL, academy: { locale: 'en', timeZone: 'Europe/Madrid' } })(em, event));
    expect(sends).toEqual([]);
    await sleep(600);
    expect(mailsTo(tagged('again'))).toHaveLength(1);
    expect(await pushesTo('again-token')).toHaveLength(1);
  });

  test('attendance.threshold-crossed: one mail to each admin and one to the guardian, recorded as deliveries; redelivery sends nothing more', async () => {
    const data = crossed('warning');
    const event = envelope('attendance.threshold-crossed', data);
    await publish(event, event);
    const mails = await settledMailsTo(tagged('warning'), 3);
    expect(mails).toHaveLength(3);
    const guardian = mails.find((mail) => recipientsOf(mail).includes('guardian.warning@family.test'))!;
    expect(guardian.subject).toBe('Attendance below 80%: Pablo Gil (Química)');
    expect(guardian.text).toContain("Hello Ana Gil,");
    expect(guardian.text).toContain("Pablo Gil's attendance in Química has fallen to 71.43%, below the 80% the academy asks for, over 7 sessions.");
    const deliveries = await sql(service(), `select recipient, template, status from deliveries where event_id = ? order by recipient`, [event.id]);
    expect(deliveries).toEqual([
      { recipient: 'admin1.warning@school.test', template: 'attendanceWarningAdminTemplate', status: 'sent' },
      { recipient: 'admin2.warning@school.test', template: 'attendanceWarningAdminTemplate', status: 'sent' },
      { recipient: 'guardian.warning@family.test', template: 'attendanceWarningGuardianTemplate', status: 'sent' },
    ]);
  });

  test('no guardian and no admin address: nothing sent, nothing fails', async () => {
    const before = smtp().mails.length;
    const event = envelope('attendance.threshold-crossed', crossed('nobody', { guardian: null, admins: [] }));
    await publish(event);
    await sleep(400);
    expect(smtp().mails.length).toBe(before);
    expect(await sql(service(), `select id from deliveries where event_id = ?`, [event.id])).toEqual([]);
  });
});
