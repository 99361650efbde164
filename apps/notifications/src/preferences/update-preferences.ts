import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError } from '@academy/kit';
import { NOTIFICATION_CHANNELS, NOTIFICATION_TYPES, type NotificationPreference, type PreferencesBody, type QuietHours } from '@academy/contracts';
import { isCritical } from '../shared/notification-types.ts';
import { readSettings, writeSettings } from '../shared/preferences.store.ts';
import { readQuietHours, writeQuietHours } from '../shared/quiet-hours.ts';

/** Every type on every channel for the user: what they set, on where they set nothing; critical ones always on. */
export async function readPreferences(em: EntityManager, userId: number): Promise<NotificationPreference[]> {
  const stored = new Map((await readSettings(em, userId)).map((row) => [`${row.type}:${row.channel}`, row.enabled]));
  return NOTIFICATION_TYPES.flatMap((type) =>
    NOTIFICATION_CHANNELS.map((channel) => ({ type, channel, enabled: isCritical(type) || (stored.get(`${type}:${channel}`) ?? true), critical: isCritical(type) })),
  );
}

/** What GET answers: every setting, and the quiet hours (null when none). */
export async function readAll(em: EntityManager, userId: number): Promise<{ preferences: NotificationPreference[]; quietHours: QuietHours | null }> {
  const [preferences, quietHours] = await Promise.all([readPreferences(em.fork(), userId), readQuietHours(em.fork(), userId)]);
  return { preferences, quietHours };
}

/**
 * Applies the caller's settings and quiet hours (absent: unchanged; null: removed), in one transaction
 * on `em`, the request's EntityManager (never a fork: it would leave a keyed transaction). Switching a
 * critical type off is refused as a whole (400 naming each), and so is a setting named twice with two
 * values; nothing is written then.
 */
export async function updatePreferences(em: EntityManager, userId: number, input: PreferencesBody, now: Date): Promise<{ preferences: NotificationPreference[]; quietHours: QuietHours | null }> {
  const settings = input.preferences ?? [];
  const critical = settings.filter((setting) => !setting.enabled && isCritical(setting.type));
  if (critical.length) {
    const named = critical.map((setting) => `${setting.type} (${setting.channel})`).join(', ');
    throw new BadRequestError('CRITICAL_NOTIFICATION_TYPE', `preferences: critical notifications cannot be switched off: ${named}`, {
      fields: critical.map((setting) => `preferences.${settings.indexOf(setting)}.enabled`),
    });
  }
  const byKey = new Map<string, NonNullable<PreferencesBody['preferences']>[number]>();
  for (const [index, setting] of settings.entries()) {
    const key = `${setting.type}:${setting.channel}`;
    const earlier = byKey.get(key);
    if (earlier && earlier.enabled !== setting.enabled) {
      throw new BadRequestError('VALIDATION_ERROR', `preferences.${index}: ${setting.type} (${setting.channel}) is set twice with different values`);
    }
    byKey.set(key, setting);
  }
  // On the request's EntityManager: its own transaction, or a savepoint in the keyed one, so the
  // update commits with the key's answer. What it answers is read in that transaction too, one
  // statement after another (its connection), which sees the update before it commits.
  return em.transactional(async (tx) => {
    if (byKey.size) await writeSettings(tx, userId, [...byKey.values()], now);
    if (input.quietHours !== undefined) await writeQuietHours(tx, userId, input.quietHours, now);
    return { preferences: await readPreferences(tx, userId), quietHours: await readQuietHours(tx, userId) };
  });
}
