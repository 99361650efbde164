import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { io as connect, type Socket } from 'socket.io-client';
import type { EventData, IncidentNotification } from '@academy/contracts';
import { Redis } from 'ioredis';
import { startFaultRedis } from '@academy/infra';
import { createSessionRevocations, createTokenSigner, loadKeyRing, REVOCATION_KEY_PREFIX } from '@academy/auth';
import { TEST_AUDIENCE, TEST_ISSUER, TEST_KEYS_DIR, TEST_KID, testUrls, tokenFor } from '@academy/testing';
import { envelope, handled, notificationsConfig, sleep, sql, startNotifications, stopNotifications, until, type Notifications } from '../support.ts';
import { serviceSlot } from '@academy/testing/harness';
import { startGatewayProcess, type TestGateway } from '../gateway.ts';
import type { NotificationsContext } from '../../src/notifications-context.ts';

const EMPLOYEE_USER = 21;
const OTHER_USER = 22;

let nextIncident = 1;
function incidentChange(overrides: Partial<EventData<'incident.updated'>> = {}): EventData<'incident.updated'> {
  return { incidentId: nextIncident++, employeeId: 7, employeeUserId: EMPLOYEE_USER, status: 'open', change: 'employee_message', byUserId: EMPLOYEE_USER, ...overrides } as EventData<'incident.updated'>;
}

/** A socket.io-client collecting every `incident_notification` it receives. */
interface Client {
  socket: Socket;
  received: IncidentNotification[];
}

const clients: Client[] = [];

function client(url: string, options: { token?: string; via?: 'query' | 'auth'; reconnection?: boolean } = {}): Client {
  const via = options.via ?? 'auth';
  const socket = connect(url, {
    transports: ['websocket'],
    reconnection: options.reconnection ?? false,
    forceNew: true,
    ...(options.token ? (via === 'query' ? { query: { token: options.token } } : { auth: { token: options.token } }) : {}),
  });
  const entry: Client = { socket, received: [] };
  socket.on('incident_notification', (notification: IncidentNotification) => entry.received.push(notification));
  clients.push(entry);
  return entry;
}

const connected = (entry: Client) =>
  new Promise<void>((resolve, reject) => {
    if (entry.socket.connected) return resolve();
    entry.socket.once('connect', () => resolve());
    entry.socket.once('connect_error', (error) => reject(error));
  });
const refused = (entry: Client) =>
  new Promise<string>((resolve, reject) => {
    entry.socket.once('connect', () => reject(new Error('connected although it should have been refused')));
    entry.socket.once('connect_error', (error) => resolve(error.message));
  });

afterEach(() => {
  for (const entry of clients.splice(0)) entry.socket.close();
});

/**
 * A start (and a stop) in a hook: the service's start at load takes tens of seconds, a gateway process's start up
 * to GATEWAY_START_TIMEOUT_MS (Jest's 30 s failed it at load 25). serviceSlot stops what a start that outlived
 * its hook started.
 */
const START_HOOK_TIMEOUT_MS = 120_000;

