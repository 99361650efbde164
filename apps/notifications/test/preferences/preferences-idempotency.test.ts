import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { sql, useNotifications } from '../support.ts';

const as = (userId: number) => bearer({ sub: String(userId), role: 'user' });

// PUT /preferences with an Idempotency-Key: the update runs in the request's keyed transaction, so it
// and the key's answer commit together or not at all (it once ran on a fork of its own EntityManager,
// outside that transaction, and committed on a second pool connection whatever became of the key).
describe('PUT /api/v2/notifications/preferences with an Idempotency-Key', () => {
  const service = useNotifications();
  const put = (userId: number, key: string, body: unknown) =>
    request(service().url).put('/api/v2/notifications/preferences').set(as(userId)).set('Idempotency-Key', key).send(body as object);
  const storedSettings = (userId: number) => sql<{ type: string; channel: string; enabled: boolean }>(service(), 'select type, channel, enabled from notification_preferences where user_id = ?', [userId]);
  const storedQuietHours = (userId: number) => sql(service(), 'select * from quiet_hours where user_id = ?', [userId]);
  const off = { preferences: [{ type: 'attendance_reminder', channel: 'push', enabled: false }], quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Madrid' } };

  test('a failure once the update ran (the key cannot be stored) rolls the update back with it: 500, no setting, no quiet hours, no key', async () => {
    // The key's own row is refused by the database at the end of the keyed transaction, after the route's update.
    await sql(service(), `create function refuse_test_key() returns trigger language plpgsql as $$ begin if new.key = 'np-refused' then raise exception 'the test refuses this key'; end if; return new; end $$`);
    await sql(service(), `create trigger refuse_test_key before insert on idempotency_keys for each row execute function refuse_test_key()`);
    try {
      const response = await put(601, 'np-refused', off);

      expect(response.status).toBe(500);
      expect(await storedSettings(601)).toEqual([]);
      expect(await storedQuietHours(601)).toEqual([]);
      expect(await sql(service(), `select 1 from idempotency_keys where key = 'np-refused'`)).toEqual([]);
    } finally {
      await sql(service(), 'drop trigger refuse_test_key on idempotency_keys');
      await sql(service(), 'drop function refuse_test_key()');
    }
  });

  test('the answer holds what the update wrote, and a retry replays it without writing again', async () => {
    const first = await put(602, 'np-once', off);
    const [before] = await sql<{ updated_at: Date }>(service(), 'select updated_at from notification_preferences where user_id = ?', [602]);
    const again = await put(602, 'np-once', off);

    expect(first.status).toBe(200);
    expect(first.body.data.preferences).toContainEqual({ type: 'attendance_reminder', channel: 'push', enabled: false, critical: false });
    expect(first.body.data.quietHours).toEqual(off.quietHours);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await storedSettings(602)).toEqual([{ type: 'attendance_reminder', channel: 'push', enabled: false }]);
    const [after] = await sql<{ updated_at: Date }>(service(), 'select updated_at from notification_preferences where user_id = ?', [602]);
    expect(after!.updated_at).toEqual(before!.updated_at);
  });
});
