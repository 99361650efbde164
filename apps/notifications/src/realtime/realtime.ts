import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { bearerToken, type RevocationFeed, type TokenVerifier } from '@academy/auth';
import type { IncidentNotification } from '@academy/contracts';
import { createSocketIoRedis, SpanKind, startSpan, type Logger } from '@academy/kit';

export interface RealtimeOptions {
  redisUrl: string;
  /** Redis stream (and key prefix) shared by every instance of the deployment. */
  stream: string;
  streamBlockMs: number;
  /**
   * How often the sessions of connected sockets are checked against the revocations: the safety net
   * behind the announcement of each revocation, which ends a session's sockets at once.
   */
  sessionCheckMs: number;
  verifier: TokenVerifier;
  /** The service's revocation announcements, which end a session's sockets at once. */
  revocationFeed: Pick<RevocationFeed, 'onEnded' | 'onResubscribed'>;
  logger: Logger;
}

export interface SocketUser {
  userId: number;
  role: 'admin' | 'user';
  /** Token expiry, epoch seconds. */
  exp: number;
}

export interface Realtime {
  io: Server;
  /** Serves sockets on the service's HTTP server and follows their sessions (the service's start). */
  attach(server: HttpServer): void;
  /** Ends every transport, so clients reconnect (to another instance, recovering their session) at once. */
  closeTransports(): void;
  notifyIncident(notification: IncidentNotification, employeeUserId: number | null): void;
  close(): Promise<void>;
}

/** A client gone for up to this long gets what it missed when it comes back (connection state recovery). */
const RECOVERY_WINDOW_MS = 2 * 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
const EXPIRY_NOTICE_GRACE_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Each client connected and, for a subscriber, its SUBSCRIBE answered (a PING is answered after it),
 * or `timeoutMs` passed. The stream reader is skipped: a PING would wait out its blocking XREAD.
 */
async function settle(clients: Redis[], timeoutMs: number): Promise<void> {
  const ready = (client: Redis) => (client.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => client.once('ready', () => resolve())));
  const settled = Promise.allSettled(
    clients.map(async (client) => {
      await ready(client);
      if (client.mode === 'subscriber') await client.ping();
    }),
  );
  await Promise.race([settled, sleep(timeoutMs)]);
}

/**
 * The handshake's `auth.token` (bare or `Bearer …`), and nothing else: a token in the query string
 * ends up in access logs and proxies, so one sent there is refused like a missing one.
 */
export function handshakeToken(handshake: Socket['handshake']): string | undefined {
  const fromAuth = (handshake.auth as { token?: unknown } | undefined)?.token;
  if (typeof fromAuth === 'string' && fromAuth) return bearerToken(fromAuth) ?? fromAuth;
  return undefined;
}

/** Socket.IO with the Redis Streams adapter (emits to every instance, sessions kept for connection state recovery). */
function socketServer(options: RealtimeOptions, log: Logger): { io: Server; redis: Redis; duplicates: Redis[] } {
  // Publishing fails fast when Redis is away (the emit still reaches this instance's sockets); the
  // adapter's blocking-read duplicates wait instead. 500 ms: a busy Redis should not cost cross-instance delivery.
  const redis = createSocketIoRedis(options.redisUrl, { blockTimeMs: options.streamBlockMs, commandTimeoutMs: 500, connectionName: 'notifications-socket.io' });
  redis.on('error', (error) => log.debug({ err: error }, 'socket.io redis error'));
  // The adapter's own connections (stream reader, subscriber): close() lets them settle first.
  const duplicates: Redis[] = [];
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override) => {
    const client = duplicate(override);
    duplicates.push(client);
    return client;
  };
  const io = new Server({
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    connectionStateRecovery: { maxDisconnectionDuration: RECOVERY_WINDOW_MS, skipMiddlewares: false },
    adapter: createAdapter(redis, {
      streamName: options.stream,
      channelPrefix: options.stream,
      sessionKeyPrefix: `${options.stream}:session:`,
      blockTimeInMs: options.streamBlockMs,
    }),
  });
  return { io, redis, duplicates };
}

/** The sessions of the sockets connected to this instance: who they are, and ending them. */
interface SocketSessions {
  /** Ends the sockets of these sessions (ended elsewhere: a logout, a reused refresh token). */
  endSessions(sessionIds: Iterable<string>): void;
  /** Checks every connected socket's token again, and ends those no longer valid. */
  checkAll(): Promise<void>;
}

/**
 * Checks the JWT at the handshake; each socket joins `user:<id>`, admins also `admins`; a socket
 * is told and disconnected when its token expires or its session ends.
 */
