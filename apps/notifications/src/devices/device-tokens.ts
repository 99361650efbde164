import type { EntityManager } from '@mikro-orm/postgresql';
import type { RegisterDeviceTokenBody } from '@academy/contracts';
import { deviceNotFound } from '../notifications.errors.ts';

interface DeviceTokenRow {
  device_id: string;
  platform: 'ios' | 'android';
  created_at: Date;
  updated_at: Date;
  last_seen_at: Date;
}

/**
 * Registers or updates the user's token for a device (one row per user and device). A token held by
 * another user or device moves here: FCM tokens belong to an app installation, and the last login
 * on that installation owns it.
 */
export async function registerDeviceToken(em: EntityManager, userId: number, input: RegisterDeviceTokenBody) {
  // The request's own EntityManager: inside a keyed write this is a savepoint of its transaction, so the key commits with the token.
  const row = await em.transactional(async (tx) => {
    const connection = tx.getConnection();
    const context = tx.getTransactionContext();
    // Registrations of one token wait for each other (the last one wins), instead of one failing on the unique key.
    await connection.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`device-token:${input.token}`], 'all', context);
    await connection.execute(`delete from device_tokens where token = ? and not (user_id = ? and device_id = ?)`, [input.token, userId, input.deviceId], 'run', context);
    const [saved] = await connection.execute<DeviceTokenRow[]>(
      `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at)
       values (?, ?, ?, ?, now(), now(), now())
       on conflict (user_id, device_id) do update set token = excluded.token, platform = excluded.platform, updated_at = now(), last_seen_at = now()
       returning device_id, platform, created_at, updated_at, last_seen_at`,
      [userId, input.deviceId, input.token, input.platform],
      'all',
      context,
    );
    return saved;
  });
  return {
    deviceId: row.device_id,
    platform: row.platform,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    lastSeenAt: new Date(row.last_seen_at).toISOString(),
  };
}

/** Removes the user's token of a device; another user's device is "not found" too. */
export async function removeDeviceToken(em: EntityManager, userId: number, deviceId: string): Promise<void> {
  const result = await em.execute<{ affectedRows: number }>(`delete from device_tokens where user_id = ? and device_id = ?`, [userId, deviceId], 'run');
  if (result.affectedRows === 0) throw deviceNotFound();
}

/** Tokens unseen for `retentionDays` before `now` (neither registered again nor sent to successfully). */
export async function pruneStaleTokens(em: EntityManager, now: Date, retentionDays: number): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(`delete from device_tokens where last_seen_at < ?::timestamptz - make_interval(days => ?)`, [now.toISOString(), retentionDays], 'run');
  return result.affectedRows;
}