describe('incident_notification over Socket.IO, through the gateway', () => {
  let service: Notifications;
  let gateway: TestGateway;
  const started = serviceSlot(
    async () => {
      // sockets checked against the revocations only every minute: a prompt end is the announcement's doing
      const running = await startNotifications(await notificationsConfig({ ACADEMY_LOCALE: 'en', SOCKET_SESSION_CHECK_MS: 60_000 }));
      try {
        return { service: running, gateway: await startGatewayProcess(running.url) };
      } catch (error) {
        await stopNotifications(running);
        throw error;
      }
    },
    async (both) => {
      await both.gateway.stop();
      await stopNotifications(both.service);
    },
  );

  beforeAll(async () => {
    ({ service, gateway } = await started.begin());
  }, START_HOOK_TIMEOUT_MS);
  afterAll(() => started.end(), START_HOOK_TIMEOUT_MS);

  const publish = async (data: EventData<'incident.updated'>, type: 'incident.updated' | 'incident.created' = 'incident.updated') => {
    const event = envelope(type, data);
    await service.ctx.broker.publish([event]);
    await handled(service, event.id, service.ctx.config.REALTIME_QUEUE);
    return event;
  };

  test('after incident.updated, the employee and the admins receive it; another user does not', async () => {
    const employee = client(gateway.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user', employeeId: 7 }) });
    const admin = client(gateway.url, { token: tokenFor({ sub: '1', role: 'admin' }) });
    const other = client(gateway.url, { token: tokenFor({ sub: String(OTHER_USER), role: 'user' }) });
    await Promise.all([employee, admin, other].map(connected));

    const data = incidentChange({ change: 'status_changed', status: 'closed', byUserId: 1, kind: 'CLOCK_IN_WHILE_OPEN', description: 'Clock-in while a record was open' });
    const event = await publish(data);
    await until(async () => employee.received.length > 0 && admin.received.length > 0, 15_000, 'both received');
    const expected: IncidentNotification = {
      eventId: event.id,
      incidentId: data.incidentId,
      employeeId: 7,
      change: 'status_changed',
      status: 'closed',
      byUserId: 1,
      occurredAt: event.occurredAt,
      kind: 'CLOCK_IN_WHILE_OPEN',
      description: 'Clock-in while a record was open',
    };
    expect(employee.received).toEqual([expected]);
    expect(admin.received).toEqual([expected]);
    await sleep(300);
    expect(other.received).toEqual([]);
  });

  test('incident.created reaches the employee too', async () => {
    const employee = client(gateway.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }) });
    await connected(employee);
    const data = incidentChange({ change: 'created', byUserId: null });
    await publish(data, 'incident.created');
    await until(async () => employee.received.length > 0, 15_000, 'received');
    expect(employee.received[0]).toMatchObject({ incidentId: data.incidentId, change: 'created' });
  });

  test('the token in the handshake’s auth.token works through the gateway too', async () => {
    const employee = client(gateway.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }), via: 'auth' });
    await connected(employee);
    const data = incidentChange();
    await publish(data);
    await until(async () => employee.received.length > 0, 15_000, 'received');
    expect(employee.received[0]).toMatchObject({ incidentId: data.incidentId });
    const expired = client(gateway.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }, -60), via: 'auth' });
    expect(await refused(expired)).toBe('Unauthorized');
  });

  test('without a token, or with an expired one, the connection is refused and nothing is received', async () => {
    const anonymous = client(gateway.url);
    const expired = client(gateway.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }, -60) });
    await Promise.all([refused(anonymous), refused(expired)]);
    await publish(incidentChange());
    await sleep(300);
    expect(anonymous.received).toEqual([]);
    expect(expired.received).toEqual([]);
  });

  test('a valid token in the query string instead of auth.token is refused like a missing one, through the gateway and directly', async () => {
    const token = tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' });
    const missing = await refused(client(service.url));
    expect(missing).toBe('Unauthorized');
    for (const url of [gateway.url, service.url]) {
      const viaQuery = client(url, { token, via: 'query' });
      expect(await refused(viaQuery)).toBe(missing);
      expect(viaQuery.socket.connected).toBe(false);
    }
  });

  test('the service checks the token itself too: auth.token accepted, none or expired refused (direct connection)', async () => {
    const good = client(service.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }), via: 'auth' });
    await connected(good);
    expect(await refused(client(service.url))).toBe('Unauthorized');
    expect(await refused(client(service.url, { token: tokenFor({ sub: '1', role: 'admin' }, -60), via: 'auth' }))).toBe('Unauthorized');
  });

  test('a socket whose token expires is told so and disconnected', async () => {
    const shortLived = client(gateway.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }, 2) });
    const expiredNotice = new Promise<{ reason: string }>((resolve) => shortLived.socket.once('session_expired', resolve));
    const disconnected = new Promise<string>((resolve) => shortLived.socket.once('disconnect', resolve));
    await connected(shortLived);
    const reason = await disconnected;
    expect(await expiredNotice).toMatchObject({ reason: 'expired' });
    expect(reason).toBe('io server disconnect');
  });

  test('a socket whose session is ended elsewhere (logout, deactivation) is told so and disconnected at once, without waiting for the periodic check', async () => {
    const sid = randomUUID();
    const signer = createTokenSigner(loadKeyRing(TEST_KEYS_DIR, [TEST_KID], TEST_KID), { issuer: TEST_ISSUER, audience: TEST_AUDIENCE });
    const socket = client(gateway.url, { token: signer.sign({ sub: String(EMPLOYEE_USER), role: 'user', sid }, 900) });
    const notice = new Promise<{ reason: string }>((resolve) => socket.socket.once('session_expired', resolve));
    const disconnected = new Promise<string>((resolve) => socket.socket.once('disconnect', resolve));
    await connected(socket);
    const redis = new Redis(testUrls.redis);
    try {
      // what academic does at logout
      await createSessionRevocations(redis, { ttlSeconds: 900 }).revokeSessions([sid]);
    } finally {
      redis.disconnect();
    }
    const started = Date.now();
    expect(await notice).toMatchObject({ reason: 'revoked' });
    expect(await disconnected).toBe('io server disconnect');
    // this service checks every socket only every 60 s: the announcement did it
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('an admin reply pushes to the employee’s devices through the push send, once even if the event comes again', async () => {
    await sql(service, `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (?, 'phone', 'employee-21-token', 'android', now(), now(), now())`, [EMPLOYEE_USER]);
    const employee = client(gateway.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }) });
    await connected(employee);
    const event = envelope('incident.updated', incidentChange({ change: 'admin_message', byUserId: 1, messageId: 77, message: 'Please add the missing clock-out', fileCount: 0 }));
    await service.ctx.broker.publish([event]);
    await handled(service, event.id, service.ctx.config.REALTIME_QUEUE);
    // delivered again as if its inbox row were lost: the push send's idempotency key stops a second push
    await sql(service, 'delete from inbox where event_id = ?', [event.id]);
    await service.ctx.broker.publish([event]);
    await handled(service, event.id, service.ctx.config.REALTIME_QUEUE);
    await until(async () => employee.received.length > 0, 15_000, 'socket notification');
    expect(employee.received[0]).toMatchObject({ change: 'admin_message', messageId: 77, message: 'Please add the missing clock-out', fileCount: 0 });
    const pushes = await sql<{ tokens: string[]; message: { notification: { title: string; body: string }; data: Record<string, string> } }>(
      service,
      `select tokens, message from recorded_pushes where tokens ? 'employee-21-token'`,
    );
    expect(pushes).toHaveLength(1);
    expect(pushes[0].message.notification).toEqual({ title: 'New reply to your incident', body: 'An administrator replied: Please add the missing clock-out' });
    expect(pushes[0].message.data).toMatchObject({ type: 'incident_reply', incidentId: String(event.data.incidentId) });
    expect(await sql(service, `select status, event_type from deliveries where channel = 'push' and user_id = ?`, [EMPLOYEE_USER])).toEqual([{ status: 'recorded', event_type: 'incident.updated' }]);
  });
});

