import type { MikroORM } from '@mikro-orm/postgresql';
import type { EventHandler } from '@academy/messaging';
import type { PushProvider } from '../push/push-provider.ts';
import { sendPush } from '../push/send-push.ts';
import type { Realtime } from './realtime.ts';

/**
 * `incident.created` / `incident.updated`: `incident_notification` to the employee's room and to
 * admins (through the Redis adapter, whichever instance holds the sockets). An admin's reply also
 * goes to the employee's devices, through the push send use case (the only way a push goes out),
 * keyed by the event id so a redelivery pushes nothing twice. The push commits on its own, outside
 * the event's transaction, so a retry of the handler finds it done.
 */
export function onIncidentChanged(deps: { realtime: Realtime; orm: MikroORM; push: PushProvider }): EventHandler<'incident.created' | 'incident.updated'> {
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
      },
      data.employeeUserId,
    );
    if (data.change === 'admin_message' && data.employeeUserId) {
      await sendPush(
        deps.orm.em.fork(),
        deps.push,
        {
          userIds: [data.employeeUserId],
          title: 'New reply to your incident',
          body: `An administrator replied to your incident #${data.incidentId}.`,
          priority: 'high',
          data: { type: 'incident_reply', incidentId: String(data.incidentId), status: data.status },
          idempotencyKey: `incident-reply:${event.id}`,
        },
        { eventType: event.type },
      );
    }
  };
}
