// `npm run bench:notifications`: (1) `incident.updated` committed to an outbox → relay → RabbitMQ →
// the notifications consumer → Socket.IO `incident_notification` received by 500 clients connected
// through the gateway (p50/p99 over every client and event); (2) a push send to 10,000 tokens with the
// recording provider (no Firebase account). Starts the test servers if needed, notifications and the
// gateway in-process on port 0; the 500 clients live in a worker thread so they do not share the
// service's event loop. Bounded: about 20 s on two cores.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { cpus, loadavg } from 'node:os';
import amqp from 'amqplib';
import { io as connect, type Socket } from 'socket.io-client';
import type { EventData } from '@academy/contracts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 30);
const EVENT_GAP_MS = 150;
const PUSH_TOKENS = 10_000;
const PUSH_USERS = 1_000;
const PUSH_ROUNDS = 3;

interface ClientsData {
  url: string;
  tokens: string[];
}

/** Worker: opens the sockets, then reports each notification's arrival (epoch ms) to the main thread. */
async function runClients({ url, tokens }: ClientsData): Promise<void> {
  const sockets: Socket[] = [];
  for (let i = 0; i < tokens.length; i += 50) {
    const batch = tokens.slice(i, i + 50).map((token) => connect(url, { transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true }));
    await Promise.all(batch.map((socket) => new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject))));
    sockets.push(...batch);
  }
  // Arrivals are kept here and sent once at the end: a message per arrival would load the main
  // thread (the service under test) with 500 messages per event.
  const arrivals: [string, number][] = [];
  for (const socket of sockets) {
    socket.on('incident_notification', (notification: { eventId: string }) => {
      arrivals.push([notification.eventId, performance.timeOrigin + performance.now()]);
    });
  }
  const progress = setInterval(() => parentPort!.postMessage({ received: arrivals.length }), 100);
  parentPort!.postMessage({ ready: sockets.length });
  parentPort!.once('message', () => {
    clearInterval(progress);
    for (const socket of sockets) socket.close();
    parentPort!.postMessage({ arrivals });
  });
}

