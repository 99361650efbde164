import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { BatchResponse, MulticastMessage, SendResponse } from 'firebase-admin/messaging';
import type { FirebaseError } from 'firebase-admin/app';
import type { MulticastSender } from '../../src/push/push-provider.ts';
import { API_KEY, sql, useNotifications, type Notifications } from '../support.ts';

const firebaseError = (code: string, message: string): FirebaseError => ({
  name: 'FirebaseMessagingError',
  code,
  message,
  hasCode: (other: string) => other === code,
  toJSON: () => ({ code, message }),
});

/**
 * Stands in for firebase-admin's `Messaging` (the only mock: FCM). A token's name says how FCM
 * answers it; a message titled "outage" fails the whole call, as an unreachable FCM does.
 */
class FakeMessaging implements MulticastSender {
  calls: MulticastMessage[] = [];
  async sendEachForMulticast(message: MulticastMessage): Promise<BatchResponse> {
    this.calls.push(message);
    if (message.notification?.title === 'outage') throw firebaseError('app/network-error', 'FCM could not be reached');
    const responses: SendResponse[] = message.tokens.map((token) => {
      if (token.includes('unregistered')) return { success: false, error: firebaseError('messaging/registration-token-not-registered', 'Requested entity was not found.') };
      if (token.includes('malformed')) return { success: false, error: firebaseError('messaging/invalid-registration-token', 'Invalid registration token') };
      if (token.includes('payload')) return { success: false, error: firebaseError('messaging/invalid-argument', 'Invalid JSON payload received') };
      if (token.includes('quota')) return { success: false, error: firebaseError('messaging/message-rate-exceeded', 'Quota exceeded') };
      return { success: true, messageId: `projects/test/messages/${token}` };
    });
    const successCount = responses.filter((response) => response.success).length;
    return { responses, successCount, failureCount: responses.length - successCount };
  }
}

async function seed(service: Notifications, rows: { userId: number; token: string }[]): Promise<void> {
  const values = rows.map(() => `(?, ?, ?, 'android', now(), now(), now() - interval '3 days')`).join(', ');
  await sql(service, `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values ${values}`, rows.flatMap((row, i) => [row.userId, `dev-${i}-${row.token}`, row.token]));
}

const tokensLeft = async (service: Notifications, userIds: number[]) =>
  (await sql<{ token: string }>(service, `select token from device_tokens where user_id in (${userIds.join(',')}) order by token`)).map((row) => row.token);

describe('firebase-admin provider (sendEachForMulticast against a Messaging that answers per token)', () => {
  const messaging = new FakeMessaging();
  const service = useNotifications({}, { messaging });
  const send = (body: object) => request(service().url).post('/api/v2/push-notifications/send').set('x-api-key', API_KEY).send(body);

  describe('1,201 tokens of users 301 and 302, sent once for the tests below', () => {
    let res: request.Response;
    let calls: MulticastMessage[];
    beforeAll(async () => {
      // user 301: 1,195 good tokens; user 302: one of each failure and one good token
      await seed(service(), [
        ...Array.from({ length: 1195 }, (_, i) => ({ userId: 301, token: `good-${String(i).padStart(4, '0')}` })),
        ...['a-unregistered', 'b-malformed', 'c-payload', 'd-quota', 'e-good', 'f-good'].map((token) => ({ userId: 302, token })),
      ]);
      messaging.calls = [];
      res = await send({ userIds: [301, 302], title: 'Exam', body: 'Tomorrow 9:00', priority: 'normal' });
      calls = messaging.calls;
      messaging.calls = [];
    });

    test('they go out in calls of 500, 500 and 201; counts and per-token errors add up', () => {
      expect(res.status).toBe(200);
      expect(calls.map((call) => call.tokens.length)).toEqual([500, 500, 201]);
      expect(calls[0]).toMatchObject({ notification: { title: 'Exam', body: 'Tomorrow 9:00' }, android: { priority: 'normal' }, apns: { headers: { 'apns-priority': '5' } } });
      expect(res.body).toMatchObject({ success: true, requestedUserIds: [301, 302], tokensCount: 1201, successCount: 1197, errorCount: 4 });
      expect(res.body.errors).toEqual([
        { userId: 302, deviceId: expect.stringContaining('a-unregistered'), code: 'messaging/registration-token-not-registered', message: 'Requested entity was not found.' },
        { userId: 302, deviceId: expect.stringContaining('b-malformed'), code: 'messaging/invalid-registration-token', message: 'Invalid registration token' },
        { userId: 302, deviceId: expect.stringContaining('c-payload'), code: 'messaging/invalid-argument', message: 'Invalid JSON payload received' },
        { userId: 302, deviceId: expect.stringContaining('d-quota'), code: 'messaging/message-rate-exceeded', message: 'Quota exceeded' },
      ]);
    });

    test('only registration-token-not-registered and invalid-registration-token delete the token; payload or quota errors keep it', async () => {
      expect(await tokensLeft(service(), [302])).toEqual(['c-payload', 'd-quota', 'e-good', 'f-good']);
      expect((await tokensLeft(service(), [301])).length).toBe(1195);
    });

    test('the deliveries say sent per user, with token counts', async () => {
      const rows = await sql<{ user_id: number; status: string; detail: Record<string, unknown> }>(
        service(),
        `select user_id, status, detail from deliveries where channel = 'push' and user_id in (301, 302) order by user_id`,
      );
      expect(rows).toEqual([
        { user_id: 301, status: 'sent', detail: expect.objectContaining({ provider: 'firebase', tokens: 1195, success: 1195, errors: 0 }) },
        { user_id: 302, status: 'sent', detail: expect.objectContaining({ provider: 'firebase', tokens: 6, success: 2, errors: 4 }) },
      ]);
    });
  });

  test('a call that fails as a whole counts each of its tokens as an error and deletes none', async () => {
    await seed(service(), [
      { userId: 303, token: 'x-good' },
      { userId: 303, token: 'y-good' },
    ]);
    const res = await send({ userIds: [303], title: 'outage', body: 'FCM is down' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, tokensCount: 2, successCount: 0, errorCount: 2 });
    expect(res.body.errors.map((error: { code: string }) => error.code)).toEqual(['app/network-error', 'app/network-error']);
    expect(await tokensLeft(service(), [303])).toEqual(['x-good', 'y-good']);
    const [delivery] = await sql<{ status: string; last_error: string }>(service(), `select status, last_error from deliveries where channel = 'push' and user_id = 303`);
    expect(delivery).toEqual({ status: 'failed', last_error: 'app/network-error: FCM could not be reached' });
  });
});
