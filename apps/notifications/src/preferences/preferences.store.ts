import type { EntityManager } from '@mikro-orm/postgresql';
import { NOTIFICATION_CHANNELS, NOTIFICATION_TYPES, type NotificationChannel, type NotificationPreference, type NotificationType, type PreferencesBody, type QuietHours } from '@academy/contracts';
import { isCritical } from '../shared/notification-types.ts';

// The only code that writes the preferences feature's tables: `notification_preferences` (one row per
// user, type and channel; no row is on) and `quiet_hours` (one row per user). The send paths read them
// in their own statements (push.store.ts, email.store.ts' claim), at send time.

export interface PreferenceRow {
  type: NotificationType;
  channel: NotificationChannel;
  enabled: boolean;
}

/** A user's preferences as the routes answer them: every setting, and their quiet hours (null when none). */
export interface Preferences {
  preferences: NotificationPreference[];
  quietHours: QuietHours | null;
}

/** Every type on every channel: what the user set, on where they set nothing; critical ones always on. */
function everySetting(settings: PreferenceRow[]): NotificationPreference[] {
  const stored = new Map(settings.map((row) => [`${row.type}:${row.channel}`, row.enabled]));
  return NOTIFICATION_TYPES.flatMap((type) =>
    NOTIFICATION_CHANNELS.map((channel) => ({ type, channel, enabled: isCritical(type) || (stored.get(`${type}:${channel}`) ?? true), critical: isCritical(type) })),
  );
}

/** The user's stored settings (types they never touched are absent: on). */
export const readSettings = (em: EntityManager, userId: number) =>
  em.getConnection().execute<PreferenceRow[]>(`select type, channel, enabled from notification_preferences where user_id = ?`, [userId], 'all', em.getTransactionContext());

/** Writes the given settings in one statement (the request's transaction when it has one). */
async function writeSettings(em: EntityManager, userId: number, settings: NonNullable<PreferencesBody['preferences']>, now: Date): Promise<void> {
  await em.getConnection().execute(
    `insert into notification_preferences (user_id, type, channel, enabled, updated_at)
     values ${settings.map(() => '(?, ?, ?, ?, ?)').join(', ')}
     on conflict (user_id, type, channel) do update set enabled = excluded.enabled, updated_at = excluded.updated_at`,
    settings.flatMap((setting) => [userId, setting.type, setting.channel, setting.enabled, now]),
    'run',
    em.getTransactionContext(),
  );
}

/** The user's quiet hours for push, or null. */
export async function readQuietHours(em: EntityManager, userId: number): Promise<QuietHours | null> {
  const [row] = await em
    .getConnection()
    .execute<{ start: string; end: string; timeZone: string }[]>(
      `select to_char(start_time, 'HH24:MI') as start, to_char(end_time, 'HH24:MI') as "end", time_zone as "timeZone" from quiet_hours where user_id = ?`,
      [userId],
      'all',
      em.getTransactionContext(),
    );
  return row ?? null;
}

/** Sets (or, with null, removes) the user's quiet hours. */
async function writeQuietHours(em: EntityManager, userId: number, quietHours: QuietHours | null, now: Date): Promise<void> {
  if (!quietHours) {
    await em.getConnection().execute(`delete from quiet_hours where user_id = ?`, [userId], 'run', em.getTransactionContext());
    return;
  }
  await em.getConnection().execute(
    `insert into quiet_hours (user_id, start_time, end_time, time_zone, updated_at) values (?, ?::time, ?::time, ?, ?)
     on conflict (user_id) do update set start_time = excluded.start_time, end_time = excluded.end_time, time_zone = excluded.time_zone, updated_at = excluded.updated_at`,
    [userId, quietHours.start, quietHours.end, quietHours.timeZone, now],
    'run',
    em.getTransactionContext(),
  );
}

/** The user's preferences: every setting (stored or default) and their quiet hours. */
export async function readPreferencesOf(em: EntityManager, userId: number): Promise<Preferences> {
  const [settings, quietHours] = await Promise.all([readSettings(em.fork(), userId), readQuietHours(em.fork(), userId)]);
  return { preferences: everySetting(settings), quietHours };
}

/**
 * Applies the settings and quiet hours (absent: unchanged; null: removed) in one transaction on
 * `em` (a savepoint in the keyed transaction when the request has one, so the update commits with
 * the key's answer), and answers the preferences then, read in that transaction (its connection sees
 * the update before it commits).
 */
export async function writePreferences(
  em: EntityManager,
  userId: number,
  change: { settings: NonNullable<PreferencesBody['preferences']>; quietHours?: QuietHours | null },
  now: Date,
): Promise<Preferences> {
  return em.transactional(async (tx) => {
    if (change.settings.length) await writeSettings(tx, userId, change.settings, now);
    if (change.quietHours !== undefined) await writeQuietHours(tx, userId, change.quietHours, now);
    return { preferences: everySetting(await readSettings(tx, userId)), quietHours: await readQuietHours(tx, userId) };
  });
}

/** Deletes the user's settings and quiet hours (an erasure: every type back to its default); how many rows of each. */
export async function deletePreferencesOfUser(em: EntityManager, userId: number): Promise<{ settings: number; quietHours: number }> {
  const settings = await em.execute<{ affectedRows: number }>(`delete from notification_preferences where user_id = ?`, [userId], 'run');
  const quietHours = await em.execute<{ affectedRows: number }>(`delete from quiet_hours where user_id = ?`, [userId], 'run');
  return { settings: settings.affectedRows, quietHours: quietHours.affectedRows };
}