async function main(): Promise<void> {
  const { ensureInfra, stopInfra } = await import('@academy/infra');
  const { startService } = await import('@academy/service');
  const { recordEvent, dlqName, retryQueueName } = await import('@academy/messaging');
  const { dropTestDatabase, testConfig, testUrls, tokenFor, uniqueName, uniqueQueueName } = await import('@academy/testing');
  const { ConfigSchema } = await import('../../apps/notifications/src/config.ts');
  const { notificationsService } = await import('../../apps/notifications/src/service.ts');
  const gatewayConfig = await import('../../apps/gateway/src/config.ts');
  const { startGateway } = await import('../../apps/gateway/src/gateway.ts');

  const infra = await ensureInfra('test', (line) => console.log(`[infra] ${line}`));
  const apiKey = 'bench-push-api-key-0123456789';
  const config = {
    ...ConfigSchema.parse({}),
    ...(await testConfig('bench_notifications')),
    LOG_LEVEL: 'warn' as const,
    PUSH_NOTIFICATIONS_API_KEY: apiKey,
    EMAIL_QUEUE: uniqueQueueName('notifications.email'),
    REALTIME_QUEUE: uniqueQueueName('notifications.incidents'),
    SOCKET_STREAM: uniqueName('bench:socket.io'),
    SOCKET_STREAM_BLOCK_MS: 500,
  };
  const service = await startService(notificationsService, config);
  await service.ctx.broker.start();
  const gateway = await startGateway(
    gatewayConfig.ConfigSchema.parse({
      PORT: '0',
      LOG_LEVEL: 'warn',
      NOTIFICATIONS_URL: service.url,
      JWT_KEYS_DIR: config.JWT_KEYS_DIR,
      JWT_KEY_IDS: config.JWT_KEY_IDS.join(','),
      REDIS_URL: testUrls.redis,
      RATE_LIMIT_KEY_PREFIX: uniqueName('bench_rl'),
      RATE_LIMIT_IP_PER_MINUTE: '100000',
      RATE_LIMIT_USER_PER_MINUTE: '100000',
    }),
  );
  const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  let worker: Worker | null = null;

  try {
    console.log(`notifications benchmark: ${CLIENTS} Socket.IO clients through the gateway, ${EVENTS} events; push to ${PUSH_TOKENS} tokens; ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);

    // (1) outbox → socket clients, straight to notifications, then through the gateway (the gateway
    // runs in this same thread here, so its proxying competes with the service for one core).
    // Every client is an admin, so each event goes to all of them.
    const tokens = Array.from({ length: CLIENTS }, (_, i) => tokenFor({ sub: String(10_000 + i), role: 'admin' }, 900));
    let eventNumber = 0;
    const measure = async (url: string, label: string) => {
      worker = new Worker(new URL(import.meta.url), { workerData: { url, tokens } satisfies ClientsData });
      let received = 0;
      let collected: (arrivals: [string, number][]) => void = () => {};
      const all = new Promise<[string, number][]>((resolve) => (collected = resolve));
      const ready = new Promise<number>((resolve, reject) => {
        worker!.on('error', reject);
        worker!.on('message', (message: { ready?: number; received?: number; arrivals?: [string, number][] }) => {
          if (message.ready !== undefined) resolve(message.ready);
          if (message.received !== undefined) received = message.received;
          if (message.arrivals) collected(message.arrivals);
        });
      });
      const connectStarted = performance.now();
      const connected = await ready;
      const connectMs = Math.round(performance.now() - connectStarted);
      await new Promise((resolve) => setTimeout(resolve, 600)); // the adapter reads its stream from "$"

      const committedAt = new Map<string, number>();
      for (let i = 0; i < EVENTS; i++) {
        const em = service.ctx.orm.em.fork();
        const data = { incidentId: ++eventNumber, employeeId: 1, employeeUserId: 9_999, status: 'open', change: 'employee_message', byUserId: 9_999 } as EventData<'incident.updated'>;
        const event = recordEvent(em, 'incident.updated', data, { source: 'bench' });
        await em.flush();
        committedAt.set(event.id, performance.timeOrigin + performance.now());
        await new Promise((resolve) => setTimeout(resolve, EVENT_GAP_MS));
      }
      const deadline = Date.now() + 15_000;
      while (received < EVENTS * CLIENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      worker.postMessage('close');
      const arrivals = await all;
      const latencies = arrivals.map(([id, at]) => at - (committedAt.get(id) ?? Infinity)).sort((a, b) => a - b);
      console.log(
        `realtime  ${label}: ${connected} sockets (connected in ${connectMs} ms), ${latencies.length} of ${EVENTS * CLIENTS} deliveries, ` +
          `commit → received p50 ${fmt(percentile(latencies, 50))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(latencies[latencies.length - 1])} (target p99 < 200 ms)`,
      );
      await worker.terminate();
      worker = null;
    };
    console.log('realtime  path: outbox commit → relay → RabbitMQ → consumer → io.to(admins) (Redis Streams adapter, recovery on) → clients');
    await measure(service.url, 'straight to notifications');
    await measure(gateway.url, 'through the gateway');

    // (2) push send to 10,000 tokens (10 devices for each of 1,000 users), recording provider.
    await service.ctx.orm.em
      .getConnection()
      .execute(
        `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at)
         select u, 'device-' || d, 'bench-token-' || u || '-' || d || '-' || md5(random()::text), case when d % 2 = 0 then 'ios' else 'android' end, now(), now(), now()
         from generate_series(1, ${PUSH_USERS}) u, generate_series(1, ${PUSH_TOKENS / PUSH_USERS}) d`,
        [],
        'run',
      );
    const userIds = Array.from({ length: PUSH_USERS }, (_, i) => i + 1);
    const durations: number[] = [];
    for (let round = 0; round < PUSH_ROUNDS; round++) {
      const started = performance.now();
      const res = await fetch(`${gateway.url}/api/v2/push-notifications/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ userIds, title: 'Bench', body: 'Ten thousand devices', priority: 'high', data: { round: String(round) } }),
      });
      const body = (await res.json()) as { tokensCount: number; successCount: number };
      durations.push(performance.now() - started);
      if (res.status !== 200 || body.tokensCount !== PUSH_TOKENS || body.successCount !== PUSH_TOKENS) throw new Error(`push send answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    console.log(
      `push      POST /api/v2/push-notifications/send through the gateway, ${PUSH_USERS} users, ${PUSH_TOKENS} tokens, recording provider (20 chunks of 500): ` +
        `${durations.map((ms) => fmt(ms)).join(', ')} (target < 2 s)`,
    );
  } finally {
    // assigned inside measure(), which the compiler's narrowing does not see
    await (worker as Worker | null)?.terminate();
    await gateway.stop();
    await service.stop();
    await dropTestDatabase(config.DATABASE_URL);
    const connection = await amqp.connect(testUrls.rabbitmq);
    const channel = await connection.createChannel();
    for (const queue of [config.EMAIL_QUEUE, config.REALTIME_QUEUE]) {
      for (const name of [queue, dlqName(queue), ...[1000, 5000, 30000].map((delay) => retryQueueName(queue, delay))]) await channel.deleteQueue(name).catch(() => undefined);
    }
    await channel.deleteExchange(config.EVENTS_EXCHANGE).catch(() => undefined);
    await channel.deleteExchange(`${config.EVENTS_EXCHANGE}.unrouted`).catch(() => undefined);
    await connection.close().catch(() => undefined);
    if (infra.started.length) await stopInfra('test', infra.started);
  }
}

if (isMainThread) {
  await main();
  process.exit(0);
} else {
  await runClients(workerData as ClientsData);
}
