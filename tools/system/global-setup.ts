import { ensureInfra, type ServerName } from '@academy/infra';

/**
 * Starts (or reuses) the test PostgreSQL and Redis; the profiles bring their own RabbitMQ (they
 * restart it, and the shared test broker serves other tests meanwhile). What this run started, the
 * teardown stops.
 */
export default async function globalSetup(): Promise<void> {
  const { started } = await ensureInfra('test', (line) => process.stderr.write(`[test infra] ${line}\n`), ['postgres', 'redis']);
  (globalThis as { systemInfraStarted?: ServerName[] }).systemInfraStarted = started;
}
