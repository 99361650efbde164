// The replicas' consumer over a database and a queue of its own on the test servers, for the
// tests of the enclosing describe: `rows` reads the database, `publish` waits until each event is handled.
import { afterAll, beforeAll } from '@jest/globals';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createEnvelope, type EventData, type EventEnvelope, type EventType } from '@academy/contracts';
import { createOrm } from '@academy/db';
import { createLogger } from '@academy/kit';
import { createBroker, messagingEntities, type Broker, type Consumer } from '@academy/messaging';
import { createTestDatabase, deleteTestQueues, dropTestDatabase, testUrls, uniqueName, uniqueQueueName, waitFor } from '@academy/testing';
import { replicaEntities, subscribeReplicas, timetableReplicaEntities } from '../src/index.ts';

export const envelope = <T extends EventType>(type: T, data: EventData<T>, occurredAt: Date | string = new Date()): EventEnvelope =>
  createEnvelope(type, data, { source: 'academic', occurredAt: new Date(occurredAt) });

export function useReplicaConsumer(name: string, options: { timetable?: boolean } = {}) {
  const exchange = uniqueName('academy.events.test');
  const queue = uniqueQueueName(`${name}.replicas`);
  let url: string;
  let orm: MikroORM | undefined;
  let broker: Broker;
  let consumer: Consumer;

  beforeAll(async () => {
    url = await createTestDatabase(name.replace(/-/g, '_'));
    orm = await createOrm({ clientUrl: url, entities: [...replicaEntities, ...(options.timetable ? timetableReplicaEntities : []), ...messagingEntities], migrations: [] });
    await orm.schema.create();
    broker = createBroker({ url: testUrls.rabbitmq, service: name, logger: createLogger(name, 'silent'), exchange });
    await broker.start();
    consumer = await subscribeReplicas({ broker, orm }, queue, { timetable: options.timetable });
  });
  afterAll(async () => {
    await consumer.stop();
    await broker.close();
    await orm?.close();
    await dropTestDatabase(url);
    await deleteTestQueues(exchange, [queue]);
  });

  const theOrm = (): MikroORM => {
    if (!orm) throw new Error('useReplicaConsumer: not started (it starts around the tests of its describe)');
    return orm;
  };
  const rows = (sql: string, params: unknown[] = []) => theOrm().em.fork().getConnection().execute(sql, params, 'all');
  const publish = async (...events: EventEnvelope[]) => {
    await broker.publish(events);
    for (const event of events) await waitFor(`event ${event.id} handled`, async () => (await rows('select 1 from inbox where event_id = ?', [event.id])).length > 0, 10_000, 50);
  };
  return { orm: theOrm, rows, publish, queue, broker: () => broker };
}
