import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Constructor, MikroORM, EntitySchema } from '@mikro-orm/postgresql';
import type { Migration } from '@mikro-orm/migrations';
import type { Redis } from 'ioredis';
import { closeServer, createHttpApp, createLogger, createMetrics, createRedis, listen, portOf, redisReadiness, systemClock, type Clock, type Logger, type Metrics, type ReadinessCheck } from '@academy/kit';
import { createOrm, dbReadiness, ensureDatabase, migrationCli, runMigrations, type OrmOptions } from '@academy/db';
import { createBroker, messagingEntities, startOutboxRelay, type Broker, type OutboxRelay } from '@academy/messaging';
import { createSessionRevocations, followRevocations, revocationTtlSeconds, verifierFromConfig, type RevocationFeed, type TokenVerifier } from '@academy/auth';
import type { BaseConfig } from './config.ts';
import { idempotencyEntities, pruneIdempotencyKeys, requestScope } from './idempotency.ts';
import { familyErrorStyle } from './routes.ts';

export interface ServiceContext<C extends BaseConfig = BaseConfig> {
  name: string;
  config: C;
  logger: Logger;
  metrics: Metrics;
  orm: MikroORM;
  broker: Broker;
  relay: OutboxRelay;
  verifier: TokenVerifier;
  /** Announced revocations (the verifier already honours them): for what holds a session open, such as a socket. */
  revocationFeed: RevocationFeed;
  /** The service's Redis (session revocations; a cache or Socket.IO where the service has one). */
  redis: Redis;
  /** "Now" for every rule that depends on the date or the hour: the system clock, or the one a test pinned. */
  clock: Clock;
}

export interface StartOptions {
  /** A test pins the service's clock (`fixedClock` from `@academy/kit`); the system clock otherwise. */
  clock?: Clock;
}

/**
 * One started instance of a service, as its `setup(ctx)` builds it: everything per instance (caches,
 * timers, workers, sockets) lives here, in the closure of one `setup` call, never in module state.
 */
export interface ServiceInstance<D = unknown> {
  /** Mounts the service's routes (`routes.ts`: each feature's `<feature>.routes.ts`). */
  routes: (app: Express) => void;
  /** Binds every queue to its handler (`subscriptions.ts`); run before the HTTP server listens. */
  subscriptions?: () => Promise<void>;
  /** Once the HTTP server listens: timers, Socket.IO on the same server. */
  listening?: (server: Server) => Promise<void> | void;
  /** At stop, before the HTTP server closes: ends long-lived connections (WebSockets) that would hold that close for its whole grace period. */
  beforeClose?: () => Promise<void> | void;
  /** At stop, once HTTP and the consumers have stopped, before the broker and the database close. */
  stop?: () => Promise<void> | void;
  /** The dependencies `setup` built and gave the features (`<Service>Context`), for tests that call a use case directly. */
  deps?: D;
}

export interface ServiceDefinition<C extends BaseConfig = BaseConfig, D = unknown> {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous entity list
  entities: EntitySchema<any, any>[];
  migrations: Constructor<Migration>[];
  /** Whether /readyz depends on Redis (a cache, Socket.IO between instances); every service reads revocations from it regardless. */
  readinessNeedsRedis?: boolean;
  /** The field names its privacy providers declare personal (`personalFieldNames` of @academy/privacy): its logger redacts them. */
  personalFields?: readonly string[];
  /** Builds one instance from the service's context: its dependencies once, then its routes, subscriptions and stop. */
  setup: (ctx: ServiceContext<C>) => ServiceInstance<D> | Promise<ServiceInstance<D>>;
}

export interface RunningService<C extends BaseConfig = BaseConfig, D = unknown> {
  ctx: ServiceContext<C>;
  /** What this instance's `setup` gave its features. */
  deps: D;
  app: Express;
  server: Server;
  port: number;
  url: string;
  stop: () => Promise<void>;
}

/**
 * config → database (created if missing, migrated) → broker (connects in the background, so an
 * outage delays events instead of blocking start) → outbox relay and consumers → HTTP.
 */
