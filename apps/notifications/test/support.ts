import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import { createEnvelope, type EventData, type EventEnvelope, type EventType, type TypedEnvelope } from '@academy/contracts';
import type { RunningService, StartOptions } from '@academy/service';
import { uniqueName, uniqueQueueName, waitFor } from '@academy/testing';
import { serviceTestConfig, startTestService, stopTestService, useService } from '@academy/testing/harness';
import { ConfigSchema, type Config } from '../src/config.ts';
import type { NotificationsOverrides } from '../src/notifications-context.ts';
import { defineNotificationsService } from '../src/service.ts';
import type { PushProvider } from '../src/push/push-provider.ts';
import { recipientsOf, startSmtp, type TestSmtp } from './smtp.ts';

export type Notifications = RunningService<Config>;

export const API_KEY = 'test-push-api-key-0123456789';

/**
 * Settings of an instance under test: its own database, exchange, queues and Socket.IO stream,
 * quick mail retries. Pass `shared` to start a second instance of the same deployment.
 */
export async function notificationsConfig(overrides: Partial<Config> = {}): Promise<Config> {
  return {
    ...ConfigSchema.parse({}),
    ...(await serviceTestConfig(defineNotificationsService(), 'notifications')),
    PUSH_NOTIFICATIONS_API_KEY: API_KEY,
    EMAIL_QUEUE: uniqueQueueName('notifications.email'),
    REALTIME_QUEUE: uniqueQueueName('notifications.incidents'),
    PRIVACY_QUEUE: uniqueQueueName('notifications.privacy'),
    PRIVACY_FILES_DIR: mkdtempSync(path.join(os.tmpdir(), 'notifications-privacy-')),
    SOCKET_STREAM: uniqueName('notifications:socket.io'),
    SOCKET_STREAM_BLOCK_MS: 300,
    SOCKET_SESSION_CHECK_MS: 300,
    MAIL_POLL_MS: 100,
    MAIL_RETRY_BASE_MS: 100,
    MAIL_RETRY_MAX_MS: 400,
    ...overrides,
  };
}

export async function startNotifications(config: Config, overrides: NotificationsOverrides = {}, options: StartOptions = {}): Promise<Notifications> {
  return startTestService(defineNotificationsService(overrides), config, options);
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

/** A push as the recording provider stored it (`recorded_pushes`). */
export type RecordedPush = { tokens: string[]; message: { notification: { title: string; body: string }; data: Record<string, string> } };

/** A provider that counts the tokens it is asked to push and pushes nothing: for a handler run again by hand. */
export function countingPushProvider(): { push: PushProvider; sends: string[][] } {
  const sends: string[][] = [];
  const push: PushProvider = { kind: 'recording', send: async (_message, tokens) => (sends.push(tokens), tokens.map(() => ({ ok: true as const }))), close: async () => undefined };
  return { push, sends };
}

/** The mails a lookup takes: those to one address exactly, or to any address the predicate accepts. */
export type AddressMatch = string | ((address: string) => boolean);

/** The addresses of a test's tag, `<role>.<tag>@…`. */
export const tagged = (tag: string) => (address: string) => address.includes(`.${tag}@`);

/**
 * A real SMTP server on loopback and one instance mailing to it, around the tests of the enclosing
 * describe (`useService`), with what the e-mail tests do with them: publish events to the e-mail
 * queue, read the mails back, give a user a device, read the pushes recorded for a token.
 */
export function useNotificationsWithSmtp(overrides: Partial<Config> = {}, options: StartOptions = {}) {
  let server: TestSmtp | undefined;
  const service = useService(
    async () => {
      server = await startSmtp();
      try {
        return await startTestService(defineNotificationsService(), await notificationsConfig({ ...overrides, SMTP_URL: server.url }), options);
      } catch (error) {
        await server.close();
        throw error;
      }
    },
    async (running) => {
      await stopNotifications(running);
      await server?.close();
    },
  );
  const smtp = (): TestSmtp => {
    if (!server) throw new Error('the SMTP server is not started: useNotificationsWithSmtp starts it around the tests of its describe only');
    return server;
  };
  const mailsTo = (match: AddressMatch): ParsedMail[] => {
    const accepts = typeof match === 'string' ? (address: string) => address === match : match;
    return smtp().mails.filter((mail) => recipientsOf(mail).some(accepts));
  };
  return {
    service,
    smtp,
    mailsTo,
    /** Publishes the events and waits until the e-mail queue handled each (its inbox row, written only when the handler succeeded). */
    async publish(...events: EventEnvelope[]): Promise<void> {
      await service().ctx.broker.publish(events);
      for (const event of events) await handled(service(), event.id, service().ctx.config.EMAIL_QUEUE);
    },
    /** Waits until `count` mails to `match` arrived, then `settleMs` for any extra one; returns the mails to `match`. */
    async settledMailsTo(match: AddressMatch, count: number, settleMs = 400): Promise<ParsedMail[]> {
      if (count > 0) await until(async () => mailsTo(match).length >= count, 10_000, `${count} mails to ${typeof match === 'string' ? match : 'the addresses'}`);
      await sleep(settleMs);
      return mailsTo(match);
    },
    /** An Android device of the user, seen now. */
    device: (userId: number, token: string) =>
      sql(service(), `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (?, ?, ?, 'android', now(), now(), now())`, [userId, `phone-${token}`, token]),
    /** The pushes the recording provider stored for the token. */
    pushesTo: (token: string) => sql<RecordedPush>(service(), `select tokens, message from recorded_pushes where tokens @> ?::jsonb`, [JSON.stringify([token])]),
  };
}

type PayslipPublished = EventData<'payslip.published'>;
let payslipSequence = 0;

/**
 * A `payslip.published` for an employee of the test's own: address `employee.<tag>@school.test`, a
 * login of their own (`employee.userId`, null for none), the November payslip; `overrides` over it,
 * `employee` merged field by field.
 */
export function payslipPublished(tag: string, overrides: Partial<Omit<PayslipPublished, 'employee'>> & { employee?: Partial<PayslipPublished['employee']> } = {}): PayslipPublished {
  const id = ++payslipSequence;
  const { employee, ...rest } = overrides;
  return {
    payslipId: 900 + id,
    employeeId: 300 + id,
    label: 'Nómina noviembre',
    periodStart: '2026-11-01',
    periodEnd: '2026-11-30',
    issuedOn: '2026-11-28',
    supersedesPayslipId: null,
    batchId: null,
    ...rest,
    employee: { name: 'Lucía Pérez', email: `employee.${tag}@school.test`, userId: 7000 + id, ...employee },
  };
}
