import type { EventHandler } from '@academy/messaging';
import type { NotificationsContext } from '../notifications-context.ts';
import type { SendPush } from '../shared/push-message.ts';
import { notifyIncidentChange } from './notify-incident-change.ts';

/**
 * `incident.created` / `incident.updated`: the sockets of the employee and of the admins hear of it,
 * and an admin's reply goes to the employee's devices (`notifyIncidentChange`). The push's records
 * commit with the event's inbox row, on the handler's one connection.
 */
export function onIncidentChanged(ctx: NotificationsContext, sendPush: SendPush): EventHandler<'incident.created' | 'incident.updated'> {
  return (_em, event) => notifyIncidentChange(ctx, { event, sendPush });
}
