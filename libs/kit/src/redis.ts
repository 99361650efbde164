import type { Socket } from 'node:net';
import { Redis, type Command, type RedisOptions } from 'ioredis';
import type { ReadinessCheck } from './health.ts';
import type { Logger } from './logger.ts';

export interface RedisClientOptions {
  keyPrefix?: string;
  /** Shown by `CLIENT LIST`. */
  connectionName?: string;
  /** A command not answered within this fails ("Command timed out") and the caller falls back. Default 100 ms. */
  commandTimeoutMs?: number;
  /**
   * A connection with commands waiting and nothing received for this long is dropped and reopened
   * (also while it reconnects to a hung server). Default 1000 ms.
   */
  stallTimeoutMs?: number;
}

/** Reconnect delays: 50 ms doubling to 2 s, with jitter so instances do not reconnect in step. */
const retryStrategy = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2000) + Math.floor(Math.random() * 50);

/**
 * A Redis client for caches, shared counters and revocations: Redis trouble costs a caller at most a
 * few milliseconds, never an outage.
 *
 * - No offline queue: while the connection is down or reconnecting a command fails at once.
 * - `commandTimeoutMs` (100 ms): with a hung Redis (SIGSTOP, a network cut with no reset) a command
 *   fails after that long, and its timeout drops the connection at once, so the commands after it
 *   fail immediately (the client is no longer `ready`) until Redis answers a new connection's
 *   handshake. `stallTimeoutMs` (1 s) drops a connection that receives nothing while commands wait,
 *   which also ends each handshake attempt with a hung server.
 * - No retry of a command across reconnections (`maxRetriesPerRequest: 0`).
 *
 * Callers treat a rejected command as "Redis is away": a cache miss, an in-memory count
 * (rate-limiter-flexible's insuranceLimiter, with `rejectIfRedisNotReady`), a token accepted on its
 * signature. Check `redis.status === 'ready'` to skip Redis without even trying.
 *
 * For the Socket.IO Redis adapter use `createSocketIoRedis`, whose duplicates (blocking reads,
 * subscriptions) must wait rather than fail.
 */
export function createRedis(url: string, options: RedisClientOptions = {}): Redis {
  const redis = new Redis(url, commandOptions(options));
  reconnectOnTimeout(redis, options);
  return redis;
}

/**
 * A command that timed out means the server or the path to it hangs: drop the connection now (ioredis
 * reconnects with `retryStrategy`) rather than let every later command wait out its own timeout.
 */
function reconnectOnTimeout(redis: Redis, options: RedisClientOptions): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command: Command, stream?: Parameters<Redis['sendCommand']>[1]) => {
    const result = send(command, stream);
    command.promise.catch((error: unknown) => {
      if ((error as Error)?.message !== 'Command timed out' || redis.status !== 'ready') return;
      // Destroyed, not ended: a hung peer would never complete a graceful close.
      (redis as unknown as { stream?: Socket }).stream?.destroy(new Error(`no reply from Redis within ${options.commandTimeoutMs ?? 100} ms: connection dropped`));
    });
    return result;
  };
}

function commandOptions(options: RedisClientOptions): RedisOptions {
  return {
    keyPrefix: options.keyPrefix,
    connectionName: options.connectionName,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 100,
    socketTimeout: options.stallTimeoutMs ?? 1000,
    connectTimeout: 1000,
    retryStrategy,
    lazyConnect: false,
  };
}

/**
 * The client to give `@socket.io/redis-streams-adapter` (`createAdapter(createSocketIoRedis(url))`).
 * The adapter publishes (XADD, heartbeats, session restore) with this client, which fails fast like
 * any other: an emit then still reaches this instance's sockets at once. It also duplicates the client
 * for its `XREAD BLOCK` loop and its subscriptions; those duplicates keep an offline queue and no
 * command timeout (a short timeout would cut every blocking read, and without a queue the read loop
 * would spin while Redis is away), with ioredis's `blockingTimeout` so a blocking read on a dead
 * connection returns, and a stall timeout above the block time.
 */
export function createSocketIoRedis(url: string, options: RedisClientOptions & { blockTimeMs?: number } = {}): Redis {
  const redis = createRedis(url, options);
  const blockTimeMs = options.blockTimeMs ?? 5000;
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override?: Partial<RedisOptions>) =>
    duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      blockingTimeout: blockTimeMs + 1000,
      socketTimeout: blockTimeMs * 2 + 1000,
      ...override,
    });
  return redis;
}

/**
 * `/readyz` check of a Redis client. Not critical by default: with Redis away the service still
 * serves (its fallbacks run) and reports `degraded`, and a load balancer keeps it in rotation.
 */
export function redisReadiness(redis: Redis, options: { name?: string; critical?: boolean } = {}): ReadinessCheck {
  return {
    name: options.name ?? 'cache',
    critical: options.critical ?? false,
    check: async () => {
      if (redis.status !== 'ready') throw new Error(`redis is ${redis.status}`);
      await redis.ping();
    },
  };
}

export interface RedisGateOptions {
  /** After a failed command, Redis is skipped for this long (callers go without it). Default 1 s. */
  pauseAfterFailureMs?: number;
  /** At most one warning per this long; the failures in between are logged at debug. Default 10 s. */
  warnEveryMs?: number;
  /** "Now" in ms (tests pin it). */
  now?: () => number;
}

/**
 * Whether a cache should use Redis right now: only while the client is `ready`, and not for
 * `pauseAfterFailureMs` after one of its commands failed (Redis away or slow: go without it at once
 * rather than fail every command in turn). Failures are logged as a throttled warning.
 */
export class RedisGate {
  private skipUntil = 0;
  private lastWarning = Number.NEGATIVE_INFINITY;
  private readonly pauseMs: number;
  private readonly warnEveryMs: number;
  private readonly now: () => number;
  private readonly redis: Redis;
  private readonly logger: Pick<Logger, 'warn' | 'debug'>;

  constructor(redis: Redis, logger: Pick<Logger, 'warn' | 'debug'>, options: RedisGateOptions = {}) {
    this.redis = redis;
    this.logger = logger;
    this.pauseMs = options.pauseAfterFailureMs ?? 1000;
    this.warnEveryMs = options.warnEveryMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  usable(): boolean {
    return this.redis.status === 'ready' && this.now() >= this.skipUntil;
  }

  /** A command failed: Redis is skipped for the pause; `message` says what the caller does instead. */
  failed(error: unknown, message: string): void {
    const now = this.now();
    this.skipUntil = now + this.pauseMs;
    if (now - this.lastWarning >= this.warnEveryMs) {
      this.lastWarning = now;
      this.logger.warn({ err: error }, message);
    } else {
      this.logger.debug({ err: error }, message);
    }
  }
}
