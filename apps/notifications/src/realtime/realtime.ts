import type { Server as HttpServer } from 'node:http';
import { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { bearerToken, type TokenVerifier } from '@academy/auth';
import type { IncidentNotification } from '@academy/contracts';
import type { Logger } from '@academy/kit';

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

export interface Realtime {
  io: Server;
  attach(server: HttpServer): void;
  notifyIncident(notification: IncidentNotification, employeeUserId: number | null): void;
  close(): Promise<void>;
}

/** A client gone for up to this long gets what it missed when it comes back (connection state recovery). */
const RECOVERY_WINDOW_MS = 2 * 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
const EXPIRY_NOTICE_GRACE_MS = 500;

/** `auth.token`, `?token=`, or the Authorization header (where the gateway moves `?token=`). */
export function handshakeToken(handshake: Socket['handshake']): string | undefined {
  const fromAuth = (handshake.auth as { token?: unknown } | undefined)?.token;
  if (typeof fromAuth === 'string' && fromAuth) return bearerToken(fromAuth) ?? fromAuth;
  const fromQuery = handshake.query.token;
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  return bearerToken(handshake.headers.authorization);
}

/**
 * Socket.IO on the service's HTTP server, path `/socket.io`, WebSocket transport only (no
 * long-polling, hence no sticky sessions: any instance behind the gateway can take any
 * connection). The Redis Streams adapter carries emits to every instance and keeps sessions for
 * connection state recovery. The JWT is checked at the handshake; each socket joins `user:<id>`,
 * admins also `admins`; a socket is disconnected when its token expires.
 */
export function createRealtime(options: RealtimeOptions): Realtime {
  const { verifier, logger } = options;
  const log = logger.child({ component: 'realtime' });
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 2000, retryStrategy: (attempt) => Math.min(attempt * 200, 2000) });
  redis.on('error', (error) => log.debug({ err: error }, 'socket.io redis error'));
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

  io.use(async (socket, next) => {
    const token = handshakeToken(socket.handshake);
    // authenticate: signature, claims, expiry, and the session not ended (logout) in Redis.
    const claims = token ? await verifier.authenticate(token) : null;
    const exp = claims && token ? (jwt.decode(token) as { exp?: number } | null)?.exp : undefined;
    if (!claims || !exp) return next(new Error('Unauthorized'));
    socket.data.user = { userId: Number(claims.sub), role: claims.role, exp } satisfies SocketUser;
    next();
  });

  io.on('connection', (socket) => {
    const user = socket.data.user as SocketUser;
    void socket.join(`user:${user.userId}`);
    if (user.role === 'admin') void socket.join('admins');
    const expiresInMs = Math.min(Math.max(user.exp * 1000 - Date.now(), 0), MAX_TIMER_MS);
    let closing: NodeJS.Timeout | undefined;
    const expiry = setTimeout(() => {
      // Nothing more reaches it; with connection state recovery an emit travels through the adapter
      // (Redis), so the DISCONNECT waits a moment behind the notice instead of overtaking it.
      for (const room of socket.rooms) if (room !== socket.id) void socket.leave(room);
      socket.emit('session_expired', { message: 'Your session has expired; connect again with a new token' });
      closing = setTimeout(() => socket.disconnect(true), EXPIRY_NOTICE_GRACE_MS);
    }, expiresInMs);
    socket.once('disconnect', () => {
      clearTimeout(expiry);
      clearTimeout(closing);
    });
  });

  return {
    io,
    attach(httpServer) {
      io.attach(httpServer);
      // The service closes its HTTP server before onStop; open WebSockets would hold that close for
      // its whole grace period. Closing the transports first lets clients reconnect (to another
      // instance, recovering their session) at once.
      const closeHttp = httpServer.close.bind(httpServer);
      httpServer.close = ((callback?: (error?: Error) => void) => {
        io.engine.close();
        return closeHttp(callback);
      }) as HttpServer['close'];
    },
    notifyIncident(notification, employeeUserId) {
      const rooms = employeeUserId ? ['admins', `user:${employeeUserId}`] : ['admins'];
      io.to(rooms).emit('incident_notification', notification);
    },
    async close() {
      // Also closes the HTTP server, which the service has closed already (its error is ignored).
      await io.close();
      redis.disconnect();
    },
  };
}
