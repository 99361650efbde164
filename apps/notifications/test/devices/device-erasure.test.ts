import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { PrivacySubject } from '@academy/contracts';
import { bearer } from '@academy/testing';
import { notificationsProviders } from '../../src/privacy.ts';
import { sql, useNotifications } from '../support.ts';

const NOW = new Date('2026-11-27T10:00:00Z');
let nextUser = 3100;

describe('a device registered while an erasure of the login runs (the erasure and the registration take turns)', () => {
  const service = useNotifications();
  const register = (userId: number, deviceId: string) =>
    request(service().url).post('/api/v2/notifications/token').set(bearer({ sub: String(userId), role: 'user' })).send({ deviceId, token: `tok-${userId}-${deviceId}`, platform: 'android' });
  const tokensOf = async (userId: number) => (await sql<{ device_id: string }>(service(), 'select device_id from device_tokens where user_id = ? order by device_id', [userId])).map((row) => row.device_id);
  const subjectOf = (userId: number): PrivacySubject => ({ kind: 'employee', id: userId + 50_000, userId, email: null });
  const erase = (subject: PrivacySubject, during: () => Promise<void> = async () => undefined) =>
    service().ctx.orm.em.fork().transactional(async (em) => {
      const ctx = { em, subject, requestId: randomUUID(), now: NOW, locale: 'es' as const };
      for (const provider of notificationsProviders.filter((each) => each.subjects.includes(subject.kind))) await provider.erase(ctx);
      await during();
    });

  /**
   * Runs the erasure of `subject` in a transaction held open after its providers ran, starts `write`
   * then, and commits the erasure 300 ms later: a write serialized with the erasure waits for its
   * commit; one that is not lands at once, beside the erasure. Answers what `write` answered.
   */
  async function writeDuringErasure<T>(subject: PrivacySubject, write: () => Promise<T>): Promise<T> {
    let commitErasure!: () => void;
    const erasureMayCommit = new Promise<void>((resolve) => (commitErasure = resolve));
    let erased!: () => void;
    const erasureHasRun = new Promise<void>((resolve) => (erased = resolve));
    const erasing = erase(subject, async () => {
      erased();
      await erasureMayCommit;
    });
    await erasureHasRun;
    const writing = write();
    await Promise.race([writing, new Promise((resolve) => setTimeout(resolve, 300))]);
    commitErasure();
    await erasing;
    return writing;
  }

  test('a registration that arrives while the erasure commits waits for it and is refused (403 USER_ERASED): no token survives the erasure', async () => {
    const userId = nextUser++;
    expect((await register(userId, 'phone-old')).status).toBe(200);
    const registered = await writeDuringErasure(subjectOf(userId), () => register(userId, 'phone-new').then((res) => res));
    expect(registered.status).toBe(403);
    expect(registered.body).toMatchObject({ success: false, code: 'USER_ERASED', message: 'This login was erased: it cannot register a device' });
    expect(await tokensOf(userId)).toEqual([]);
  });

  test('a registration after the erasure is refused too; another user registers as before, and an erasure run again changes nothing', async () => {
    const userId = nextUser++;
    const other = nextUser++;
    await erase(subjectOf(userId));
    expect((await register(userId, 'phone')).status).toBe(403);
    expect((await register(other, 'phone')).status).toBe(200);
    await erase(subjectOf(userId));
    expect(await tokensOf(userId)).toEqual([]);
    expect(await tokensOf(other)).toEqual(['phone']);
    // the mark: the login's id and the erasure's time (the service's clock), once
    expect(await sql(service(), 'select user_id, erased_at = ?::timestamptz as at_erasure from erased_users where user_id = any(?::int[])', [NOW, `{${userId},${other}}`])).toEqual([
      { user_id: userId, at_erasure: true },
    ]);
  });

  test('a registration that committed before the erasure began is deleted by it', async () => {
    const userId = nextUser++;
    const registering = register(userId, 'phone');
    expect((await registering).status).toBe(200);
    await erase(subjectOf(userId));
    expect(await tokensOf(userId)).toEqual([]);
  });
});
