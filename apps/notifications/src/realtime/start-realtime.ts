import type { Server as HttpServer } from 'node:http';
import type { NotificationsContext } from '../notifications-context.ts';
import { checkSocketSessions } from './check-socket-sessions.ts';
import { endSessions } from './end-sessions.ts';

/**
 * Serves the sockets on the service's HTTP server once it listens (service.ts), and follows their
 * sessions until the answered stop. A session ended elsewhere (logout, a reused refresh token,
 * deactivation) ends its sockets at once: academic announces each revocation (Redis pub/sub). The
 * announcement is not replayed to a subscriber that was disconnected, so every socket is checked
 * again after a reconnection, and every SOCKET_SESSION_CHECK_MS as the safety net.
 */
export function startRealtime(ctx: NotificationsContext, server: HttpServer): () => void {
  ctx.realtime.io.attach(server);
  const sessionCheck = setInterval(() => void checkSocketSessions(ctx), ctx.config.SOCKET_SESSION_CHECK_MS).unref();
  const stopFollowing = [
    ctx.revocationFeed.onEnded((sessionIds) => endSessions(ctx, { sessionIds })),
    ctx.revocationFeed.onResubscribed(() => void checkSocketSessions(ctx)),
  ];
  return () => {
    clearInterval(sessionCheck);
    for (const stop of stopFollowing) stop();
  };
}
