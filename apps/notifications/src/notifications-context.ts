import { implementFor, type ServiceContext } from '@academy/service';
import { inSpan } from '@academy/kit';
import type { Config } from './config.ts';
import { pruneStaleTokens } from './devices/devices.store.ts';
import { createMailWorker, smtpTransport, type MailTransport, type MailWorker } from './email/mail-worker.ts';
import type { PushSendResponse } from '@academy/contracts';
import { firebaseFromCredentials, firebasePushProvider, recordingPushProvider, type MulticastSender, type PushProvider } from './push/push-provider.ts';
import { startHeldPushSender } from './push/release-held-pushes.ts';
import { sendPush, type SendPushInput } from './push/send-push.ts';
import { createRealtime, type Realtime } from './realtime/realtime.ts';
import { countingMailFailures, countingPushFailures, deliveryMetrics } from './delivery-metrics.ts';

/**
 * What notifications' features work with: the service's context and what its `setup` builds once
 * per instance (push provider, mail worker, Socket.IO). Building it starts nothing: `start` (from the
 * service's start, once it listens) starts its timers, `close` stops them.
 */
export interface NotificationsContext extends ServiceContext<Config> {
  push: PushProvider;
  /**
   * The push feature's `sendPush` on this context: how the features an event makes push (email, realtime)
   * reach the one way a push goes out, as they reach the mail worker and Socket.IO, without importing a sibling.
   */
  sendPush: (input: SendPushInput) => Promise<PushSendResponse>;
  mailWorker: MailWorker;
  realtime: Realtime;
  /** The mail worker's poll, the held-push sender and the hourly maintenance. */
  start(): void;
  close(): Promise<void>;
}

/** Replaceable parts, for tests: FCM's `Messaging` and the SMTP transport. */
export interface NotificationsOverrides {
  messaging?: MulticastSender;
  mailTransport?: MailTransport;
}

/** Implements a contract with handlers that take this service's context (`<feature>.routes.ts`). */
export const implement = implementFor<NotificationsContext>();

const MAINTENANCE_INTERVAL_MS = 60 * 60_000;

export function createNotificationsContext(ctx: ServiceContext<Config>, overrides: NotificationsOverrides = {}): NotificationsContext {
  const { config, logger, orm } = ctx;
  const metrics = deliveryMetrics(ctx.metrics.registry, orm);
  const push = countingPushFailures(
    overrides.messaging
      ? firebasePushProvider(overrides.messaging)
      : config.FIREBASE_CREDENTIALS_FILE
        ? firebaseFromCredentials(config.FIREBASE_CREDENTIALS_FILE)
        : recordingPushProvider(config.DATABASE_URL),
    metrics,
  );
  if (push.kind === 'recording') logger.info('FIREBASE_CREDENTIALS_FILE is not set: push messages are recorded in recorded_pushes, not sent');

  const mailWorker = createMailWorker({
    orm,
    transport: countingMailFailures(overrides.mailTransport ?? smtpTransport(config.SMTP_URL, config.SMTP_MAX_CONNECTIONS), metrics),
    from: config.MAIL_FROM,
    logger,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    retryMaxMs: config.MAIL_RETRY_MAX_MS,
    pollMs: config.MAIL_POLL_MS,
  });

  const realtime = createRealtime({ redisUrl: config.REDIS_URL, stream: config.SOCKET_STREAM, streamBlockMs: config.SOCKET_STREAM_BLOCK_MS, sessionCheckMs: config.SOCKET_SESSION_CHECK_MS, verifier: ctx.verifier, revocationFeed: ctx.revocationFeed, logger });

  const maintain = () => inSpan('notifications maintenance', { root: true }, async () => {
    try {
      const pruned = await pruneStaleTokens(orm.em.fork(), ctx.clock.now(), config.TOKEN_RETENTION_DAYS);
      if (pruned) logger.info({ pruned }, 'stale device tokens pruned');
    } catch (error) {
      logger.warn({ err: error }, 'maintenance failed; retrying in an hour');
    }
  });
  let maintenance: NodeJS.Timeout | null = null;
  let stopHeldPushes: (() => Promise<void>) | null = null;

  const notifications: NotificationsContext = {
    ...ctx,
    push,
    sendPush: (input) => sendPush(notifications, input),
    mailWorker,
    realtime,
    start() {
      mailWorker.start();
      stopHeldPushes ??= startHeldPushSender(notifications, config.HELD_PUSH_POLL_MS);
      maintenance ??= setInterval(() => void maintain(), MAINTENANCE_INTERVAL_MS).unref();
      void maintain();
    },
    async close() {
      if (maintenance) clearInterval(maintenance);
      await stopHeldPushes?.();
      await mailWorker.stop();
      await realtime.close();
      await push.close();
    },
  };
  return notifications;
}
