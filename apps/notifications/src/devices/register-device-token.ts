import type { Actor } from '@academy/auth';
import type { RegisterDeviceTokenBody } from '@academy/contracts';
import type { NotificationsContext } from '../notifications-context.ts';
import { deviceItem } from './device-item.ts';
import { saveDeviceToken } from './devices.store.ts';
import { userErased } from '../notifications.errors.ts';

/**
 * Registers or updates the caller's token for a device (one row per user and device). A token held by
 * another user or device moves here: FCM tokens belong to an app installation, and the last login
 * on that installation owns it. A login an erasure went through is refused (403 USER_ERASED).
 */
export async function registerDeviceToken(ctx: NotificationsContext, input: RegisterDeviceTokenBody, actor: Actor) {
  // The request's own EntityManager: inside a keyed write the save joins its transaction, so the key commits with the token.
  const saved = await saveDeviceToken(ctx.orm.em, actor.userId, input.deviceId, input.token, input.platform);
  // An erasure of this login ran (or was running: the save waited for it), its tokens are gone: this one must not come back.
  if (!saved) throw userErased();
  return deviceItem(saved);
}
