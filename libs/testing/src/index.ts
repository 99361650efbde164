import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import { createTokenSigner, generateKeyPairFiles, loadKeyRing, type AccessClaims } from '@academy/auth';
import { urls } from '@academy/infra';
import { dropDatabase, ensureDatabase } from '@academy/db';
import { DEFAULT_RETRY_DELAYS_MS, dlqName, retryQueueName } from '@academy/messaging';
import type { BaseConfig } from '@academy/service';
import { TEST_AUDIENCE, TEST_ISSUER, TEST_KEYS_DIR, TEST_KID } from './test-keys.ts';

/** Test servers of the "test" profile (started by Jest's global setup, never the dev ones). */
export const testUrls = urls('test');
export { TEST_AUDIENCE, TEST_ISSUER, TEST_KEYS_DIR, TEST_KID };

export { forgedTokens } from './forged-tokens.ts';
/** Polls until a probe answers (the tools' and tests' one polling helper); a free loopback port. */
export { waitFor, freePort } from '@academy/infra';

export function uniqueName(prefix: string): string {
  return `${prefix.replace(/\W/g, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
}

/** `<service>.<purpose>.<random>`: a queue name of the messaging convention, unique to one test file. */
export function uniqueQueueName(queue: string): string {
  return `${queue}.${randomBytes(4).toString('hex')}`;
}

/** A fresh, empty database on the test server; drop it with `dropTestDatabase`. */
export async function createTestDatabase(prefix: string): Promise<string> {
  const url = `${testUrls.postgres}/${uniqueName(`t_${prefix}`)}`;
  await ensureDatabase(url);
  return url;
}

export const dropTestDatabase = dropDatabase;

/**
 * Deletes what a test declared on the shared test broker: each consumer queue with its DLQ and its
 * retry queues (at the consumer's default delays unless given), then the exchange.
 */
export async function deleteTestQueues(exchange: string, queues: string[], retryDelaysMs: number[] = DEFAULT_RETRY_DELAYS_MS): Promise<void> {
  const connection = await amqp.connect(testUrls.rabbitmq);
  try {
    const channel = await connection.createChannel();
    for (const queue of queues) {
      for (const name of [queue, dlqName(queue), ...retryDelaysMs.map((delay) => retryQueueName(queue, delay))]) await channel.deleteQueue(name);
    }
    await channel.deleteExchange(exchange);
  } finally {
    await connection.close();
  }
}

/** A service's own settings schema (beyond the base ones), whose defaults a test config takes. */
export interface SettingsSchema<S> {
  parse(input: unknown): S;
}

/**
 * Configuration of a service under test: its own database, its own exchange (so test files
 * running at once do not see each other's events), port 0, silent logs; plus the defaults of the
 * service's own `settings` when given, so its Config stays strict.
 */
export async function testConfig(name: string): Promise<BaseConfig>;
export async function testConfig<S extends object>(name: string, settings: SettingsSchema<S>): Promise<BaseConfig & S>;
export async function testConfig(name: string, settings?: SettingsSchema<object>): Promise<BaseConfig> {
  return testConfigOn(await createTestDatabase(name), settings as SettingsSchema<object>);
}

/** `testConfig` over a database the caller made (the harness's `serviceTestConfig`: a copy of the service's migrated template). */
export function testConfigOn(databaseUrl: string): BaseConfig;
export function testConfigOn<S extends object>(databaseUrl: string, settings: SettingsSchema<S>): BaseConfig & S;
export function testConfigOn(databaseUrl: string, settings?: SettingsSchema<object>): BaseConfig {
  generateKeyPairFiles(TEST_KEYS_DIR, TEST_KID);
  return {
    ...settings?.parse({}),
    PORT: 0,
    HOST: '127.0.0.1',
    LOG_LEVEL: (process.env.TEST_LOG_LEVEL as BaseConfig['LOG_LEVEL']) ?? 'silent',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: 10,
    DATABASE_ACQUIRE_TIMEOUT_MS: 30_000,
    RABBITMQ_URL: testUrls.rabbitmq,
    EVENTS_EXCHANGE: uniqueName('academy.events.test'),
    REDIS_URL: testUrls.redis,
    REDIS_COMMAND_TIMEOUT_MS: 100,
    JWT_KEYS_DIR: TEST_KEYS_DIR,
    JWT_KEY_IDS: [TEST_KID],
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    BODY_LIMIT: '100kb',
    IDEMPOTENCY_TTL_HOURS: 24,
  };
}

let signer: ReturnType<typeof createTokenSigner> | null = null;

/** A real signed access token for the test key. */
export function tokenFor(claims: Partial<AccessClaims> & { sub?: string } = {}, ttlSeconds = 900): string {
  generateKeyPairFiles(TEST_KEYS_DIR, TEST_KID);
  signer ??= createTokenSigner(loadKeyRing(TEST_KEYS_DIR, [TEST_KID], TEST_KID), { issuer: TEST_ISSUER, audience: TEST_AUDIENCE });
  return signer.sign({ sub: claims.sub ?? '1', role: claims.role ?? 'admin', employeeId: claims.employeeId, studentId: claims.studentId }, ttlSeconds);
}

export const bearer = (claims: Partial<AccessClaims> & { sub?: string } = {}) => ({ authorization: `Bearer ${tokenFor(claims)}` });

