import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { DeliveriesQuery, Delivery } from '@academy/contracts';
import { isoSql } from '../shared/sql.ts';

// The deliveries feature's reads of `deliveries` (what every channel sent, recorded, failed, parked or
// skipped, written by the email and push features' stores), and the parked mails put back in the queue.

export interface DeliveryRow {
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

function filtersOf(query: DeliveriesQuery): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const filter = (condition: string, value: unknown) => {
    conditions.push(condition);
    params.push(value);
  };
  if (query.channel) filter('channel = ?', query.channel);
  if (query.status) filter('status = ?', query.status);
  if (query.userId) filter('user_id = ?', query.userId);
  if (query.recipient) filter('recipient = ?', query.recipient.toLowerCase());
  return { where: conditions.length ? `where ${conditions.join(' and ')}` : '', params };
}

/** One page of deliveries, newest first, filtered; each row carries the total (`count(*) over ()`). */
export function deliveryPage(em: EntityManager, query: DeliveriesQuery): Promise<DeliveryRow[]> {
  const { where, params } = filtersOf(query);
  return em.getConnection().execute<DeliveryRow[]>(
    `select id, event_id, event_type, channel, recipient, user_id, template, subject, status, attempts, last_error, detail, next_attempt_at, sent_at, created_at, updated_at,
            count(*) over () as total
     from deliveries ${where}
     order by id desc limit ? offset ?`,
    [...params, query.limit, (query.page - 1) * query.limit],
    'all',
  );
}

/** How many deliveries the filters match (a page past the end has no row to carry the total). */
export async function countDeliveries(em: EntityManager, query: DeliveriesQuery): Promise<number> {
  const { where, params } = filtersOf(query);
  const [row] = await em.getConnection().execute<{ total: string }[]>(`select count(*) as total from deliveries ${where}`, params, 'all');
  return Number(row!.total);
}

export interface MailQueueStats {
  waiting: number;
  oldest_waiting_seconds: number;
  parked: number;
}

/** The e-mails waiting (pending or being sent), the age of the oldest, the parked ones: one query on the `status` index (such rows are few). */
export async function mailQueueStats(em: EntityManager): Promise<MailQueueStats | undefined> {
  const [row] = await em.getConnection().execute<MailQueueStats[]>(
    `select count(*) filter (where status in ('pending', 'sending'))::int as waiting,
            coalesce(extract(epoch from now() - min(created_at) filter (where status in ('pending', 'sending'))), 0)::float8 as oldest_waiting_seconds,
            count(*) filter (where status = 'parked')::int as parked
       from deliveries where channel = 'email' and status in ('pending', 'sending', 'parked')`,
    [],
    'all',
  );
  return row;
}

/** Parked e-mails (all, or those of `ids`) made `pending`, attempts reset, due now, through a connection of its own (the `mail` command runs outside the service); the ids put back. */
export async function requeueParkedMail(databaseUrl: string, ids: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `update deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now()
       where status = 'parked' and channel = 'email' and (cardinality($1::bigint[]) = 0 or id = any($1::bigint[]))
       returning id`,
      [ids],
    );
    return rows.map((row) => String(row.id));
  } finally {
    await client.end();
  }
}

/** A person's deliveries: by their login (`user_id`, `user:<id>`) or their address. */
const personCondition = `(user_id = ? or recipient = ? or recipient = lower(?))`;
const personParams = (person: { userId: number | null; email: string | null }) => [person.userId ?? -1, `user:${person.userId ?? -1}`, person.email ?? ''];

/** What was sent to the person on every channel, oldest first (the mail's text, not its HTML). */
export function deliveriesOfPerson(em: EntityManager, person: { userId: number | null; email: string | null }) {
  return em.execute<Record<string, unknown>[]>(
    `select id, event_type as "eventType", channel, recipient, template, subject, status, attempts, last_error as "lastError", payload->>'text' as text,
            ${isoSql('sent_at')} as "sentAt", ${isoSql('created_at')} as "createdAt"
       from deliveries where ${personCondition} order by id`,
    personParams(person),
    'all',
  );
}

/** Deletes the person's deliveries (an erasure: the record of what was sent, the mail's text among it); how many. */
export async function deleteDeliveriesOfPerson(em: EntityManager, person: { userId: number | null; email: string | null }): Promise<number> {
  const result = await em.execute<{ affectedRows: number }>(`delete from deliveries where ${personCondition}`, personParams(person), 'run');
  return result.affectedRows;
}
