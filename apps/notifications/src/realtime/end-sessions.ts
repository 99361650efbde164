import type { NotificationsContext } from '../notifications-context.ts';
import { endSocketSession } from './realtime.sockets.ts';

/** Ends the sockets of these sessions, connected here, ended elsewhere (a logout, a reused refresh token, a deactivation). */
export function endSessions(ctx: NotificationsContext, input: { sessionIds: Iterable<string> }): void {
  for (const sid of input.sessionIds) for (const socket of ctx.realtime.socketsOfSession.get(sid) ?? []) endSocketSession(ctx.realtime, socket, 'revoked');
}
