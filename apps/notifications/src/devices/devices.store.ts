import type { EntityManager } from '@mikro-orm/postgresql';
import { isoSql } from '../shared/sql.ts';

// The only code of the devices feature that knows `device_tokens`.

export interface DeviceTokenRow {
  device_id: string;
  platform: 'ios' | 'android';
  created_at: Date;
  updated_at: Date;
  last_seen_at: Date;
}

/**
 * A registration and an erasure of one user take turns: this transaction-scoped lock of the user is
 * held by the erasure until its whole answer commits, and taken by a registration before it reads the
 * erased mark or writes a row.
 */
const lockUser = (em: EntityManager, userId: number) => em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`device-user:${userId}`], 'all');

/**
 * Stores `token` as the user's for a device (one row per user and device), in one transaction on
 * `em` (inside a keyed write, a savepoint of its transaction, so the key commits with the token).
 * A token held by another user or device moves here; registrations of one token wait for each other.
 * Null, and nothing written, when the user's login was erased (an erasure that ran first, or that
 * was running: the registration waited for its commit).
 */
export function saveDeviceToken(em: EntityManager, userId: number, deviceId: string, token: string, platform: 'ios' | 'android'): Promise<DeviceTokenRow | null> {
  return em.transactional(async (tx) => {
    const connection = tx.getConnection();
    const context = tx.getTransactionContext();
    // Registrations of one token wait for each other (the last one wins), instead of one failing on the unique key.
    await connection.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`device-token:${token}`], 'all', context);
    // Then the user's turn (always in this order: the erasure takes no token lock, so no two wait for each other).
    await lockUser(tx, userId);
    const [erased] = await connection.execute<unknown[]>(`select 1 from erased_users where user_id = ?`, [userId], 'all', context);
    if (erased) return null;
    await connection.execute(`delete from device_tokens where token = ? and not (user_id = ? and device_id = ?)`, [token, userId, deviceId], 'run', context);
    const [saved] = await connection.execute<DeviceTokenRow[]>(
      `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at)
       values (?, ?, ?, ?, now(), now(), now())
       on conflict (user_id, device_id) do update set token = excluded.token, platform = excluded.platform, updated_at = now(), last_seen_at = now()
       returning device_id, platform, created_at, updated_at, last_seen_at`,
      [userId, deviceId, token, platform],
      'all',
      context,
    );
    return saved!;
  });
}

/** The user's devices, most recently seen first (without their tokens). */
export function selectDeviceTokens(em: EntityManager, userId: number): Promise<DeviceTokenRow[]> {
  return em.execute<DeviceTokenRow[]>(
    `select device_id, platform, created_at, updated_at, last_seen_at from device_tokens where user_id = ? order by last_seen_at desc, device_id`,
    [userId],
    'all',
  );
}

/** Deletes the user's token of a device; whether there was one. */
export async function deleteDeviceToken(em: EntityManager, userId: number, deviceId: string): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(`delete from device_tokens where user_id = ? and device_id = ?`, [userId, deviceId], 'run');
  return result.affectedRows > 0;
}

/** Tokens unseen for `retentionDays` before `now` (neither registered again nor sent to successfully). */
export async function pruneStaleTokens(em: EntityManager, now: Date, retentionDays: number): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(`delete from device_tokens where last_seen_at < ?::timestamptz - make_interval(days => ?)`, [now.toISOString(), retentionDays], 'run');
  return result.affectedRows;
}

/** The user's devices for a personal data export (the tokens too: they are the person's data). */
export function devicesOfUser(em: EntityManager, userId: number) {
  return em.execute<{ deviceId: string; platform: string; token: string; createdAt: string; updatedAt: string; lastSeenAt: string }[]>(
    `select device_id as "deviceId", platform, token, ${isoSql('created_at')} as "createdAt", ${isoSql('updated_at')} as "updatedAt", ${isoSql('last_seen_at')} as "lastSeenAt" from device_tokens where user_id = ? order by id`,
    [userId],
    'all',
  );
}

/**
 * Deletes every token of the user and marks the login erased (an erasure, in its transaction on `em`);
 * how many tokens. The user's lock is held until that transaction commits: a registration running now
 * waits, then finds the mark (saveDeviceToken).
 */
export async function deleteDevicesOfUser(em: EntityManager, userId: number, now: Date): Promise<number> {
  await lockUser(em, userId);
  await em.execute(`insert into erased_users (user_id, erased_at) values (?, ?) on conflict (user_id) do nothing`, [userId, now], 'run');
  const result = await em.execute<{ affectedRows: number }>(`delete from device_tokens where user_id = ?`, [userId], 'run');
  return result.affectedRows;
}
