import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { pruneIdempotencyKeys } from '@academy/service';
import { API_KEY, sql, useNotifications, type Notifications } from '../support.ts';

/** One device per platform given, inserted straight into the table (again: nothing). */
async function seedTokens(service: Notifications, userId: number, platforms: ('ios' | 'android')[]): Promise<void> {
  for (const [index, platform] of platforms.entries()) {
    await sql(service, `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (?, ?, ?, ?, now(), now(), now() - interval '10 days') on conflict do nothing`, [
      userId,
      `device-${index}`,
      `token-${userId}-${index}`,
      platform,
    ]);
  }
}

const recordedCount = async (service: Notifications) => Number((await sql<{ n: string }>(service, 'select coalesce(sum(token_count), 0) as n from recorded_pushes'))[0].n);

describe('POST /api/v2/push-notifications/send (recording provider: no Firebase credentials)', () => {
  const service = useNotifications();
  const send = (body: unknown, key: string | null = API_KEY) => {
    const req = request(service().url).post('/api/v2/push-notifications/send');
    return (key === null ? req : req.set('x-api-key', key)).send(body as object);
  };

  test('sends to the stored tokens of the users, filtered by platform; the message is recorded with its FCM mapping', async () => {
    await seedTokens(service(), 201, ['android', 'ios']);
    await seedTokens(service(), 202, ['android']);
    const res = await send({
      userIds: [201, 202, 203],
      title: 'Hello',
      body: 'Class moved',
      priority: 'high',
      channelId: 'classes',
      platform: 'android',
      data: { screen: 'calendar', id: '7' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, requestedUserIds: [201, 202, 203], tokensCount: 2, successCount: 2, errorCount: 0, errors: [] });

    const [recorded] = await sql<{ message: Record<string, unknown>; tokens: string[] }>(service(), 'select message, tokens from recorded_pushes order by id desc limit 1');
    expect(recorded.tokens.sort()).toEqual(['token-201-0', 'token-202-0']);
    expect(recorded.message).toEqual({
      notification: { title: 'Hello', body: 'Class moved' },
      data: { screen: 'calendar', id: '7' },
      android: { priority: 'high', notification: { channelId: 'classes' } },
      apns: { headers: { 'apns-priority': '10' } },
    });
    // a token that took the message is seen now (pruning counts from here)
    const [seen] = await sql<{ fresh: boolean }>(service(), `select last_seen_at > now() - interval '1 minute' as fresh from device_tokens where token = 'token-201-0'`);
    expect(seen.fresh).toBe(true);
    const deliveries = await sql(service(), `select recipient, status, user_id from deliveries where channel = 'push' and user_id in (201, 202) order by user_id`);
    expect(deliveries).toEqual([
      { recipient: 'user:201', status: 'recorded', user_id: 201 },
      { recipient: 'user:202', status: 'recorded', user_id: 202 },
    ]);
  });

  test('users without tokens: 200, success true, tokensCount 0, nothing recorded', async () => {
    const before = await recordedCount(service());
    const res = await send({ userIds: [299], body: 'Anyone?' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, requestedUserIds: [299], tokensCount: 0, successCount: 0, errorCount: 0, errors: [] });
    expect(await recordedCount(service())).toBe(before);
  });

  test('the same idempotencyKey sends once and answers the first result; with another body it is a 409', async () => {
    await seedTokens(service(), 211, ['ios']);
    const body = { userIds: [211], body: 'Once only', idempotencyKey: 'reminder-2026-11-23' };
    const before = await recordedCount(service());
    const first = await send(body);
    const retried = await send(body);
    expect(first.status).toBe(200);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    expect(await recordedCount(service())).toBe(before + 1);

    const other = await send({ ...body, body: 'Something else' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await recordedCount(service())).toBe(before + 1);
  });

  test("a send's key is one of the service's idempotency keys (scope push:send): past its 7 days, the service's prune forgets it and the same key sends again", async () => {
    await seedTokens(service(), 214, ['android']);
    const body = { userIds: [214], body: 'Kept a week', idempotencyKey: 'one-scheme-key' };
    const before = await recordedCount(service());
    const first = await send(body);
    expect(first.status).toBe(200);
    const [stored] = await sql<{ status: number; days: number }>(
      service(),
      `select status, round(extract(epoch from expires_at - created_at) / 86400)::int as days from idempotency_keys where scope = 'push:send' and key = ?`,
      [body.idempotencyKey],
    );
    expect(stored).toEqual({ status: 200, days: 7 });
    expect(JSON.parse((await sql<{ body: string }>(service(), `select body from idempotency_keys where key = ?`, [body.idempotencyKey]))[0]!.body)).toEqual(first.body);

    // The prune every service runs on its keys, eight days on.
    await pruneIdempotencyKeys(service().ctx.orm.em.fork(), new Date(Date.now() + 8 * 86_400_000));
    expect(await sql(service(), `select 1 from idempotency_keys where key = ?`, [body.idempotencyKey])).toHaveLength(0);
    await send(body).expect(200);
    expect(await recordedCount(service())).toBe(before + 2);
  });

  test('five sends with one idempotencyKey at once: the push goes out once; the others answer its result or 409 in progress', async () => {
    await seedTokens(service(), 212, ['android']);
    const before = await recordedCount(service());
    const body = { userIds: [212], body: 'Concurrent', idempotencyKey: 'concurrent-key' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(body)));
    expect(await recordedCount(service())).toBe(before + 1);
    for (const res of answers) {
      if (res.status === 200) expect(res.body).toMatchObject({ tokensCount: 1, successCount: 1 });
      else expect(res.body).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_IN_PROGRESS' });
    }
    expect(answers.filter((res) => res.status === 200).length).toBeGreaterThanOrEqual(1);
  });

  test.each([
    ['no x-api-key', null],
    ['a wrong x-api-key', 'not-the-key-0123456789'],
    ['a key that is a prefix of the right one', API_KEY.slice(0, -1)],
  ])('%s: 401 { success: false, message }, nothing sent', async (_name, key) => {
    await seedTokens(service(), 221, ['ios']);
    const before = await recordedCount(service());
    const res = await send({ userIds: [221], body: 'hi' }, key);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, message: 'Invalid or missing API key' });
    expect(await recordedCount(service())).toBe(before);
  });

  test.each([
    ['missing userIds', { body: 'hi' }, 'userIds'],
    ['missing body', { userIds: [231] }, 'body'],
    ['userIds not positive integers', { userIds: [0, -1, 1.5], body: 'hi' }, 'userIds'],
    ['a userId that is a string', { userIds: ['231'], body: 'hi' }, 'userIds'],
    ['1,001 userIds', { userIds: Array.from({ length: 1001 }, (_, i) => i + 1), body: 'hi' }, 'userIds'],
    ['priority "urgent"', { userIds: [231], body: 'hi', priority: 'urgent' }, 'priority'],
    ['platform "windows"', { userIds: [231], body: 'hi', platform: 'windows' }, 'platform'],
    ['data not an object', { userIds: [231], body: 'hi', data: 'deep-link' }, 'data'],
    ['data with a non-string value', { userIds: [231], body: 'hi', data: { id: 7 } }, 'data'],
    ['data an array', { userIds: [231], body: 'hi', data: ['a'] }, 'data'],
    ['a data key FCM reserves', { userIds: [231], body: 'hi', data: { 'google.c.a': 'x' } }, 'data'],
    ['a payload over FCM’s 4 KB', { userIds: [231], body: 'hi', data: { blob: 'x'.repeat(4100) } }, '4096'],
  ])('%s: 400 naming the field, nothing sent', async (_name, body, field) => {
    await seedTokens(service(), 231, ['android']);
    const before = await recordedCount(service());
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(res.body.message).toContain(field);
    expect(await recordedCount(service())).toBe(before);
  });

  test('1,000 userIds are accepted', async () => {
    const res = await send({ userIds: Array.from({ length: 1000 }, (_, i) => 100_000 + i), body: 'hi' });
    expect(res.status).toBe(200);
    expect(res.body.requestedUserIds).toHaveLength(1000);
  });

  test('tokens unseen for 270 days are pruned, fresher ones kept', async () => {
    // Days counted back from a pinned instant; the other tests' tokens, seen since, are newer.
    const now = new Date('2027-03-28T00:59:00Z');
    await sql(
      service(),
      `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values
      (241, 'stale', 'tok-stale', 'ios', now(), now(), ?::timestamptz - interval '271 days'),
      (241, 'fresh', 'tok-fresh', 'ios', now(), now(), ?::timestamptz - interval '269 days')`,
      [now.toISOString(), now.toISOString()],
    );
    const { pruneStaleTokens } = await import('../../src/devices/devices.store.ts');
    expect(await pruneStaleTokens(service().ctx.orm.em.fork(), now, 270)).toBe(1);
    expect(await sql(service(), 'select device_id from device_tokens where user_id = 241')).toEqual([{ device_id: 'fresh' }]);
  });
});
