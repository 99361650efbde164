import type { IncidentNotification } from '@academy/contracts';
import type { HandledEvent } from '@academy/messaging';
import type { NotificationsContext } from '../notifications-context.ts';
import { say } from '../shared/i18n.ts';
import type { SendPush } from '../shared/push-message.ts';
import { emitToRooms } from './realtime.sockets.ts';

const PUSH_PREVIEW_CHARS = 150;
const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** The fields the event carries (older producers may leave some out). */
const optional = <T extends Record<string, unknown>>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

export interface IncidentChange {
  event: HandledEvent<'incident.created' | 'incident.updated'>;
  /** The one way a push goes out (the push feature's, bound by subscriptions.ts; on the handler's transaction). */
  sendPush: SendPush;
}

/**
 * `incident_notification` to the employee's room and to admins (through the Redis adapter,
 * whichever instance holds the sockets). An admin's reply also goes to the employee's devices,
 * through the push send use case, keyed by the event id so a redelivery pushes nothing twice. The
 * push is in the academy's language: incident events name no login's choice.
 */
export async function notifyIncidentChange(ctx: NotificationsContext, input: IncidentChange): Promise<void> {
  const { event, sendPush } = input;
  const data = event.data;
  const rooms = data.employeeUserId ? ['admins', `user:${data.employeeUserId}`] : ['admins'];
  emitToRooms(ctx.realtime, rooms, 'incident_notification', {
    eventId: event.id,
    incidentId: data.incidentId,
    employeeId: data.employeeId,
    change: data.change,
    status: data.status,
    byUserId: data.byUserId,
    occurredAt: event.occurredAt,
    ...optional({ kind: data.kind, description: data.description, messageId: data.messageId, message: data.message, fileCount: data.fileCount }),
  } satisfies IncidentNotification);
  if (data.change === 'admin_message' && data.employeeUserId) {
    const academy = { locale: ctx.config.ACADEMY_LOCALE, timeZone: ctx.config.ACADEMY_TIME_ZONE };
    // On the handler's own transaction: a second connection per handler would let a burst of events
    // (the consumer's prefetch above the pool) take every connection and wait for one more, for ever.
    await sendPush({
      message: {
        userIds: [data.employeeUserId],
        title: say(academy, 'incidentReply.title'),
        body: data.message ? say(academy, 'incidentReply.body', { message: truncate(data.message, PUSH_PREVIEW_CHARS) }) : say(academy, 'incidentReply.bodyEmpty', { incidentId: data.incidentId }),
        priority: 'high',
        data: { type: 'incident_reply', incidentId: String(data.incidentId), status: data.status },
        idempotencyKey: `incident-reply:${event.id}`,
      },
      eventType: event.type,
    });
  }
}