export async function startService<C extends BaseConfig, D = unknown>(definition: ServiceDefinition<C, D>, config: C, options: StartOptions = {}): Promise<RunningService<C, D>> {
  const clock = options.clock ?? systemClock;
  const logger = createLogger(definition.name, config.LOG_LEVEL, undefined, { redact: definition.personalFields });
  const metrics = createMetrics(definition.name);
  const orm = await openServiceOrm(definition, config.DATABASE_URL, {
    logger,
    poolMax: config.DATABASE_POOL_MAX,
    poolMin: config.DATABASE_POOL_MIN,
    idleTimeoutMs: config.DATABASE_POOL_IDLE_TIMEOUT_MS,
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
  });
  // Whatever start-up opened is closed again when a later step fails (no half-started service).
  const opened: (() => Promise<void> | void)[] = [() => orm.close()];
  const closeOpened = async () => {
    for (const close of opened.reverse()) await Promise.resolve().then(close).catch(() => undefined);
  };
  try {
    const broker = createBroker({ url: config.RABBITMQ_URL, service: definition.name, logger, exchange: config.EVENTS_EXCHANGE, registry: metrics.registry });
    opened.push(() => broker.close());
    void broker.start();
    const relay = startOutboxRelay({ orm, broker });
    opened.push(() => relay.stop());
    // Every service reads ended sessions from Redis; `readinessNeedsRedis` says whether its readiness depends on it (a cache).
    const redis = createRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS });
    redis.on('error', (error) => logger.debug({ err: error }, 'redis error'));
    opened.push(() => redis.disconnect());
    // Verified tokens are remembered briefly (never past their exp): ES256 verification is the costliest step of a cheap request.
    // A token of an ended session (logout, refresh reuse, deactivation) is refused at once when its revocation is
    // announced, otherwise within 2 s; with Redis away, tokens pass on signature and claims.
    const verifier = verifierFromConfig(config, 30_000, {
      revocations: createSessionRevocations(redis, { ttlSeconds: revocationTtlSeconds(config) }),
      onRevocationError: (error) => logger.debug({ err: error }, 'token revocations unreadable'),
    });
    // An announced revocation is honoured at once; the 2 s check stays for missed announcements.
    const revocationFeed = followRevocations(redis, verifier, (error) => logger.debug({ err: error }, 'revocation announcements: redis error'));
    opened.push(() => revocationFeed.close());
    const ctx: ServiceContext<C> = { name: definition.name, config, logger, metrics, orm, broker, relay, verifier, revocationFeed, redis, clock };

    const instance = await definition.setup(ctx);
    opened.push(() => instance.stop?.());
    await instance.subscriptions?.();

    const readiness: ReadinessCheck[] = [dbReadiness(orm), broker.readiness(), relay.readiness()];
    if (definition.readinessNeedsRedis) readiness.push(redisReadiness(redis));
    const app = createHttpApp({
      app: definition.name,
      logger,
      metrics,
      readiness,
      bodyLimit: config.BODY_LIMIT,
      beforeBody: (express) => express.use(familyErrorStyle),
      requestScope: requestScope({ orm, verifier, logger, ttlHours: config.IDEMPOTENCY_TTL_HOURS, now: () => clock.now() }),
      routes: (express) => instance.routes(express),
    });
    // Keys past their time are forgotten every quarter of an hour (a replay needs them for IDEMPOTENCY_TTL_HOURS only).
    const pruneKeys = setInterval(() => {
      pruneIdempotencyKeys(orm.em.fork(), clock.now()).catch((error: unknown) => logger.warn({ err: error }, 'idempotency keys: prune failed'));
    }, 15 * 60_000).unref();
    opened.push(() => clearInterval(pruneKeys));
    const server = await listen(app, config.PORT, config.HOST);
    opened.push(() => closeServer(server, 0));
    const port = portOf(server);
    await instance.listening?.(server);
    logger.info({ port }, `${definition.name} listening`);

    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        await instance.beforeClose?.();
        await closeServer(server);
        // Stop consuming and let in-flight handlers finish while the database is still open.
        await broker.stopConsuming();
        clearInterval(pruneKeys);
        await instance.stop?.();
        await relay.stop();
        await broker.close();
        await revocationFeed.close();
        redis.disconnect();
        await orm.close();
      })());
    return { ctx, deps: instance.deps as D, app, server, port, url: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await closeOpened();
    throw error;
  }
}

type OrmParts = Pick<ServiceDefinition, 'entities' | 'migrations'>;

/** The service's ORM (its entities with the outbox and inbox) on a database. */
function serviceOrm(definition: OrmParts, clientUrl: string, options: Partial<OrmOptions> = {}): Promise<MikroORM> {
  return createOrm({ clientUrl, entities: [...definition.entities, ...messagingEntities, ...idempotencyEntities], migrations: definition.migrations, ...options });
}

/** Creates the database if missing, connects and applies pending migrations (closing again on failure). */
async function openServiceOrm(definition: OrmParts, clientUrl: string, options: Partial<OrmOptions> = {}): Promise<MikroORM> {
  await ensureDatabase(clientUrl);
  const orm = await serviceOrm(definition, clientUrl, options);
  try {
    const applied = await runMigrations(orm);
    if (applied.length) options.logger?.info({ applied }, 'migrations applied');
    return orm;
  } catch (error) {
    await orm.close();
    throw error;
  }
}

/** `node apps/<service>/src/migrate.ts [--create <name> | --snapshot]`: applies or generates migrations. */
export async function runMigrationCli<C extends BaseConfig>(definition: ServiceDefinition<C>, config: C, migrationsPath: string): Promise<void> {
  await migrationCli({
    clientUrl: config.DATABASE_URL,
    migrationsPath,
    init: (clientUrl) => serviceOrm(definition, clientUrl, { migrationsPath }),
  });
}

/**
 * Runs a one-off script (seed, republish…) against a service's database: created if missing,
 * migrated, closed afterwards.
 */
export async function withServiceOrm<C extends BaseConfig, T>(definition: ServiceDefinition<C>, config: C, work: (orm: MikroORM) => Promise<T>): Promise<T> {
  const orm = await openServiceOrm(definition, config.DATABASE_URL);
  try {
    return await work(orm);
  } finally {
    await orm.close();
  }
}
