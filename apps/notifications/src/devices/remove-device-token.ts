import type { Actor } from '@academy/auth';
import type { NotificationsContext } from '../notifications-context.ts';
import { deviceNotFound } from '../notifications.errors.ts';
import { deleteDeviceToken } from './devices.store.ts';

/** Removes the caller's token of a device; another user's device is "not found" too. */
export async function removeDeviceToken(ctx: NotificationsContext, input: { deviceId: string }, actor: Actor): Promise<void> {
  if (!(await deleteDeviceToken(ctx.orm.em, actor.userId, input.deviceId))) throw deviceNotFound();
}
