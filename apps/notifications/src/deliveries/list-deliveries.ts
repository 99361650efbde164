import type { Actor } from '@academy/auth';
import type { DeliveriesQuery, Delivery, PageMeta } from '@academy/contracts';
import { pageMeta, pageTotal } from '@academy/kit';
import type { NotificationsContext } from '../notifications-context.ts';
import { countDeliveries, deliveryPage, type DeliveryRow } from './deliveries.store.ts';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

const deliveryOf = (row: DeliveryRow): Delivery => ({
  id: Number(row.id),
  eventId: row.event_id,
  eventType: row.event_type,
  channel: row.channel,
  recipient: row.recipient,
  userId: row.user_id,
  template: row.template,
  subject: row.subject,
  status: row.status,
  attempts: row.attempts,
  lastError: row.last_error,
  detail: row.detail,
  nextAttemptAt: iso(row.next_attempt_at),
  sentAt: iso(row.sent_at),
  createdAt: iso(row.created_at)!,
  updatedAt: iso(row.updated_at)!,
});

/** What was sent, recorded, failed, parked or skipped, and why (admin): newest first, filtered, one page and the total in one query. */
export async function listDeliveries(ctx: NotificationsContext, input: DeliveriesQuery, _actor: Actor): Promise<{ data: Delivery[]; meta: PageMeta }> {
  const rows = await deliveryPage(ctx.orm.em, input);
  const total = await pageTotal(rows, input.page, () => countDeliveries(ctx.orm.em, input));
  return { data: rows.map(deliveryOf), meta: pageMeta(total, input.page, input.limit) };
}