describe('two notifications instances sharing Redis (Streams adapter)', () => {
  let first: Notifications;
  let second: Notifications;

  const started = serviceSlot(
    async () => {
      const config = await notificationsConfig();
      const one = await startNotifications(config);
      try {
        return [one, await startNotifications({ ...config })] as const;
      } catch (error) {
        await stopNotifications(one);
        throw error;
      }
    },
    async ([one, two]) => {
      await stopNotifications(two, false);
      await stopNotifications(one);
    },
  );

  beforeAll(async () => {
    [first, second] = await started.begin();
  }, START_HOOK_TIMEOUT_MS);
  afterAll(() => started.end(), START_HOOK_TIMEOUT_MS);

  test('a socket on either instance receives the notification, whichever instance consumed the event', async () => {
    const onFirst = client(first.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }), via: 'auth' });
    const onSecond = client(second.url, { token: tokenFor({ sub: '1', role: 'admin' }), via: 'auth' });
    await Promise.all([connected(onFirst), connected(onSecond)]);
    // The adapters start reading the stream at "$": an emit before an adapter reads is not that instance's.
    // Each is reading once an emit of the OTHER instance reached its socket: the first instance emits to the
    // admins (only on the second), the second to the employee (only on the first), again until both arrived.
    // (Waiting for any notification on both sockets was not that: the instance that consumed an event emits
    // to its own socket without the stream, so the two sockets' own instances satisfied it, readers still
    // off, and the warm-up events queued ahead of the counted four; the test then timed out at load.)
    const warmUp = (id: string) => ({ ...incidentChange(), eventId: id }) as unknown as IncidentNotification;
    const heard = (c: Client) => c.received.some((n) => n.eventId.startsWith('warm-up'));
    await until(
      async () => {
        if (heard(onFirst) && heard(onSecond)) return true;
        (first.deps as NotificationsContext).realtime.io.to('admins').emit('incident_notification', warmUp(`warm-up-${randomUUID()}`));
        (second.deps as NotificationsContext).realtime.io.to(`user:${EMPLOYEE_USER}`).emit('incident_notification', warmUp(`warm-up-${randomUUID()}`));
        await sleep(100);
        return false;
      },
      15_000,
      'both instances reading the stream',
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const event = envelope('incident.updated', incidentChange());
      ids.push(event.id);
      await first.ctx.broker.publish([event]);
    }
    const counted = (c: Client) => c.received.map((n) => n.eventId).filter((id) => ids.includes(id));
    await until(async () => counted(onFirst).length === 4 && counted(onSecond).length === 4, 10_000, 'four notifications on each instance');
    expect(counted(onFirst).sort()).toEqual([...ids].sort());
    expect(counted(onSecond).sort()).toEqual([...ids].sort());
  });

  test('a revocation whose announcement was missed is caught by the periodic check, on whichever instance holds the socket', async () => {
    const sid = randomUUID();
    const signer = createTokenSigner(loadKeyRing(TEST_KEYS_DIR, [TEST_KID], TEST_KID), { issuer: TEST_ISSUER, audience: TEST_AUDIENCE });
    const socket = client(second.url, { token: signer.sign({ sub: String(EMPLOYEE_USER), role: 'user', sid }, 900), via: 'auth' });
    const notice = new Promise<{ reason: string }>((resolve) => socket.socket.once('session_expired', resolve));
    await connected(socket);
    const redis = new Redis(testUrls.redis);
    try {
      // the revocation's key alone, as if its announcement had been published while the instance was cut off
      await redis.set(`${REVOCATION_KEY_PREFIX}:${sid}`, '1', 'EX', 900);
    } finally {
      redis.disconnect();
    }
    expect(await notice).toMatchObject({ reason: 'revoked' });
  });

  test('connection state recovery: a client cut off and back within the window gets what it missed, from the other instance', async () => {
    const employee = client(first.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }), via: 'auth', reconnection: true });
    await connected(employee);
    await sleep(300);
    await first.ctx.broker.publish([envelope('incident.updated', incidentChange())]);
    await until(async () => employee.received.length === 1, 15_000, 'first notification');

    // the connection drops; the client comes back to the second instance (another node behind the gateway)
    employee.socket.io.opts.reconnectionDelay = 500;
    employee.socket.io.opts.reconnectionDelayMax = 500;
    (employee.socket.io as unknown as { uri: string }).uri = second.url;
    const reconnected = new Promise<void>((resolve) => employee.socket.once('connect', () => resolve()));
    employee.socket.io.engine.close();
    const missed = envelope('incident.updated', incidentChange());
    await first.ctx.broker.publish([missed]);
    await reconnected;
    expect(employee.socket.recovered).toBe(true);
    await until(async () => employee.received.some((n) => n.eventId === missed.id), 15_000, 'the missed notification');
  });
});