function trackSessions(io: Server, verifier: TokenVerifier): SocketSessions {
  // Tokens and sessions of the sockets connected here (not in socket.data, which recovery stores in Redis).
  const tokens = new Map<Socket, string>();
  const sessionOf = new WeakMap<Socket, string | undefined>();
  const socketsOfSession = new Map<string, Set<Socket>>();
  const closing = new Map<Socket, NodeJS.Timeout>();

  io.use(async (socket, next) => {
    const token = handshakeToken(socket.handshake);
    // authenticate: signature, claims, expiry, and the session not ended (logout) in Redis.
    const claims = token ? await verifier.authenticate(token) : null;
    if (!claims) return next(new Error('Unauthorized'));
    socket.data.user = { userId: Number(claims.sub), role: claims.role, exp: claims.exp } satisfies SocketUser;
    sessionOf.set(socket, claims.sid);
    next();
  });

  /** Nothing more reaches the socket; it is told why, then disconnected. */
  const endSession = (socket: Socket, reason: 'expired' | 'revoked') => {
    if (closing.has(socket) || socket.disconnected) return;
    for (const room of socket.rooms) if (room !== socket.id) void socket.leave(room);
    socket.emit('session_expired', {
      reason,
      message: reason === 'expired' ? 'Your session has expired; connect again with a new token' : 'Your session has ended; sign in again',
    });
    // With connection state recovery an emit travels through the adapter (Redis): the DISCONNECT
    // waits a moment behind the notice instead of overtaking it.
    closing.set(
      socket,
      setTimeout(() => socket.disconnect(true), EXPIRY_NOTICE_GRACE_MS),
    );
  };

  io.on('connection', (socket) => {
    const user = socket.data.user as SocketUser;
    tokens.set(socket, handshakeToken(socket.handshake)!);
    const sid = sessionOf.get(socket);
    if (sid) socketsOfSession.set(sid, (socketsOfSession.get(sid) ?? new Set()).add(socket));
    void socket.join(`user:${user.userId}`);
    if (user.role === 'admin') void socket.join('admins');
    const expiresInMs = Math.min(Math.max(user.exp * 1000 - Date.now(), 0), MAX_TIMER_MS);
    const expiry = setTimeout(() => endSession(socket, 'expired'), expiresInMs);
    socket.once('disconnect', () => {
      clearTimeout(expiry);
      clearTimeout(closing.get(socket));
      closing.delete(socket);
      tokens.delete(socket);
      const sockets = sid ? socketsOfSession.get(sid) : undefined;
      sockets?.delete(socket);
      if (sid && sockets?.size === 0) socketsOfSession.delete(sid);
    });
  });

  let checking = false;
  return {
    endSessions(sessionIds) {
      for (const sid of sessionIds) for (const socket of socketsOfSession.get(sid) ?? []) endSession(socket, 'revoked');
    },
    async checkAll() {
      if (checking) return;
      checking = true;
      try {
        for (const [socket, token] of [...tokens]) if (!(await verifier.authenticate(token))) endSession(socket, 'revoked');
      } finally {
        checking = false;
      }
    },
  };
}

/**
 * Socket.IO on the service's HTTP server, path `/socket.io`, WebSocket transport only (no
 * long-polling, hence no sticky sessions: any instance behind the gateway can take any
 * connection). The Redis Streams adapter carries emits to every instance and keeps sessions for
 * connection state recovery. Sessions are followed from `attach` (the service's start) to `close`.
 */
export function createRealtime(options: RealtimeOptions): Realtime {
  const log = options.logger.child({ component: 'realtime' });
  const { io, redis, duplicates } = socketServer(options, log);
  const sessions = trackSessions(io, options.verifier);
  // A session ended elsewhere (logout, a reused refresh token, deactivation) ends its sockets at
  // once: academic announces each revocation (Redis pub/sub). The announcement is not replayed to a
  // subscriber that was disconnected, so every socket is checked again after a reconnection, and
  // every `sessionCheckMs` as the safety net.
  let sessionCheck: NodeJS.Timeout | null = null;
  const stopFollowing: (() => void)[] = [];

  return {
    io,
    attach(httpServer) {
      io.attach(httpServer);
      sessionCheck = setInterval(() => void sessions.checkAll(), options.sessionCheckMs);
      sessionCheck.unref();
      stopFollowing.push(
        options.revocationFeed.onEnded((sessionIds) => sessions.endSessions(sessionIds)),
        options.revocationFeed.onResubscribed(() => void sessions.checkAll()),
      );
    },
    closeTransports() {
      io.engine.close();
    },
    notifyIncident(notification, employeeUserId) {
      const rooms = employeeUserId ? ['admins', `user:${employeeUserId}`] : ['admins'];
      // The emit goes to the sockets of every instance through the Redis stream adapter: its span is the hand-over.
      const span = startSpan('socket emit incident_notification', { kind: SpanKind.PRODUCER, attributes: { 'academy.socket.rooms': rooms.join(',') } });
      io.to(rooms).emit('incident_notification', notification);
      span.end();
    },
    async close() {
      if (sessionCheck) clearInterval(sessionCheck);
      for (const stop of stopFollowing) stop();
      // The adapter sends SUBSCRIBE without handling its failure: a stop right after the start
      // would disconnect it in flight (an unhandled rejection). Wait, bounded, until it is answered.
      await settle(duplicates, 1_000);
      // Also closes the HTTP server, which the service has closed already (its error is ignored).
      await io.close();
      // QUIT after the adapter's last commands (its close message): disconnect() would reject them
      // unhandled. Bounded, for a Redis that does not answer.
      const quit = redis.quit().catch(() => undefined);
      await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
      redis.disconnect();
    },
  };
}
