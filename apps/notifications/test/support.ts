import { createEnvelope, type EventData, type EventType, type TypedEnvelope } from '@academy/contracts';
import type { RunningService } from '@academy/service';
import { testConfig, uniqueName, uniqueQueueName, waitFor } from '@academy/testing';
import { startTestService, stopTestService, useService } from '@academy/testing/harness';
import { ConfigSchema, type Config } from '../src/config.ts';
import type { NotificationsOverrides } from '../src/notifications-context.ts';
import { defineNotificationsService } from '../src/service.ts';

export type Notifications = RunningService<Config>;

export const API_KEY = 'test-push-api-key-0123456789';

/**
 * Settings of an instance under test: its own database, exchange, queues and Socket.IO stream,
 * quick mail retries. Pass `shared` to start a second instance of the same deployment.
 */
export async function notificationsConfig(overrides: Partial<Config> = {}): Promise<Config> {
  return {
    ...ConfigSchema.parse({}),
    ...(await testConfig('notifications')),
    PUSH_NOTIFICATIONS_API_KEY: API_KEY,
    EMAIL_QUEUE: uniqueQueueName('notifications.email'),
    REALTIME_QUEUE: uniqueQueueName('notifications.incidents'),
    SOCKET_STREAM: uniqueName('notifications:socket.io'),
    SOCKET_STREAM_BLOCK_MS: 300,
    SOCKET_SESSION_CHECK_MS: 300,
    MAIL_POLL_MS: 100,
    MAIL_RETRY_BASE_MS: 100,
    MAIL_RETRY_MAX_MS: 400,
    ...overrides,
  };
}

export async function startNotifications(config: Config, overrides: NotificationsOverrides = {}): Promise<Notifications> {
  return startTestService(defineNotificationsService(overrides), config);
}

/** Stops the instance; `cleanup` (once per deployment) drops its database, queues and exchange. */
export const stopNotifications = (service: Notifications, cleanup = true) => stopTestService(service, { keepDatabase: !cleanup });

/** One instance for the tests of the enclosing describe. */
export const useNotifications = (overrides: Partial<Config> = {}, runtime: NotificationsOverrides = {}) =>
  useService(async () => startNotifications(await notificationsConfig(overrides), runtime));

export async function sql<T = Record<string, unknown>>(service: Notifications, text: string, params: unknown[] = []): Promise<T[]> {
  return service.ctx.orm.em.fork().getConnection().execute<T[]>(text, params, 'all');
}

export const envelope = <T extends EventType>(type: T, data: EventData<T>): TypedEnvelope<T> => createEnvelope(type, data, { source: 'test' });

/** `waitFor` (libs/testing) with the probe first, as these tests read. */
export const until = <T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> =>
  waitFor(what, probe, timeoutMs, 50) as Promise<T>;

/** Resolves once the consumer `queue` has handled (or skipped as a duplicate) the event. */
export const handled = (service: Notifications, eventId: string, queue: string) =>
  until(async () => (await sql(service, 'select 1 from inbox where event_id = ? and consumer = ?', [eventId, queue])).length > 0, 10_000, `event ${eventId} handled`);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
