import { z } from 'zod';
import { env } from '@academy/kit';
import { jwtConfigShape } from '@academy/auth';

/** Variables every service reads; each service extends this schema in its own `config.ts`. */
export function baseConfigSchema(defaults: { port: number; database: string }) {
  return z.object({
    PORT: env.port(defaults.port),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: env.logLevel(),
    DATABASE_URL: env.url(`postgres://postgres@127.0.0.1:5432/${defaults.database}`),
    DATABASE_POOL_MAX: z.coerce.number().int().positive().default(20),
    /** Connections opened at start and kept however long they idle (`@academy/db`'s default when unset: 4). */
    DATABASE_POOL_MIN: z.coerce.number().int().nonnegative().optional(),
    /** Idle time after which a connection above the minimum closes (`@academy/db`'s default when unset: 60 s). */
    DATABASE_POOL_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
    /** How long a query waits for a pool connection before failing (a starved pool fails loudly, never hangs). */
    DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    RABBITMQ_URL: env.url('amqp://guest:guest@127.0.0.1:5672'),
    EVENTS_EXCHANGE: z.string().min(1).default('academy.events'),
    REDIS_URL: env.url('redis://127.0.0.1:6379'),
    /**
     * A command to the service's Redis not answered within this fails and its connection is dropped
     * (kit's createRedis: Redis trouble costs a caller milliseconds). Tests that assert what the
     * service stored in Redis give more on a loaded machine, where a stalled event loop exceeds 100 ms.
     */
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(100),
    ...jwtConfigShape,
    BODY_LIMIT: z.string().default('100kb'),
    /** How long a write's `Idempotency-Key` is remembered with its answer. */
    IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().default(24),
  });
}

export type BaseConfig = z.infer<ReturnType<typeof baseConfigSchema>>;
