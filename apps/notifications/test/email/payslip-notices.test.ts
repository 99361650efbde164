import { describe, expect, test } from '@jest/globals';
import { pgArray } from '@academy/db';
import { onPayslipPublished } from '../../src/email/payslip-published.handler.ts';
import type { NotificationsContext } from '../../src/notifications-context.ts';
import { sendPush } from '../../src/push/send-push.ts';
import { countingPushProvider, envelope, payslipPublished, sleep, sql, until, useNotificationsWithSmtp } from '../support.ts';
import { recipientsOf } from '../smtp.ts';

const APP_URL = 'https://app.academy.test/';

const payslip = payslipPublished;

describe('payslip notices on payslip.published and payslip.corrected (real SMTP server, recording push provider)', () => {
  const { service, smtp, publish, settledMailsTo, mailsTo, device, pushesTo } = useNotificationsWithSmtp({ ACADEMY_LOCALE: 'en', APP_URL });
  const employee = (tag: string) => `employee.${tag}@school.test`;

  test('a published payslip: one mail with the label, period and link, no amount and no attachment; one push recorded; both as deliveries', async () => {
    const data = payslip('published');
    await device(data.employee.userId!, 'published-token');
    const event = envelope('payslip.published', data);
    await publish(event);
    const mails = await settledMailsTo(employee('published'), 1);

    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe('A new payslip is available');
    expect(mail.text).toContain('Hello Lucía Pérez,');
    expect(mail.text).toContain('A new payslip is available: Nómina noviembre, for 1 November 2026 to 30 November 2026.');
    expect(mail.text).toContain('Issued on 28 November 2026.');
    expect(mail.text).toContain('Read and download it in the app: https://app.academy.test/payslips');
    expect(mail.html).toContain('<a href="https://app.academy.test/payslips">https://app.academy.test/payslips</a>');
    expect(mail.html).toContain('<strong>Nómina noviembre</strong>');
    expect(mail.attachments).toEqual([]);
    expect(`${mail.text}${mail.html}`).not.toMatch(/€|EUR|\d+[.,]\d{2}\b/);

    const pushes = await pushesTo('published-token');
    expect(pushes).toHaveLength(1);
    expect(pushes[0].message.notification).toEqual({ title: 'A new payslip is available', body: 'Nómina noviembre, 1 November 2026 to 30 November 2026' });
    expect(pushes[0].message.data).toEqual({ type: 'payslip_published', payslipId: String(data.payslipId) });

    const deliveries = await sql(service(), `select channel, event_type, recipient, user_id, template, status from deliveries where event_id = ? or (channel = 'push' and user_id = ?) order by channel`, [event.id, data.employee.userId]);
    expect(deliveries).toEqual([
      { channel: 'email', event_type: 'payslip.published', recipient: 'employee.published@school.test', user_id: data.employee.userId, template: 'payslipPublishedTemplate', status: 'sent' },
      { channel: 'push', event_type: 'payslip.published', recipient: `user:${data.employee.userId}`, user_id: data.employee.userId, template: null, status: 'recorded' },
    ]);
  });

  test('a payslip.published delivered three times, and handled once more past the inbox: one mail and one push', async () => {
    const data = payslip('redelivered');
    await device(data.employee.userId!, 'redelivered-token');
    const event = envelope('payslip.published', data);
    await publish(event, event, event);
    await settledMailsTo(employee('redelivered'), 1);
    // As if the inbox row were lost: the deliveries key and the push's idempotency key alone stop a second notice.
    const { push, sends } = countingPushProvider();
    const ctx = { ...(service().deps as NotificationsContext), push };
    await ctx.orm.em.fork().transactional((em) => onPayslipPublished({ sendPush: (input) => sendPush(ctx, input), wake: () => undefined, appUrl: APP_URL, academy: { locale: 'en', timeZone: 'Europe/Madrid' } })(em, event));
    expect(sends).toEqual([]);
    await sleep(800);
    expect(mailsTo(employee('redelivered'))).toHaveLength(1);
    expect(await pushesTo('redelivered-token')).toHaveLength(1);
    expect(await sql(service(), `select count(*)::int as n from deliveries where event_id = ?`, [event.id])).toEqual([{ n: 1 }]);
  });

  test('a correction: one "corrected" mail that says it replaces the earlier payslip, and a "corrected" push', async () => {
    const data = payslip('corrected', { supersedesPayslipId: 901, label: 'Paga extra', periodStart: '2026-12-01', periodEnd: '2026-12-01', issuedOn: '2026-12-02' });
    await device(data.employee.userId!, 'corrected-token');
    await publish(envelope('payslip.corrected', data));
    const mails = await settledMailsTo(employee('corrected'), 1);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('A corrected payslip is available');
    expect(mails[0].text).toContain('A corrected payslip is available: Paga extra, for 1 December 2026. It replaces the earlier one, which is no longer shown.');
    expect(mails[0].attachments).toEqual([]);
    const pushes = await pushesTo('corrected-token');
    expect(pushes.map((push) => [push.message.notification.title, push.message.data.type])).toEqual([['A corrected payslip is available', 'payslip_corrected']]);
  });

  // `publish` waits for each event's inbox row, written only when its handler succeeded: nothing failed.
  test('an employee without an e-mail address (or with a placeholder) gets no mail, the push still goes, and nothing fails', async () => {
    const before = smtp().mails.length;
    const none = payslip('none', { employee: { name: 'Sin Correo', email: null, userId: 7500 } });
    const placeholder = payslip('placeholder', { employee: { name: 'Placeholder', email: 'sin-email-12@placeholder.invalid', userId: null } });
    await device(7500, 'no-mail-token');
    const events = [envelope('payslip.published', none), envelope('payslip.published', placeholder)];
    await publish(...events);
    await sleep(400);
    expect(smtp().mails.length).toBe(before);
    expect(await pushesTo('no-mail-token')).toHaveLength(1);
    expect(await sql(service(), `select channel from deliveries where event_id = any(?::text[])`, [pgArray(events.map((e) => e.id))])).toEqual([]);
  });

  test('a batch of 300 employees is 300 mails, each once', async () => {
    const before = smtp().mails.length;
    const events = Array.from({ length: 300 }, (_, i) => envelope('payslip.published', payslip(`batch${i}`, { batchId: 55, employee: { name: `Employee ${i}`, email: `employee.batch${i}@school.test`, userId: null } })));
    await service().ctx.broker.publish(events);
    await until(async () => smtp().mails.length - before >= 300, 60_000, '300 batch mails');
    await sleep(800);
    const addresses = smtp().mails.slice(before).flatMap(recipientsOf);
    expect(addresses).toHaveLength(300);
    expect(new Set(addresses).size).toBe(300);
  }, 90_000);
});
