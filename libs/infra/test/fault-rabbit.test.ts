import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import amqp from 'amqplib';
import { PORTS, portIsOpen, startFaultRabbit } from '../src/index.ts';

describe('startFaultRabbit', () => {
  test('starts a separate RabbitMQ on free ports, and destroy() stops it by pid and removes its data', async () => {
    const rabbit = await startFaultRabbit('infra-test');
    try {
      expect(rabbit.port).not.toBe(PORTS.test.rabbitmq);
      expect(rabbit.pid).toBeGreaterThan(0);
      expect(existsSync(path.join(rabbit.dir, 'rabbitmq.log'))).toBe(true);
      const connection = await amqp.connect(rabbit.url);
      await connection.close();
    } finally {
      await rabbit.destroy();
    }
    expect(rabbit.pid).toBeNull();
    expect(await portIsOpen(rabbit.port)).toBe(false);
    expect(existsSync(rabbit.dir)).toBe(false);
  }, 60_000);
});
