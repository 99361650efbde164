import type { EventHandler } from '@academy/messaging';
import { say, type Language } from '../shared/i18n.ts';
import type { SendPush } from '../shared/push-message.ts';
import type { Realtime } from './realtime.ts';

const PUSH_PREVIEW_CHARS = 150;
const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** The fields the event carries (older producers may leave some out). */
const optional = <T extends Record<string, unknown>>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/**
 * `incident.created` / `incident.updated`: `incident_notification` to the employee's room and to
 * admins (through the Redis adapter, whichever instance holds the sockets). An admin's reply also
 * goes to the employee's devices, through the push send use case (the only way a push goes out),
 * keyed by the event id so a redelivery pushes nothing twice. The push's records commit with the
 * event's inbox row, on the handler's one connection. The push is in the academy's
 * language (`academy`): incident events name no login's choice.
 */
export function onIncidentChanged(deps: { realtime: Realtime; sendPush: SendPush; academy: Language }): EventHandler<'incident.created' | 'incident.updated'> {
  return async (_em, event) => {
    const data = event.data;
    deps.realtime.notifyIncident(
      {
        eventId: event.id,
        incidentId: data.incidentId,
        employeeId: data.employeeId,
        change: data.change,
        status: data.status,
        byUserId: data.byUserId,
        occurredAt: event.occurredAt,
        ...optional({ kind: data.kind, description: data.description, messageId: data.messageId, message: data.message, fileCount: data.fileCount }),
      },
      data.employeeUserId,
    );
    if (data.change === 'admin_message' && data.employeeUserId) {
      // On the handler's own transaction: a second connection per handler would let a burst of events
      // (the consumer's prefetch above the pool) take every connection and wait for one more, for ever.
      await deps.sendPush({
        message: {
          userIds: [data.employeeUserId],
          title: say(deps.academy, 'incidentReply.title'),
          body: data.message ? say(deps.academy, 'incidentReply.body', { message: truncate(data.message, PUSH_PREVIEW_CHARS) }) : say(deps.academy, 'incidentReply.bodyEmpty', { incidentId: data.incidentId }),
          priority: 'high',
          data: { type: 'incident_reply', incidentId: String(data.incidentId), status: data.status },
          idempotencyKey: `incident-reply:${event.id}`,
        },
        eventType: event.type,
      });
    }
  };
}
