import type { Actor } from '@academy/auth';
import type { NotificationsContext } from '../notifications-context.ts';
import { deviceItem } from './device-item.ts';
import { selectDeviceTokens } from './devices.store.ts';

/** The caller's devices, most recently seen first: what Settings shows and removes (the tokens stay in the service). */
export async function listDeviceTokens(ctx: NotificationsContext, _input: Record<string, never>, actor: Actor) {
  return (await selectDeviceTokens(ctx.orm.em, actor.userId)).map(deviceItem);
}