describe('Redis down and back (Socket.IO adapter)', () => {
  let redis: Awaited<ReturnType<typeof startFaultRedis>>;
  let first: Notifications;
  let second: Notifications;

  const started = serviceSlot(
    async () => {
      const ownRedis = await startFaultRedis('notifications-socket-io');
      try {
        const config = await notificationsConfig({ REDIS_URL: ownRedis.url });
        const one = await startNotifications(config);
        try {
          return [ownRedis, one, await startNotifications({ ...config })] as const;
        } catch (error) {
          await stopNotifications(one);
          throw error;
        }
      } catch (error) {
        await ownRedis.destroy();
        throw error;
      }
    },
    async ([ownRedis, one, two]) => {
      await stopNotifications(two, false);
      await stopNotifications(one);
      await ownRedis.destroy();
    },
  );

  beforeAll(async () => {
    [redis, first, second] = await started.begin();
  }, START_HOOK_TIMEOUT_MS);
  afterAll(() => started.end(), START_HOOK_TIMEOUT_MS);

  test('while Redis is down an event still reaches the sockets of the instance that handled it; once back, both instances again', async () => {
    const onFirst = client(first.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }), via: 'auth' });
    const onSecond = client(second.url, { token: tokenFor({ sub: String(EMPLOYEE_USER), role: 'user' }), via: 'auth' });
    await Promise.all([connected(onFirst), connected(onSecond)]);
    await sleep(400);

    await redis.stop();
    const during = envelope('incident.updated', incidentChange());
    await first.ctx.broker.publish([during]);
    // One instance handles it (both read the same queue); its own socket hears of it.
    await until(async () => [onFirst, onSecond].some((entry) => entry.received.some((n) => n.eventId === during.id)), 10_000, 'the local socket notified');
    expect(onFirst.socket.connected && onSecond.socket.connected).toBe(true);

    await redis.start();
    // Until the adapter's connections of BOTH instances are back an emit may stay local: publish
    // until the last four events (the two instances' consumers share them) reached both sockets.
    const after: string[] = [];
    await until(
      async () => {
        const event = envelope('incident.updated', incidentChange());
        after.push(event.id);
        await first.ctx.broker.publish([event]);
        await sleep(300);
        const recent = after.slice(-4);
        return recent.length === 4 && [onFirst, onSecond].every((entry) => recent.every((id) => entry.received.some((n) => n.eventId === id)));
      },
      30_000,
      'both instances delivering again',
    );
    // And then every event reaches both.
    const last = envelope('incident.updated', incidentChange());
    await first.ctx.broker.publish([last]);
    await until(async () => [onFirst, onSecond].every((entry) => entry.received.some((n) => n.eventId === last.id)), 10_000, 'the last event on both');
  }, 90_000);
});
