import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveriesQuery, Delivery } from '@academy/contracts';
import { pageMeta, pageTotal } from '@academy/kit';

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  channel: Delivery['channel'];
  recipient: string;
  user_id: number | null;
  template: string | null;
  subject: string | null;
  status: Delivery['status'];
  attempts: number;
  last_error: string | null;
  detail: Record<string, unknown> | null;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
  total: string;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** Deliveries newest first, filtered, one page and the total in one query. */
export async function listDeliveries(em: EntityManager, query: DeliveriesQuery) {
  const where: string[] = [];
  const params: unknown[] = [];
  const filter = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (query.channel) filter('channel = ?', query.channel);
  if (query.status) filter('status = ?', query.status);
  if (query.userId) filter('user_id = ?', query.userId);
  if (query.recipient) filter('recipient = ?', query.recipient.toLowerCase());
  const rows = await em.getConnection().execute<DeliveryRow[]>(
    `select id, event_id, event_type, channel, recipient, user_id, template, subject, status, attempts, last_error, detail, next_attempt_at, sent_at, created_at, updated_at,
            count(*) over () as total
     from deliveries ${where.length ? `where ${where.join(' and ')}` : ''}
     order by id desc limit ? offset ?`,
    [...params, query.limit, (query.page - 1) * query.limit],
    'all',
  );
  const total = await pageTotal(rows, query.page, () => countDeliveries(em, where, params));
  const data: Delivery[] = rows.map((row) => ({
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
  }));
  return { data, meta: pageMeta(total, query.page, query.limit) };
}

/** A page past the end has no row to carry the total. */
async function countDeliveries(em: EntityManager, where: string[], params: unknown[]): Promise<number> {
  const [row] = await em.getConnection().execute<{ total: string }[]>(`select count(*) as total from deliveries ${where.length ? `where ${where.join(' and ')}` : ''}`, params, 'all');
  return Number(row.total);
}
