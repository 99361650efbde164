import net from 'node:net';
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { Registry } from 'prom-client';
import { createEnvelope } from '@academy/contracts';
import { testUrls } from '@academy/testing';
import { createBroker, listDeadLetters, type Broker } from '../src/index.ts';
import { deleteQueues, silentLogger, testTopology } from './support.ts';

const url = testUrls.rabbitmq;
const brokerPort = Number(new URL(url).port);

/** Calls of `method` on sockets connected to the test broker, with their arguments (a spy on `net.Socket`'s prototype). */
function callsToBroker<M extends 'setNoDelay' | '_write' | '_writev'>(method: M): { calls: unknown[][]; restore(): void } {
  const calls: unknown[][] = [];
  const original = net.Socket.prototype[method] as (...args: unknown[]) => unknown;
  const spy = jest.spyOn(net.Socket.prototype, method as 'setNoDelay').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    if (this.remotePort === brokerPort) calls.push(args);
    return original.apply(this, args) as net.Socket;
  });
  return { calls, restore: () => spy.mockRestore() };
}

describe('the AMQP connection: TCP_NODELAY, and the frames of one turn written together (issue 32)', () => {
  const brokers: Broker[] = [];
  const exchanges: string[] = [];
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const broker of brokers.splice(0)) await broker.close();
    for (const exchange of exchanges.splice(0)) await deleteQueues(url, [`${exchange}.unrouted`], exchange);
  });

  const startBroker = async (options: { noDelay?: boolean } = {}) => {
    const { exchange } = testTopology('socket');
    exchanges.push(exchange);
    const broker = createBroker({ url, service: 'socket-test', logger: silentLogger, exchange, registry: new Registry(), ...options });
    brokers.push(broker);
    await broker.start();
    return broker;
  };

  test("the broker's connection is opened with TCP_NODELAY on (amqplib leaves Nagle's algorithm on unless told)", async () => {
    const noDelay = callsToBroker('setNoDelay');
    await startBroker();
    // amqplib calls it once, when the socket connects, with what the options say.
    expect(noDelay.calls).toEqual([[true]]);
  });

  test('noDelay: false gives the connection as it was (Nagle on), for the bench to compare', async () => {
    const noDelay = callsToBroker('setNoDelay');
    await startBroker({ noDelay: false });
    expect(noDelay.calls).toEqual([[false]]);
  });

  test("a batch's publishes, written in one turn, leave the socket in one write", async () => {
    const broker = await startBroker();
    const single = callsToBroker('_write');
    const vector = callsToBroker('_writev');
    const envelopes = Array.from({ length: 5 }, (_, i) => createEnvelope('employee.deleted', { id: i + 1 }, { source: 'test' }));
    // No queue is bound: the catch-all keeps them, and the broker confirms each.
    expect(await broker.publishEach(envelopes)).toEqual([null, null, null, null, null]);
    // One writev of the five publish frames (method, header and body of each: one buffer per message), no write of its own for any.
    expect(vector.calls).toHaveLength(1);
    expect((vector.calls[0][0] as unknown[]).length).toBe(5);
    expect(single.calls).toHaveLength(0);
  });

  test('the DLQ tools connect with TCP_NODELAY on (a replay waits for each confirm and writes its ack and next get together)', async () => {
    const noDelay = callsToBroker('setNoDelay');
    const { queue } = testTopology('socket');
    // No such queue: the listing fails, after connecting.
    await expect(listDeadLetters(url, queue)).rejects.toThrow(/NOT_FOUND/);
    expect(noDelay.calls).toEqual([[true]]);
  });
});
