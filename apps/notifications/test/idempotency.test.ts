import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { openApiResponseValidator } from '@academy/testing/openapi';
import { sql, useNotifications } from './support.ts';

const ana = bearer({ sub: '21', role: 'user' });
const ben = bearer({ sub: '22', role: 'user' });

interface TokenRow {
  device_id: string;
  token: string;
  updated_at: Date;
}

describe('device tokens with an Idempotency-Key', () => {
  const service = useNotifications();
  const register = (auth: Record<string, string>, key: string, body: Record<string, unknown>) =>
    request(service().url).post('/api/v2/notifications/token').set(auth).set('Idempotency-Key', key).send(body);
  const rowsOf = (userId: number, deviceId: string) =>
    sql<TokenRow>(service(), 'select device_id, token, updated_at from device_tokens where user_id = ? and device_id = ?', [userId, deviceId]);
  const keysNamed = async (key: string) => (await sql<{ n: number }>(service(), 'select count(*)::int as n from idempotency_keys where key = ?', [key]))[0]!.n;

  describe('POST /api/v2/notifications/token', () => {
    test('a retry after the first commit answers the same body, replayed, and the row is not written again', async () => {
      const body = { deviceId: 'idem-phone', token: 'idem-tok-1', platform: 'android' };
      const first = await register(ana, 'nt-retry', body);
      const [before] = await rowsOf(21, 'idem-phone');
      const again = await register(ana, 'nt-retry', body);

      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const after = await rowsOf(21, 'idem-phone');
      expect(after).toHaveLength(1);
      expect(after[0]!.updated_at).toEqual(before!.updated_at);
    });

    test('20 concurrent registrations with one key run once: one executed, the others replayed or 409 Retry-After 1', async () => {
      const body = { deviceId: 'idem-race', token: 'idem-tok-race', platform: 'ios' };
      const answers = await Promise.all(Array.from({ length: 20 }, () => register(ana, 'nt-race', body)));

      const executed = answers.filter((res) => res.status === 200 && res.headers['idempotent-replayed'] === undefined);
      expect(executed).toHaveLength(1);
      for (const res of answers.filter((answer) => answer !== executed[0])) {
        if (res.status === 409) {
          // The key is checked before the route family's error style applies: the default body, as the OpenAPI document says.
          expect(res.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
          expect(res.headers['retry-after']).toBe('1');
        } else {
          expect(res.status).toBe(200);
          expect(res.body).toEqual(executed[0]!.body);
        }
      }
      expect(await rowsOf(21, 'idem-race')).toHaveLength(1);
    });

    test('the same key with another body is 422 naming the key, and the first token stays', async () => {
      await register(ana, 'nt-other', { deviceId: 'idem-other', token: 'idem-tok-first', platform: 'android' }).expect(200);
      const res = await register(ana, 'nt-other', { deviceId: 'idem-other', token: 'idem-tok-second', platform: 'android' });

      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(openApiResponseValidator().departures('post', '/api/v2/notifications/token', res)).toEqual([]);
      expect(res.body.message).toMatch(/Idempotency-Key/);
      expect((await rowsOf(21, 'idem-other')).map((row) => row.token)).toEqual(['idem-tok-first']);
    });

    test("another user's equal key is their own: their registration runs", async () => {
      const body = { deviceId: 'idem-shared', token: 'idem-tok-shared-ana', platform: 'android' };
      await register(ana, 'nt-shared', body).expect(200);
      const res = await register(ben, 'nt-shared', { ...body, token: 'idem-tok-shared-ben' });

      expect(res.status).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect((await rowsOf(22, 'idem-shared')).map((row) => row.token)).toEqual(['idem-tok-shared-ben']);
    });

    test('a registration whose transaction rolls back (a 5xx) leaves no key and no row, and its retry runs', async () => {
      await sql(
        service(),
        `create function fail_token() returns trigger language plpgsql as $$
         begin if new.device_id = 'idem-fail' then raise exception 'injected fault'; end if; return new; end $$`,
      );
      await sql(service(), 'create trigger fail_token before insert on device_tokens for each row execute function fail_token()');
      const body = { deviceId: 'idem-fail', token: 'idem-tok-fail', platform: 'android' };
      const failed = await register(ana, 'nt-rollback', body);
      await sql(service(), 'drop trigger fail_token on device_tokens');

      expect(failed.status).toBe(500);
      expect(await keysNamed('nt-rollback')).toBe(0);
      expect(await rowsOf(21, 'idem-fail')).toHaveLength(0);
      const retried = await register(ana, 'nt-rollback', body);
      expect(retried.status).toBe(200);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await rowsOf(21, 'idem-fail')).toHaveLength(1);
    });
  });

  describe('DELETE /api/v2/notifications/token/:deviceId', () => {
    test('a retried removal answers the first 200 again instead of a 404', async () => {
      await register(ana, 'nt-before-delete', { deviceId: 'idem-gone', token: 'idem-tok-gone', platform: 'ios' }).expect(200);
      const remove = () => request(service().url).delete('/api/v2/notifications/token/idem-gone').set(ana).set('Idempotency-Key', 'nt-delete');
      const first = await remove();
      const again = await remove();

      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await rowsOf(21, 'idem-gone')).toHaveLength(0);
    });
  });
});
