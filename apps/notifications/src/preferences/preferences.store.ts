import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationChannel, NotificationType, PreferencesBody } from '@academy/contracts';
import { pgArray } from '@academy/db';

interface PreferenceRow {
  type: NotificationType;
  channel: NotificationChannel;
  enabled: boolean;
}

/** The user's stored settings (types they never touched are absent: on). */
export const readSettings = (em: EntityManager, userId: number) =>
  em.getConnection().execute<PreferenceRow[]>(`select type, channel, enabled from notification_preferences where user_id = ?`, [userId], 'all', em.getTransactionContext());

/** Writes the given settings in one statement (the request's transaction when it has one). */
export async function writeSettings(em: EntityManager, userId: number, settings: NonNullable<PreferencesBody['preferences']>, now: Date): Promise<void> {
  await em.getConnection().execute(
    `insert into notification_preferences (user_id, type, channel, enabled, updated_at)
     values ${settings.map(() => '(?, ?, ?, ?, ?)').join(', ')}
     on conflict (user_id, type, channel) do update set enabled = excluded.enabled, updated_at = excluded.updated_at`,
    settings.flatMap((setting) => [userId, setting.type, setting.channel, setting.enabled, now]),
    'run',
    em.getTransactionContext(),
  );
}

/**
 * Of the given users, those who switched `type` off on `channel`: "user:type" keys. One indexed
 * read (the primary key) for a whole batch of deliveries.
 */
export async function switchedOff(em: EntityManager, channel: NotificationChannel, wanted: { userId: number; type: NotificationType }[]): Promise<Set<string>> {
  if (!wanted.length) return new Set();
  const rows = await em.execute<{ user_id: number; type: string }[]>(
    `select user_id, type from notification_preferences where channel = ? and not enabled and user_id = any(?::int[]) and type = any(?::text[])`,
    [channel, pgArray([...new Set(wanted.map((item) => item.userId))]), pgArray([...new Set(wanted.map((item) => item.type))])],
    'all',
  );
  return new Set(rows.map((row) => `${row.user_id}:${row.type}`));
}
