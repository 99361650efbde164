import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { ensureInfra, portIsOpen, PORTS } from '../src/index.ts';

describe('local infrastructure', () => {
  test('a second ensureInfra reuses the running test servers instead of starting new ones', async () => {
    const result = await ensureInfra('test');
    expect(result.started).toEqual([]);
    expect(result.reused.sort()).toEqual(['postgres', 'rabbitmq', 'redis']);
  });

  test('portIsOpen tells a listening port from a closed one', async () => {
    const server = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as net.AddressInfo).port;
    expect(await portIsOpen(port)).toBe(true);
    await new Promise((r) => server.close(r));
    expect(await portIsOpen(port)).toBe(false);
  });

  test('test ports sit below the ephemeral range, where a probe could connect to itself', () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    for (const port of Object.values(PORTS.test).filter((p): p is number => p !== null)) expect(port).toBeLessThan(low!);
  });

  test('dev and test profiles never share a port', () => {
    const dev = Object.values(PORTS.dev).filter(Boolean);
    const testPorts = Object.values(PORTS.test).filter(Boolean);
    expect(dev.filter((port) => testPorts.includes(port))).toEqual([]);
  });
});
