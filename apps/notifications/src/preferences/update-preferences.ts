import type { Actor } from '@academy/auth';
import { BadRequestError } from '@academy/kit';
import type { PreferencesBody } from '@academy/contracts';
import type { NotificationsContext } from '../notifications-context.ts';
import { isCritical } from '../shared/notification-types.ts';
import { writePreferences, type Preferences } from './preferences.store.ts';

/**
 * Applies the caller's settings and quiet hours (absent: unchanged; null: removed), in the store's one
 * transaction on `ctx.orm.em`, the request's EntityManager (never a fork: it would leave a keyed transaction).
 * Switching a critical type off is refused as a whole (400 naming each), and so is a setting named
 * twice with two values; nothing is written then.
 */
export async function updatePreferences(ctx: NotificationsContext, input: PreferencesBody, actor: Actor): Promise<Preferences> {
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
  return writePreferences(ctx.orm.em, actor.userId, { settings: [...byKey.values()], quietHours: input.quietHours }, ctx.clock.now());
}
