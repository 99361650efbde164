import http, { type Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { Histogram } from 'prom-client';
import { createSessionRevocations, followRevocations, revocationTtlSeconds, verifierFromConfig } from '@academy/auth';
import { CONSOLE_SESSION_PATH } from '@academy/contracts';
import { closeServer, createHttpApp, createLogger, createMetrics, createRedis, KEEP_ALIVE_TIMEOUT_MS, portOf, redisReadiness } from '@academy/kit';
import type { Config } from './config.ts';
import { docsRouter } from './docs.ts';
import { consoleSessionRouter } from './console-session.ts';
import { consoleRouter } from './console-static.ts';
import { edgeHandler } from './edge.ts';
import { answerClientError, createServiceProxy, upstreamsOf } from './proxy.ts';
import { createRateLimits } from './rate-limit.ts';
import { upstreamReadiness } from './readiness.ts';
import { SERVICES, type ServiceName } from './route-table.ts';
import { handleUpgrades } from './websocket.ts';

export interface RunningGateway {
  server: Server;
  port: number;
  url: string;
  stop: () => Promise<void>;
}

/** The front door: authenticates, rate-limits and proxies `/api/*` and `/socket.io` to the services; serves the console at `/` and its cookie session. */
export async function startGateway(config: Config): Promise<RunningGateway> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const metrics = createMetrics('gateway');
  const upstreamDuration = new Histogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Time to the upstream response headers, by service and status (0 for failures)',
    labelNames: ['service', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });

  const redis = createRedis(config.REDIS_URL);
  // Keys are parsed once here; verified tokens are remembered briefly (never past exp), and whether
  // their session was ended is asked of Redis at most every TOKEN_REVOCATION_CHECK_MS per token
  // (an announced revocation is honoured at once, below).
  let revocationStoreDown = false;
  const verifier = verifierFromConfig(config, config.TOKEN_CACHE_MS, {
    revocations: createSessionRevocations(redis, { ttlSeconds: revocationTtlSeconds(config) }),
    revocationCheckMs: config.TOKEN_REVOCATION_CHECK_MS,
    onRevocationError: (error) => {
      if (!revocationStoreDown) logger.warn({ err: error }, 'token revocations unreadable (redis): tokens accepted on signature and claims alone');
      revocationStoreDown = true;
    },
  });
  // An announced revocation (logout…) is honoured at once; the periodic check stays for missed ones.
  const revocationFeed = followRevocations(redis, verifier, (error) => logger.debug({ err: error }, 'revocation announcements: redis error'));
  let redisDown = false;
  redis.on('error', (error) => {
    if (!redisDown) logger.warn({ err: error }, 'redis unavailable: rate limits counted in memory per instance');
    redisDown = true;
  });
  redis.on('ready', () => {
    if (redisDown) logger.info('redis reachable again: rate limits shared again');
    redisDown = false;
    revocationStoreDown = false;
  });
  const limits = createRateLimits(redis, config, logger);
  // Counting starts in Redis when it is reachable; otherwise the gateway starts anyway, counting in memory.
  const redisReady = await Promise.race([new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))), delay(2000, false, { ref: false })]);
  if (!redisReady) logger.warn('redis not reachable at start: rate limits counted in memory until it is');

  const upstreams = upstreamsOf(config);
  const onDone = (service: ServiceName, status: number, seconds: number) => upstreamDuration.observe({ service, status: String(status) }, seconds);
  const proxies = Object.fromEntries(SERVICES.map((service) => [service, createServiceProxy(service, upstreams[service], config.UPSTREAM_TIMEOUT_MS, logger, onDone)])) as Record<
    ServiceName,
    ReturnType<typeof createServiceProxy>
  >;
  const realtimeProxy = createServiceProxy('notifications', upstreams.notifications, config.LONG_POLL_TIMEOUT_MS, logger, onDone);

  // Express serves the gateway's own routes only: probes, metrics, docs, the console and its session, the 404.
  const app = createHttpApp({
    app: 'gateway',
    logger,
    metrics,
    trustProxy: config.TRUST_PROXY,
    readiness: [redisReadiness(redis), ...upstreamReadiness(upstreams)],
    routes: (express) => {
      express.use('/api/docs', docsRouter());
      const academy = { locale: config.ACADEMY_LOCALE, timeZone: config.ACADEMY_TIME_ZONE };
      express.use(CONSOLE_SESSION_PATH, consoleSessionRouter({ academicUrl: upstreams.academic, timeoutMs: config.UPSTREAM_TIMEOUT_MS, academy, limits, logger }));
      express.use('/', consoleRouter(config.CONSOLE_DIR));
    },
  });
  const edge = edgeHandler({ config, verifier, limits, proxies, realtimeProxy, logger, metrics });

  // The parser allows 64 KB more than the gateway does, so headers just past MAX_HEADER_BYTES reach
  // the edge handler and get the route's JSON 431; past the parser's limit, clientError answers.
  // Idle client connections are kept 65 s, as the services keep the gateway's (KEEP_ALIVE_TIMEOUT_MS): with Node's
  // 5 s a client whose event loop was late by a second wrote on a connection the gateway had just closed
  // ("other side closed", the console's tests at load); the client closes first (Keep-Alive: timeout=65).
  const server = http.createServer({ maxHeaderSize: config.MAX_HEADER_BYTES + 64 * 1024, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, (req, res) => {
    if (!edge(req, res)) app(req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket));
  handleUpgrades(server, { verifier, limits, proxy: realtimeProxy, logger });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = portOf(server);
  logger.info({ port, upstreams }, 'gateway listening');

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await closeServer(server);
      await revocationFeed.close();
      redis.disconnect();
    })());
  return { server, port, url: `http://127.0.0.1:${port}`, stop };
}
