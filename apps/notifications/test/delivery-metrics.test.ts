// Mail and push failures, and the e-mails waiting, on the service's /metrics (read as Prometheus
// scrapes it): each moves when its event happens, against a real SMTP server; FCM is the only mock.
import { beforeEach, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { BatchResponse, MulticastMessage } from 'firebase-admin/messaging';
import type { FirebaseError } from 'firebase-admin/app';
import type { EventData } from '@academy/contracts';
import type { MulticastSender } from '../src/push/push-provider.ts';
import { API_KEY, envelope, sql, until, useNotifications, useNotificationsWithSmtp, type Notifications } from './support.ts';

/** One sample of the service's /metrics: its value, or undefined when the series is absent. */
async function scrape(service: Notifications, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const text = (await request(service.url).get('/metrics').expect(200)).text;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

let nextId = 1;
const approval = (tag: string): EventData<'block.approved'> => {
  const id = nextId++;
  return {
    studentBlockId: 7000 + id,
    blockId: 30 + id,
    blockName: 'Block 3: Fractions',
    subjectId: 7,
    subjectName: 'Mathematics',
    studentId: 500 + id,
    grade: 8.5,
    nextBlock: null,
    subjectCompleted: false,
    teacher: { name: 'Marta Ruiz', email: `teacher.${tag}@school.test` },
    student: { name: 'Leo Gil', email: null },
    guardian: null,
  };
};

describe('e-mail metrics (real SMTP server refusing)', () => {
  const { service, smtp } = useNotificationsWithSmtp({ ACADEMY_LOCALE: 'en', MAIL_MAX_ATTEMPTS: 2 });
  beforeEach(() => smtp().refuseNext(1_000));

  test('a mail refused on both attempts counts two send failures with code 451, then notifications_mail_parked counts it and it no longer waits', async () => {
    const failuresBefore = (await scrape(service(), 'notifications_mail_send_failures_total', { code: '451' })) ?? 0;
    const parkedBefore = await scrape(service(), 'notifications_mail_parked');
    const event = envelope('block.approved', approval('metrics-parked'));
    await service().ctx.broker.publish([event]);
    await until(async () => (await sql<{ status: string }>(service(), `select status from deliveries where event_id = ?`, [event.id]))[0]?.status === 'parked', 10_000, 'parked');

    expect(await scrape(service(), 'notifications_mail_send_failures_total', { code: '451' })).toBe(failuresBefore + 2);
    expect(await scrape(service(), 'notifications_mail_parked')).toBe((parkedBefore ?? 0) + 1);
    expect(await scrape(service(), 'notifications_mail_waiting')).toBe(0);
    expect(await scrape(service(), 'notifications_mail_oldest_waiting_seconds')).toBe(0);
  });

  test('an e-mail waiting for its next attempt is counted by notifications_mail_waiting, with its age in notifications_mail_oldest_waiting_seconds', async () => {
    // Due in an hour, written 90 s ago: the worker leaves it alone while the test reads.
    await sql(
      service(),
      `insert into deliveries (event_id, event_type, channel, recipient, status, attempts, payload, next_attempt_at, created_at, updated_at)
       values ('metrics-waiting', 'block.approved', 'email', 'teacher.waiting@school.test', 'pending', 1, '{}', now() + interval '1 hour', now() - interval '90 seconds', now())`,
    );
    expect(await scrape(service(), 'notifications_mail_waiting')).toBe(1);
    expect(await scrape(service(), 'notifications_mail_oldest_waiting_seconds')).toBeGreaterThanOrEqual(90);
    await sql(service(), `delete from deliveries where event_id = 'metrics-waiting'`);
    expect(await scrape(service(), 'notifications_mail_waiting')).toBe(0);
  });
});

const firebaseError = (code: string, message: string): FirebaseError => ({ name: 'FirebaseMessagingError', code, message, hasCode: (other: string) => other === code, toJSON: () => ({ code, message }) });

/** Stands in for FCM: a token named `*-unregistered` is dead, `*-quota` over quota, any other reached. */
const messaging: MulticastSender = {
  async sendEachForMulticast(message: MulticastMessage): Promise<BatchResponse> {
    const responses = message.tokens.map((token) =>
      token.endsWith('-unregistered')
        ? { success: false, error: firebaseError('messaging/registration-token-not-registered', 'Requested entity was not found.') }
        : token.endsWith('-quota')
          ? { success: false, error: firebaseError('messaging/message-rate-exceeded', 'Quota exceeded') }
          : { success: true, messageId: `projects/test/messages/${token}` },
    );
    const successCount = responses.filter((response) => response.success).length;
    return { responses, successCount, failureCount: responses.length - successCount };
  },
};

describe('push metrics (FCM answering per token)', () => {
  const service = useNotifications({}, { messaging });

  test('each token a push does not reach counts once in notifications_push_failures_total by its code; reached tokens count nothing', async () => {
    const tokens = ['m-good', 'm-unregistered', 'm-quota', 'n-quota'];
    for (const [index, token] of tokens.entries()) {
      await sql(service(), `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (?, ?, ?, 'android', now(), now(), now())`, [880 + (index % 2), `dev-${token}`, token]);
    }
    expect(await scrape(service(), 'notifications_push_failures_total')).toBeUndefined();
    const res = await request(service().url).post('/api/v2/push-notifications/send').set('x-api-key', API_KEY).send({ userIds: [880, 881], title: 'Exam', body: 'Tomorrow 9:00' });
    expect(res.body).toMatchObject({ tokensCount: 4, successCount: 1, errorCount: 3 });

    expect(await scrape(service(), 'notifications_push_failures_total', { code: 'messaging/message-rate-exceeded' })).toBe(2);
    expect(await scrape(service(), 'notifications_push_failures_total', { code: 'messaging/registration-token-not-registered' })).toBe(1);
  });
});
