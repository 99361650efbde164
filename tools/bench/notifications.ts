// `npm run bench:notifications`: (1) `incident.updated` committed to an outbox → relay → RabbitMQ →
// the notifications consumer → Socket.IO `incident_notification` received by 500 clients connected
// through the gateway (p50/p99 over every client and event); (2) a push send to 10,000 tokens with the
// recording provider (no Firebase account); (3) the preference check's cost on an e-mail's send path:
// the mail worker (email/mail-worker.ts) takes one queued mail to a real SMTP server with the check
// and without it, interleaved. Starts the test servers if needed, notifications and the gateway
// in-process on port 0; the 500 clients and the SMTP server live in worker threads so they do not
// share the service's event loop. Bounded: about 30 s on two cores.
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
const MAILS = Number(process.env.BENCH_MAILS ?? 500);
const MAIL_WARMUP = 50;
/** Users and guardian addresses with stored opt-outs, so the check reads an index of some size. */
const PREFERENCE_USERS = 5_000;

interface ClientsData {
  kind: 'clients';
  url: string;
  tokens: string[];
}

interface SmtpData {
  kind: 'smtp';
}

/**
 * Worker: a real SMTP server (smtp-server) on a free loopback port, its own event loop. Reports the
 * `X-Academy-Delivery` id of each accepted mail when asked, so the bench sees every mail arrived once.
 */
