import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { testUrls } from '@academy/testing';
import { consume, createBroker, dlqName } from '../src/index.ts';
import { counts, createMessagingDb, deleteQueues, publishRaw, recordEffect, silentLogger, testTopology, validEnvelope, waitUntil, type TestDb } from './support.ts';

const url = testUrls.rabbitmq;

describe('a consumer process killed with messages unacked', () => {
  let db: TestDb;
  const topology = testTopology('crash');

  beforeAll(async () => {
    db = await createMessagingDb('messaging_crash');
  });
  afterAll(async () => {
    await deleteQueues(url, [topology.queue, dlqName(topology.queue)], topology.exchange);
    await db.close();
  });

  test('its messages are redelivered to another consumer and each is processed once', async () => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'fixtures/consumer-child.ts'), db.url, url, topology.exchange, topology.queue], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const started = new Set<string>();
    let ready = false;
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') ready = true;
        else if (line.startsWith('started ')) started.add(line.slice('started '.length));
      }
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitUntil('the child consumer to be ready', () => ready, 20_000);
      const envelopes = Array.from({ length: 200 }, (_, i) => validEnvelope(i + 1));
      await publishRaw(url, topology.exchange, envelopes.map((envelope) => ({ routingKey: envelope.type, body: JSON.stringify(envelope), messageId: envelope.id })));
      await waitUntil('10 messages in flight in the child', () => started.size === 10, 10_000);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect((await counts(db.orm)).effects).toBe(0); // its transactions died with it

    const handledIds: string[] = [];
    const broker = createBroker({ url, service: 'crash-survivor', logger: silentLogger, exchange: topology.exchange });
    await broker.start();
    try {
      await consume(broker, {
        orm: db.orm,
        queue: topology.queue,
        handlers: {
          'employee.deleted': async (em, event) => {
            handledIds.push(event.id);
            await recordEffect(em, event, topology.queue);
          },
        },
      });
      await waitUntil('200 processed', async () => (await counts(db.orm)).inbox === 200, 20_000);
    } finally {
      await broker.close();
    }
    expect(await counts(db.orm)).toMatchObject({ inbox: 200, effects: 200, distinctEffects: 200 });
    expect(handledIds).toHaveLength(200);
    expect([...started].every((id) => handledIds.includes(id))).toBe(true);
  }, 50_000);
});
