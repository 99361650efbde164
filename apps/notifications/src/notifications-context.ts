import { implementFor, type ServiceContext } from '@academy/service';
import type { Config } from './config.ts';
import { createMailWorker, smtpTransport, type MailTransport, type MailWorker } from './email/mail-worker.ts';
import { firebaseFromCredentials, firebasePushProvider, recordingPushProvider, type MulticastSender, type PushProvider } from './push/push-provider.ts';
import { createRealtimeSockets, type RealtimeSockets } from './realtime/realtime.sockets.ts';
import { countingMailFailures, countingPushFailures, deliveryMetrics } from './delivery-metrics.ts';

/**
 * What notifications' features work with: the service's context and what its `setup` builds once
 * per instance (push provider, mail worker, Socket.IO). Building it starts nothing: what runs in the
 * background starts once the service listens (background.ts); `close` closes what it built.
 */
export interface NotificationsContext extends ServiceContext<Config> {
  push: PushProvider;
  mailWorker: MailWorker;
  /** Socket.IO and the sessions of the sockets connected here (served from the service's start: realtime/start-realtime.ts). */
  realtime: RealtimeSockets;
  /** Stops the mail worker (its poll, its SMTP pool), Socket.IO and the push provider. */
  close(): Promise<void>;
}

/** Replaceable parts, for tests: FCM's `Messaging` and the SMTP transport. */
export interface NotificationsOverrides {
  messaging?: MulticastSender;
  mailTransport?: MailTransport;
}

/** Implements a contract with handlers that take this service's context (`<feature>.routes.ts`). */
export const implement = implementFor<NotificationsContext>();

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

  const realtime = createRealtimeSockets({ redisUrl: config.REDIS_URL, stream: config.SOCKET_STREAM, streamBlockMs: config.SOCKET_STREAM_BLOCK_MS, verifier: ctx.verifier, logger });

  return {
    ...ctx,
    push,
    mailWorker,
    realtime,
    async close() {
      await mailWorker.stop();
      await realtime.close();
      await push.close();
    },
  };
}
