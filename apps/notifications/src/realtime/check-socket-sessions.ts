import type { NotificationsContext } from '../notifications-context.ts';
import { endSocketSession } from './realtime.sockets.ts';

/** Checks every connected socket's token again (signature, expiry, its session not ended) and ends those no longer valid; one check at a time. */
export async function checkSocketSessions(ctx: NotificationsContext): Promise<void> {
  const sockets = ctx.realtime;
  if (sockets.checking) return;
  sockets.checking = true;
  try {
    for (const [socket, token] of [...sockets.tokens]) if (!(await ctx.verifier.authenticate(token))) endSocketSession(sockets, socket, 'revoked');
  } finally {
    sockets.checking = false;
  }
}