async function runSmtp(): Promise<void> {
  const { SMTPServer } = await import('smtp-server');
  const delivered: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    // No reverse DNS of the client per connection (the pool opens a new one every 100 mails).
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const headers = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n', 1)[0]!;
        const id = /^x-academy-delivery:\s*(\d+)/im.exec(headers)?.[1];
        if (id) delivered.push(Number(id));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  parentPort!.postMessage({ port: (server.server.address() as { port: number }).port });
  parentPort!.on('message', (message: string) => {
    if (message === 'delivered') parentPort!.postMessage({ delivered });
  });
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
  const { smtpTransport, createMailWorker } = await import('../../apps/notifications/src/email/mail-worker.ts');
  const { notificationsService } = await import('../../apps/notifications/src/service.ts');
  const gatewayConfig = await import('../../apps/gateway/src/config.ts');
  const { startGateway } = await import('../../apps/gateway/src/gateway.ts');
  const { percentile } = await import('./support.ts');

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
    // The service's own mail worker stays idle (no event here writes a mail): section (3) runs its own, one mail at a time.
    MAIL_POLL_MS: 86_400_000,
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
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  let worker: Worker | null = null;
  let smtp: Worker | null = null;

  try {
    console.log(`notifications benchmark: ${CLIENTS} Socket.IO clients through the gateway, ${EVENTS} events; push to ${PUSH_TOKENS} tokens; ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);

    // (1) outbox → socket clients, straight to notifications, then through the gateway (the gateway
    // runs in this same thread here, so its proxying competes with the service for one core).
    // Every client is an admin, so each event goes to all of them.
    const tokens = Array.from({ length: CLIENTS }, (_, i) => tokenFor({ sub: String(10_000 + i), role: 'admin' }, 900));
    let eventNumber = 0;
    const measure = async (url: string, label: string) => {
      worker = new Worker(new URL(import.meta.url), { workerData: { kind: 'clients', url, tokens } satisfies ClientsData });
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

    // (3) The preference check on an e-mail's send path. One send is the mail worker's round for one
    // queued mail (batch size 1): claim the row, the preference check, the SMTP send over the pooled
    // transport (a real SMTP server on loopback, in its own thread), the row marked sent; started and
    // awaited through the worker's own API (start, stop). "With": a block.approved mail to a user with
    // stored settings (the check probes their e-mail preference and the address's unsubscribe, in the
    // claim's statement). "Without": the same mail as payslip.published, a critical type the check
    // probes nothing for: the same code path but the check. Mails of the two alternate in pairs of
    // random order, so load drifts and the pool's periodic reconnection (nodemailer waits 100 ms every
    // 100 mails: the p99s) hit both alike. Then the check is shown at work: a user who switches the
    // type off gets a skipped delivery, and their next mail after switching it on again is sent.
    for (const statement of [
      `insert into notification_preferences (user_id, type, channel, enabled, updated_at)
       select u, t.type, t.channel, false, now() from generate_series(1, ${PREFERENCE_USERS}) u,
              (values ('block_approved', 'push'), ('attendance_reminder', 'email'), ('approval_digest', 'email')) t(type, channel)`,
      `insert into email_unsubscribes (recipient, type, created_at) select 'guardian' || g || '@bench.local', 'block_approved', now() from generate_series(1, ${PREFERENCE_USERS}) g`,
      'analyze notification_preferences',
      'analyze email_unsubscribes',
    ]) {
      await service.ctx.orm.em.getConnection().execute(statement, [], 'run');
    }
    const [open] = await service.ctx.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int n from deliveries where channel = 'email' and status in ('pending', 'sending')`, [], 'all');
    if (open!.n !== 0) throw new Error(`${open!.n} e-mail deliveries already queued: the measured worker would take them`);
    smtp = new Worker(new URL(import.meta.url), { workerData: { kind: 'smtp' } satisfies SmtpData });
    const smtpAsk = <T>(message: string, key: string) =>
      new Promise<T>((resolve, reject) => {
        const listen = (answer: Record<string, T>) => {
          if (key in answer) {
            smtp!.off('message', listen);
            resolve(answer[key]!);
          }
        };
        smtp!.on('message', listen);
        smtp!.once('error', reject);
        if (message) smtp!.postMessage(message);
      });
    const smtpPort = await smtpAsk<number>('', 'port');
    const pooled = smtpTransport(`smtp://127.0.0.1:${smtpPort}`, config.SMTP_MAX_CONNECTIONS);
    // The worker closes its transport when it stops; the pool lives across sends, as in the service.
    const transport = { sendMail: pooled.sendMail.bind(pooled), close: () => undefined };
    // A mail of a template's size (the worker sends the stored payload as it is).
    const subject = 'Tu bloque Fracciones ha sido aprobado';
    const text = 'Hola, Lucía:\n\nTu bloque Fracciones de Matemáticas ha sido aprobado.\n\nTu siguiente bloque, Decimales, ya está disponible.\n\nUn saludo,\nLa academia\n';
    const html = `<!doctype html><html lang="es"><body>${text.split('\n\n').map((paragraph) => `<p>${paragraph}</p>`).join('')}</body></html>`;
    let mailNumber = 0;
    const sendOne = async (checked: boolean, userId = 1 + ((mailNumber + 1) % PREFERENCE_USERS)): Promise<{ ms: number; id: number }> => {
      const n = ++mailNumber;
      const to = `student${n}@bench.local`;
      const [row] = await service.ctx.orm.em.getConnection().execute<{ id: string }[]>(
        `insert into deliveries (event_id, event_type, channel, recipient, user_id, template, subject, payload, status, attempts, next_attempt_at, created_at, updated_at)
         values (?, ?, 'email', ?, ?, 'blockApprovedStudentTemplate', ?, ?, 'pending', 0, now(), now(), now()) returning id`,
        [`bench-mail-${n}`, checked ? 'block.approved' : 'payslip.published', to, userId, subject, JSON.stringify({ to, role: 'student', subject, html, text })],
        'all',
      );
      const started = performance.now();
      const mailWorker = createMailWorker({ orm: service.ctx.orm, transport, from: config.MAIL_FROM, logger: service.ctx.logger, maxAttempts: 1, retryBaseMs: 1000, retryMaxMs: 1000, pollMs: 86_400_000, batchSize: 1 });
      mailWorker.start();
      await mailWorker.stop(); // waits for the round it started: this one mail, claimed, checked, sent and marked
      return { ms: performance.now() - started, id: Number(row!.id) };
    };
    const times = { with: [] as number[], without: [] as number[] };
    const ids: number[] = [];
    for (let i = 0; i < MAIL_WARMUP; i++) ids.push((await sendOne(i % 2 === 0)).id);
    for (let i = 0; i < MAILS; i++) {
      for (const checked of Math.random() < 0.5 ? [true, false] : [false, true]) {
        const sent = await sendOne(checked);
        times[checked ? 'with' : 'without'].push(sent.ms);
        ids.push(sent.id);
      }
    }
    const setting = (enabled: boolean) =>
      service.ctx.orm.em.getConnection().execute(
        `insert into notification_preferences (user_id, type, channel, enabled, updated_at) values (?, 'block_approved', 'email', ?, now())
         on conflict (user_id, type, channel) do update set enabled = excluded.enabled, updated_at = excluded.updated_at`,
        [PREFERENCE_USERS + 1, enabled],
        'run',
      );
    await setting(false);
    const held = await sendOne(true, PREFERENCE_USERS + 1);
    await setting(true);
    ids.push((await sendOne(true, PREFERENCE_USERS + 1)).id);
    pooled.close();
    const [heldRow] = await service.ctx.orm.em.getConnection().execute<{ status: string }[]>(`select status from deliveries where id = ?`, [held.id], 'all');
    if (heldRow!.status !== 'skipped') throw new Error(`mail bench: a mail of a type its user switched off is ${heldRow!.status}, not skipped`);
    // Every other mail sent, and arrived once (the skipped one not at all).
    const [notSent] = await service.ctx.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int n from deliveries where id = any(?::bigint[]) and status <> 'sent'`, [`{${ids.join(',')}}`], 'all');
    const delivered = await smtpAsk<number[]>('delivered', 'delivered');
    const arrivedOnce = delivered.length === ids.length && new Set(delivered).size === ids.length && ids.every((id) => delivered.includes(id));
    if (notSent!.n !== 0 || !arrivedOnce) throw new Error(`mail bench: ${notSent!.n} not sent; ${delivered.length} of ${ids.length} arrived (${new Set(delivered).size} distinct)`);
    const withSorted = [...times.with].sort((a, b) => a - b);
    const withoutSorted = [...times.without].sort((a, b) => a - b);
    const fmt2 = (ms: number) => `${ms.toFixed(2)} ms`;
    const addedP50 = percentile(withSorted, 50) - percentile(withoutSorted, 50);
    const addedP99 = percentile(withSorted, 99) - percentile(withoutSorted, 99);
    console.log(
      `e-mail    send path (claim → preference check → pooled SMTP to loopback → marked sent), ${MAILS} mails each, interleaved, ${PREFERENCE_USERS * 3} stored preferences, ${PREFERENCE_USERS} unsubscribes: ` +
        `with the check p50 ${fmt2(percentile(withSorted, 50))} p99 ${fmt2(percentile(withSorted, 99))}; without p50 ${fmt2(percentile(withoutSorted, 50))} p99 ${fmt2(percentile(withoutSorted, 99))}; ` +
        `the check adds p50 ${fmt2(addedP50)}, p99 ${fmt2(addedP99)} (target < 1 ms p50: met ${addedP50 < 1}); every mail arrived once, a switched-off one skipped and the next after switching on sent`,
    );
  } finally {
    // assigned inside measure(), which the compiler's narrowing does not see
    await (worker as Worker | null)?.terminate();
    await (smtp as Worker | null)?.terminate();
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
} else if ((workerData as ClientsData | SmtpData).kind === 'smtp') {
  await runSmtp();
} else {
  await runClients(workerData as ClientsData);
}
