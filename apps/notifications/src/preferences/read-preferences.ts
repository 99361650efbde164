import type { Actor } from '@academy/auth';
import { NOTIFICATION_CHANNELS, NOTIFICATION_TYPES, type NotificationPreference, type QuietHours } from '@academy/contracts';
import type { NotificationsContext } from '../notifications-context.ts';
import { isCritical } from '../shared/notification-types.ts';
import { readStoredPreferences, type PreferenceRow } from './preferences.store.ts';

export interface Preferences {
  preferences: NotificationPreference[];
  quietHours: QuietHours | null;
}

/** What GET answers: every setting of the caller, and their quiet hours (null when none). */
export async function readPreferences(ctx: NotificationsContext, _input: Record<string, never>, actor: Actor): Promise<Preferences> {
  const stored = await readStoredPreferences(ctx.orm.em, actor.userId);
  return { preferences: everySetting(stored.settings), quietHours: stored.quietHours };
}

/** Every type on every channel: what the user set, on where they set nothing; critical ones always on. */
export function everySetting(settings: PreferenceRow[]): NotificationPreference[] {
  const stored = new Map(settings.map((row) => [`${row.type}:${row.channel}`, row.enabled]));
  return NOTIFICATION_TYPES.flatMap((type) =>
    NOTIFICATION_CHANNELS.map((channel) => ({ type, channel, enabled: isCritical(type) || (stored.get(`${type}:${channel}`) ?? true), critical: isCritical(type) })),
  );
}
