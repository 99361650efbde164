import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { bearerToken, type TokenVerifier } from '@academy/auth';
import { createSocketIoRedis, SpanKind, startSpan, type Logger } from '@academy/kit';

// The realtime feature's sockets: what its store is to another feature. The only code that knows
// Socket.IO: the server and its Redis Streams adapter, the handshake, the rooms, and the sessions of
// the sockets connected to this instance. Building it starts nothing (start-realtime.ts serves it).

export interface RealtimeOptions {
  redisUrl: string;
  /** Redis stream (and key prefix) shared by every instance of the deployment. */
  stream: string;
  streamBlockMs: number;
  verifier: TokenVerifier;
  logger: Logger;
}

export interface SocketUser {
  userId: number;
  role: 'admin' | 'user';
  /** Token expiry, epoch seconds. */
  exp: number;
}

/** The Socket.IO server of this instance and the sessions of the sockets connected to it (`ctx.realtime`). */
export interface RealtimeSockets {
  io: Server;
  /** Each connected socket's token (here, not in socket.data, which recovery stores in Redis). */
  tokens: Map<Socket, string>;
  /** The sockets of each session (its refresh-token family) connected here. */
  socketsOfSession: Map<string, Set<Socket>>;
  /** Sockets told that their session ended, until they are disconnected. */
  closing: Map<Socket, NodeJS.Timeout>;
  /** A check of every socket's session is running (`checkSocketSessions`: one at a time). */
  checking: boolean;
  /** Ends every transport, so clients reconnect (to another instance, recovering their session) at once. */
  closeTransports(): void;
  /** Closes the server and its Redis connections (the service's stop, after start-realtime's stop). */
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

/** Nothing more reaches the socket; it is told why, then disconnected. */
export function endSocketSession(sockets: RealtimeSockets, socket: Socket, reason: 'expired' | 'revoked'): void {
  if (sockets.closing.has(socket) || socket.disconnected) return;
  for (const room of socket.rooms) if (room !== socket.id) void socket.leave(room);
  socket.emit('session_expired', {
    reason,
    message: reason === 'expired' ? 'Your session has expired; connect again with a new token' : 'Your session has ended; sign in again',
  });
  // With connection state recovery an emit travels through the adapter (Redis): the DISCONNECT
  // waits a moment behind the notice instead of overtaking it.
  sockets.closing.set(
    socket,
    setTimeout(() => socket.disconnect(true), EXPIRY_NOTICE_GRACE_MS),
  );
}

/** `event` to the sockets in `rooms` on every instance (through the Redis Streams adapter): its span is the hand-over. */
export function emitToRooms(sockets: RealtimeSockets, rooms: string[], event: string, payload: unknown): void {
  const span = startSpan(`socket emit ${event}`, { kind: SpanKind.PRODUCER, attributes: { 'academy.socket.rooms': rooms.join(',') } });
  sockets.io.to(rooms).emit(event, payload);
  span.end();
}

/**
 * Checks the JWT at the handshake; each socket joins `user:<id>`, admins also `admins`; a socket
 * is told and disconnected when its token expires (its own timer, from its connection to its
 * disconnection) or its session ends.
 */
function trackSessions(sockets: RealtimeSockets, verifier: TokenVerifier): void {
  const { io, tokens, socketsOfSession, closing } = sockets;
  const sessionOf = new WeakMap<Socket, string | undefined>();

  io.use(async (socket, next) => {
    const token = handshakeToken(socket.handshake);
    // authenticate: signature, claims, expiry, and the session not ended (logout) in Redis.
    const claims = token ? await verifier.authenticate(token) : null;
    if (!claims) return next(new Error('Unauthorized'));
    socket.data.user = { userId: Number(claims.sub), role: claims.role, exp: claims.exp } satisfies SocketUser;
    sessionOf.set(socket, claims.sid);
    next();
  });

  io.on('connection', (socket) => {
    const user = socket.data.user as SocketUser;
    tokens.set(socket, handshakeToken(socket.handshake)!);
    const sid = sessionOf.get(socket);
    if (sid) socketsOfSession.set(sid, (socketsOfSession.get(sid) ?? new Set()).add(socket));
    void socket.join(`user:${user.userId}`);
    if (user.role === 'admin') void socket.join('admins');
    const expiresInMs = Math.min(Math.max(user.exp * 1000 - Date.now(), 0), MAX_TIMER_MS);
    const expiry = setTimeout(() => endSocketSession(sockets, socket, 'expired'), expiresInMs);
    socket.once('disconnect', () => {
      clearTimeout(expiry);
      clearTimeout(closing.get(socket));
      closing.delete(socket);
      tokens.delete(socket);
      const sessionSockets = sid ? socketsOfSession.get(sid) : undefined;
      sessionSockets?.delete(socket);
      if (sid && sessionSockets?.size === 0) socketsOfSession.delete(sid);
    });
  });
}

/**
 * Socket.IO for the service's HTTP server, path `/socket.io`, WebSocket transport only (no
 * long-polling, hence no sticky sessions: any instance behind the gateway can take any
 * connection). The Redis Streams adapter carries emits to every instance and keeps sessions for
 * connection state recovery. Built with the context; served from the service's start
 * (`startRealtime`) to its stop.
 */
export function createRealtimeSockets(options: RealtimeOptions): RealtimeSockets {
  const log = options.logger.child({ component: 'realtime' });
  const { io, redis, duplicates } = socketServer(options, log);
  const sockets: RealtimeSockets = {
    io,
    tokens: new Map(),
    socketsOfSession: new Map(),
    closing: new Map(),
    checking: false,
    closeTransports() {
      io.engine.close();
    },
    async close() {
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
  trackSessions(sockets, options.verifier);
  return sockets;
}
