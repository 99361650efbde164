import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import amqp from 'amqplib';
import { createEnvelope } from '@academy/contracts';
import { createOrm } from '@academy/db';
import { createLogger } from '@academy/kit';
import { createTestDatabase, dropTestDatabase, uniqueName, waitFor } from '@academy/testing';
import { assertEventsExchange, messagingEntities, recordEvent, unroutedName, type HandledEvent } from '../src/index.ts';

export const silentLogger = createLogger('messaging-test', (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');

export interface TestDb {
  url: string;
  orm: MikroORM;
  close(): Promise<void>;
}

/** A fresh database with the outbox and inbox, plus `handler_effects`: one row per handler run that committed. */
export async function createMessagingDb(prefix: string): Promise<TestDb> {
  const url = await createTestDatabase(prefix);
  const orm = await createOrm({ clientUrl: url, entities: messagingEntities, migrations: [], poolMax: 20 });
  await orm.schema.create();
  // The claim's index, as each service's migration `…_outbox_unpublished_index` creates it (not an entity's: declared by hand).
  await orm.em.getConnection().execute(`create index "outbox_unpublished_index" on "outbox" ("id") where "published_at" is null`);
  await orm.em.getConnection().execute(
    `create table handler_effects (id bigserial primary key, event_id uuid not null, consumer text not null, pid int not null default pg_backend_pid(), done_at timestamptz not null default clock_timestamp())`,
  );
  return {
    url,
    orm,
    async close() {
      await orm.close();
      await dropTestDatabase(url);
    },
  };
}

/** Unique exchange and queue names, so test files sharing the test broker never see each other's messages. */
export function testTopology(purpose: string) {
  const service = uniqueName('t').replace(/_/g, '-');
  return { exchange: uniqueName('academy.events.test'), queue: `${service}.${purpose}` };
}

/** The handler effect used by the tests: a row written in the handler's transaction. */
export async function recordEffect(em: EntityManager, event: HandledEvent<'employee.deleted'>, consumer: string): Promise<void> {
  await em.getConnection().execute(`insert into handler_effects (event_id, consumer) values (?, ?)`, [event.id, consumer], 'run', em.getTransactionContext());
}

/** Writes `count` `employee.deleted` events through the outbox, `batch` per transaction; returns their ids. */
export async function writeEvents(orm: MikroORM, count: number, batch = 500, firstId = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; offset < count; offset += batch) {
    const em = orm.em.fork();
    for (let i = offset; i < Math.min(count, offset + batch); i++) {
      ids.push(recordEvent(em, 'employee.deleted', { id: firstId + i }, { source: 'test' }).id);
    }
    await em.flush();
  }
  return ids;
}

export interface Counts {
  inbox: number;
  effects: number;
  distinctEffects: number;
  pending: number;
}

export async function counts(orm: MikroORM): Promise<Counts> {
  const [row] = await orm.em.fork().getConnection().execute<{ inbox: string; effects: string; distinct_effects: string; pending: string }[]>(
    `select (select count(*) from inbox) as inbox, (select count(*) from handler_effects) as effects,
            (select count(distinct event_id) from handler_effects) as distinct_effects,
            (select count(*) from outbox where published_at is null) as pending`,
  );
  return { inbox: Number(row.inbox), effects: Number(row.effects), distinctEffects: Number(row.distinct_effects), pending: Number(row.pending) };
}

/** `waitFor` (libs/testing) that returns how long the wait took, in ms. */
export async function waitUntil(what: string, probe: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 100): Promise<number> {
  const started = Date.now();
  await waitFor(what, probe, timeoutMs, intervalMs);
  return Date.now() - started;
}

/** Publishes raw bodies (valid envelopes or garbage) straight to the exchange, with confirms. */
export async function publishRaw(url: string, exchange: string, messages: { routingKey: string; body: Buffer | string; messageId?: string; headers?: Record<string, unknown> }[]): Promise<void> {
  const connection = await amqp.connect(url);
  try {
    await assertEventsExchange(connection, exchange);
    const channel = await connection.createConfirmChannel();
    for (const message of messages) {
      channel.publish(exchange, message.routingKey, Buffer.isBuffer(message.body) ? message.body : Buffer.from(message.body), {
        persistent: true,
        messageId: message.messageId ?? randomUUID(),
        headers: message.headers,
      });
    }
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}

export const validEnvelope = (id: number) => createEnvelope('employee.deleted', { id }, { source: 'test' });

export async function queueDepth(url: string, queue: string): Promise<number> {
  const connection = await amqp.connect(url);
  try {
    const channel = await connection.createChannel();
    return (await channel.checkQueue(queue)).messageCount;
  } finally {
    await connection.close();
  }
}

/** Deletes the queues, and the exchange with its catch-all exchange and queue when given. */
export async function deleteQueues(url: string, queues: string[], exchange?: string): Promise<void> {
  const connection = await amqp.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of queues) await channel.deleteQueue(queue);
    if (exchange) {
      await channel.deleteExchange(exchange);
      await channel.deleteExchange(unroutedName(exchange));
      await channel.deleteQueue(unroutedName(exchange));
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}
