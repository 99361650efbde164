import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import { NOTIFICATION_CHANNELS, NOTIFICATION_TYPES, type NotificationPreference, type QuietHours } from '@academy/contracts';
import type { NotificationsContext } from '../notifications-context.ts';
import { isCritical } from '../shared/notification-types.ts';
import { readQuietHours, readSettings } from './preferences.store.ts';

export interface Preferences {
  preferences: NotificationPreference[];
  quietHours: QuietHours | null;
}

/** What GET answers: every setting of the caller, and their quiet hours (null when none). */
export async function readPreferences(ctx: NotificationsContext, _input: Record<string, never>, actor: Actor): Promise<Preferences> {
  const [preferences, quietHours] = await Promise.all([everySetting(ctx.orm.em.fork(), actor.userId), readQuietHours(ctx.orm.em.fork(), actor.userId)]);
  return { preferences, quietHours };
}

/** Every type on every channel for the user: what they set, on where they set nothing; critical ones always on. */
export async function everySetting(em: EntityManager, userId: number): Promise<NotificationPreference[]> {
  const stored = new Map((await readSettings(em, userId)).map((row) => [`${row.type}:${row.channel}`, row.enabled]));
  return NOTIFICATION_TYPES.flatMap((type) =>
    NOTIFICATION_CHANNELS.map((channel) => ({ type, channel, enabled: isCritical(type) || (stored.get(`${type}:${channel}`) ?? true), critical: isCritical(type) })),
  );
}
