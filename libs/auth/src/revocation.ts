import type { Redis } from 'ioredis';

/** What a revocation check needs of a verified token. */
export interface RevocableToken {
  /** Session id (refresh-token family). A token without one has no session to end. */
  sid?: string;
}

/**
 * Ended sessions, shared by every process through Redis. Academic writes (logout, a reused refresh
 * token, a deactivated user or one whose claims changed: all their recent sessions); the gateway and
 * every service read, through the token verifier. Keys are session ids (random UUIDs), so they never
 * collide between deployments or test databases sharing a Redis. Entries live as long as a token may
 * (`ttlSeconds`, the maximum token lifetime plus the skew): by then every token they name has expired.
 * Each revocation is also published on `revocationChannel`, so what holds a session open (a
 * Socket.IO connection) can end it at once: see `onSessionsEnded`.
 */
export interface SessionRevocations {
  /** Ends these sessions: their access tokens are refused from now on. */
  revokeSessions(sessionIds: string[]): Promise<void>;
  /** True when the token's session was ended. Throws when Redis cannot answer. */
  isRevoked(token: RevocableToken): Promise<boolean>;
}

export const REVOCATION_KEY_PREFIX = 'auth:revoked-session';

/** The Redis channel on which `revokeSessions` announces the sessions it ends (a JSON array of ids). */
export const revocationChannel = (keyPrefix = REVOCATION_KEY_PREFIX) => `${keyPrefix}:ended`;

export function createSessionRevocations(redis: Redis, options: { ttlSeconds: number; keyPrefix?: string }): SessionRevocations {
  const prefix = options.keyPrefix ?? REVOCATION_KEY_PREFIX;
  const key = (sid: string) => `${prefix}:${sid}`;
  return {
    async revokeSessions(sessionIds) {
      if (!sessionIds.length) return;
      const pipeline = redis.multi();
      const ended = [...new Set(sessionIds)];
      for (const sid of ended) pipeline.set(key(sid), '1', 'EX', options.ttlSeconds);
      // Announced in the same transaction, after the keys: a listener that hears it and checks finds them.
      pipeline.publish(revocationChannel(prefix), JSON.stringify(ended));
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (failed) throw failed[0];
    },
    async isRevoked(token) {
      return token.sid ? (await redis.exists(key(token.sid))) === 1 : false;
    },
  };
}

export interface SessionsEndedListener {
  /** Settles once the SUBSCRIBE is answered (true), or failed (false, after `onError`). */
  readonly subscribed: Promise<boolean>;
  /** Stops listening and unsubscribes (waiting 1 s at most); the connection stays the caller's. */
  close(): Promise<void>;
}

/**
 * Calls `onEnded` with the ids of the sessions each `revokeSessions` ends, anywhere in the deployment
 * (Redis pub/sub). `subscriber` is a connection of its own (subscriber mode) that queues commands
 * while it connects and resubscribes after a reconnection (ioredis's defaults). Pub/sub does not
 * replay what was published while the connection was down: `onResubscribed` is called after each
 * reconnection, for the caller to check its sessions against the revocations themselves.
 */
export function onSessionsEnded(
  subscriber: Redis,
  options: { keyPrefix?: string; onEnded: (sessionIds: string[]) => void; onResubscribed?: () => void; onError?: (error: unknown) => void },
): SessionsEndedListener {
  const channel = revocationChannel(options.keyPrefix);
  const onMessage = (from: string, message: string) => {
    if (from !== channel) return;
    let ids: unknown;
    try {
      ids = JSON.parse(message);
    } catch (error) {
      options.onError?.(error);
      return;
    }
    if (Array.isArray(ids)) options.onEnded(ids.filter((id): id is string => typeof id === 'string'));
  };
  let connections = 0;
  const onReady = () => {
    if (connections++ > 0) options.onResubscribed?.();
  };
  subscriber.on('message', onMessage);
  subscriber.on('ready', onReady);
  if (subscriber.status === 'ready') connections = 1;
  const subscribed = subscriber.subscribe(channel).then(
    () => true,
    (error: unknown) => {
      options.onError?.(error);
      return false;
    },
  );
  return {
    subscribed,
    async close() {
      subscriber.off('message', onMessage);
      subscriber.off('ready', onReady);
      if (subscriber.status !== 'ready') return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([subscriber.unsubscribe(channel).catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
      clearTimeout(timer);
    },
  };
}

/** The revocation announcements of a process, shared by its verifier and whatever else holds sessions open. */
export interface RevocationFeed {
  /** Settles once subscribed (true), or when that failed (false). */
  readonly subscribed: Promise<boolean>;
  /** Calls `listener` with the ids of each announced revocation, after the verifier has marked them; returns its removal. */
  onEnded(listener: (sessionIds: string[]) => void): () => void;
  /** Calls `listener` after each reconnection (announcements may have been missed); returns its removal. */
  onResubscribed(listener: () => void): () => void;
  /** Unsubscribes and closes the feed's connection. */
  close(): Promise<void>;
}

/**
 * Follows the revocation announcements on a connection of its own beside `redis`, and makes the
 * token verifier (`createTokenVerifier`) honour each at once rather than at its next check (within
 * `revocationCheckMs`); after a reconnection every remembered token is checked again. Other holders
 * of sessions (notifications' Socket.IO connections) listen on the same feed: one subscription per
 * process.
 *
 * The connection queues its SUBSCRIBE while it connects, waits rather than fails while Redis is away,
 * and resubscribes after a reconnection (ioredis's defaults, which the fail-fast command client turns
 * off). A hung Redis costs it only announcements, which the periodic checks make up for.
 */
export function followRevocations(redis: Redis, verifier: { sessionsEnded(ids: string[]): void; recheckSessions(): void }, onError?: (error: unknown) => void): RevocationFeed {
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined, socketTimeout: undefined });
  subscriber.on('error', (error) => onError?.(error));
  const ended = new Set<(sessionIds: string[]) => void>();
  const resubscribed = new Set<() => void>();
  const listener = onSessionsEnded(subscriber, {
    onEnded: (ids) => {
      verifier.sessionsEnded(ids);
      for (const notify of ended) notify(ids);
    },
    onResubscribed: () => {
      verifier.recheckSessions();
      for (const notify of resubscribed) notify();
    },
    onError,
  });
  return {
    subscribed: listener.subscribed,
    onEnded(notify) {
      ended.add(notify);
      return () => ended.delete(notify);
    },
    onResubscribed(notify) {
      resubscribed.add(notify);
      return () => resubscribed.delete(notify);
    },
    async close() {
      await listener.close();
      subscriber.disconnect();
    },
  };
}
