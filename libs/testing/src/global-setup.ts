import { ensureInfra } from '@academy/infra';
import { generateKeyPairFiles } from '@academy/auth';
// the keys' names only: the testing barrel (amqplib, the db and messaging libs) costs each Jest run about a CPU second
import { TEST_KEYS_DIR, TEST_KID } from './test-keys.ts';

/** Jest global setup: starts (or reuses) the test PostgreSQL, RabbitMQ and Redis. */
export default async function globalSetup(): Promise<void> {
  await ensureInfra('test', (line) => process.stderr.write(`[test infra] ${line}\n`));
  generateKeyPairFiles(TEST_KEYS_DIR, TEST_KID);
}
