import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { EventData } from '@academy/contracts';
import { unsubscribeToken } from '../../src/email/unsubscribe-token.ts';
import { startGatewayProcess, type TestGateway } from '../gateway.ts';
import { envelope, handled, notificationsConfig, sleep, sql, startNotifications, stopNotifications, until, type Notifications } from '../support.ts';
import { recipientsOf, startSmtp, type TestSmtp } from '../smtp.ts';

const SECRET = 'test-unsubscribe-secret-0123456789abcdef';
let nextId = 700;

function approval(guardianEmail: string, studentEmail: string): EventData<'block.approved'> {
  const id = nextId++;
  return {
    studentBlockId: id,
    blockId: 30 + id,
    blockName: 'Bloque 1',
    subjectId: 7,
    subjectName: 'Matemáticas',
    studentId: 500 + id,
    grade: null,
    nextBlock: null,
    subjectCompleted: false,
    teacher: null,
    student: { name: 'Leo Gil', email: studentEmail, userId: 80 + id },
    guardian: { name: 'Eva Gil', email: guardianEmail },
  };
}

function warning(guardianEmail: string): EventData<'attendance.threshold-crossed'> {
  return {
    studentId: 42,
    studentName: 'Leo Gil',
    subjectId: 7,
    subjectName: 'Matemáticas',
    percentage: 70,
    thresholdPercent: 80,
    sessions: 5,
    eventId: nextId++,
    crossedAt: '2026-05-04T09:00:00+02:00',
    guardian: { name: 'Eva Gil', email: guardianEmail },
    admins: [],
  };
}

describe("a guardian's unsubscribe link (real SMTP server, and through the real gateway)", () => {
  let smtp: TestSmtp;
  let service: Notifications;
  let gateway: TestGateway;

  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startNotifications(await notificationsConfig({ SMTP_URL: smtp.url, UNSUBSCRIBE_SECRET: SECRET, PUBLIC_API_URL: 'https://api.academy.test' }));
    gateway = await startGatewayProcess(service.url);
  }, 30_000);
  afterAll(async () => {
    await gateway?.stop();
    await stopNotifications(service);
    await smtp.close();
  });

  const mailsTo = (address: string) => smtp.mails.filter((mail) => recipientsOf(mail).some((to) => to.toLowerCase() === address));
  async function publish<T extends 'block.approved' | 'attendance.threshold-crossed'>(type: T, data: EventData<T>) {
    const event = envelope(type, data);
    await service.ctx.broker.publish([event]);
    await handled(service, event.id, service.ctx.config.EMAIL_QUEUE);
    return event.id;
  }
  const deliveryTo = (eventId: string, recipient: string) =>
    until(
      async () => {
        const [row] = await sql<{ status: string; last_error: string | null }>(service, `select status, last_error from deliveries where event_id = ? and recipient = ?`, [eventId, recipient]);
        return row && row.status !== 'pending' && row.status !== 'sending' ? row : null;
      },
      10_000,
      `the delivery to ${recipient}`,
    );
  const optOuts = () => sql<{ recipient: string; type: string }>(service, `select recipient, type from email_unsubscribes order by recipient, type`);

  test('every guardian mail carries a link for its type and address; the student mail none; opening it through the gateway (no login) confirms in plain HTML; the next such mail is skipped, other types still go', async () => {
    const eventId = await publish('block.approved', approval('Eva.Gil@home.test', 'leo@school.test'));
    const [guardianMail] = await until(async () => (mailsTo('eva.gil@home.test').length ? mailsTo('eva.gil@home.test') : null), 10_000, 'the guardian mail');
    await until(async () => (mailsTo('leo@school.test').length ? true : null), 10_000, 'the student mail');
    expect(guardianMail!.text).toContain('¿No quieres recibir más avisos como este? Date de baja: https://api.academy.test/api/v2/notifications/unsubscribe?token=');
    expect(mailsTo('leo@school.test')[0]!.text).not.toContain('unsubscribe');
    const link = /https:\/\/api\.academy\.test(\/api\/v2\/notifications\/unsubscribe\?token=[\w.-]+)/.exec(guardianMail!.text!)![1]!;
    expect(guardianMail!.html).toContain(`href="https://api.academy.test${link}"`);
    expect((await deliveryTo(eventId, 'eva.gil@home.test')).status).toBe('sent');

    const page = await fetch(`${gateway.url}${link}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<h1>Baja confirmada</h1>');
    expect(html).toContain('eva.gil@home.test ya no recibirá avisos de bloques aprobados por correo electrónico.');
    expect(await optOuts()).toEqual([{ recipient: 'eva.gil@home.test', type: 'block_approved' }]);
    expect((await request(service.url).get(link)).status).toBe(200); // again: the same page, nothing new
    expect(await optOuts()).toHaveLength(1);

    const next = await publish('block.approved', approval('eva.gil@home.test', 'leo2@school.test'));
    expect(await deliveryTo(next, 'eva.gil@home.test')).toEqual({ status: 'skipped', last_error: 'its address unsubscribed from this type (unsubscribe link)' });
    expect((await deliveryTo(next, 'leo2@school.test')).status).toBe('sent');
    const other = await publish('attendance.threshold-crossed', warning('eva.gil@home.test'));
    expect((await deliveryTo(other, 'eva.gil@home.test')).status).toBe('sent');
    await sleep(100);
    expect(mailsTo('eva.gil@home.test')).toHaveLength(2);
  });

  test('a forged, expired, critical-type or malformed token: a plain page saying so, 400, nothing recorded; no token: 400 naming it', async () => {
    const before = await optOuts();
    const valid = unsubscribeToken(SECRET, { type: 'attendance_warning', address: 'x@home.test', expiresAt: new Date(Date.now() + 3_600_000) });
    const [payload, signature] = valid.split('.');
    const tampered = `${Buffer.from(JSON.stringify({ t: 'attendance_warning', a: 'someone.else@home.test', e: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.${signature}`;
    const refused = [
      `${payload}.${signature!.slice(0, -2)}AA`,
      tampered,
      unsubscribeToken('another-secret-entirely-0123456789abcd', { type: 'attendance_warning', address: 'x@home.test', expiresAt: new Date(Date.now() + 3_600_000) }),
      unsubscribeToken(SECRET, { type: 'attendance_warning', address: 'x@home.test', expiresAt: new Date(Date.now() - 1000) }),
      unsubscribeToken(SECRET, { type: 'payslip_published' as never, address: 'x@home.test', expiresAt: new Date(Date.now() + 3_600_000) }),
      'not-a-token',
    ];
    for (const token of refused) {
      const response = await request(service.url).get('/api/v2/notifications/unsubscribe').query({ token });
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain('<h1>Enlace no válido</h1>');
      expect(response.text).toContain('no se ha cambiado nada');
    }
    const missing = await request(service.url).get('/api/v2/notifications/unsubscribe');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('token');
    expect(await optOuts()).toEqual(before);
  });
});
