import type { MikroORM } from '@mikro-orm/postgresql';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { MailTransport } from './email/mail-worker.ts';
import { mailQueueStats, type MailQueueStats } from './deliveries/deliveries.store.ts';
import type { PushProvider } from './push/push-provider.ts';

/** Mail and push failures on the service's `/metrics`, and the e-mails waiting to be sent. */
export interface DeliveryMetrics {
  mailSendFailures: Counter<'code'>;
  pushFailures: Counter<'code'>;
}

/**
 * Registers the delivery metrics on the service's registry. The three e-mail gauges are read from the
 * deliveries table at scrape time, in one query (the `status` index: waiting and parked rows are few).
 */
export function deliveryMetrics(registry: Registry, orm: MikroORM): DeliveryMetrics {
  const registers = [registry];
  let pending: Promise<MailQueueStats | null> | null = null;
  const stats = () => {
    pending ??= mailQueueStats(orm.em.fork())
      .then((row) => row ?? null)
      .catch(() => null)
      .finally(() => setImmediate(() => (pending = null)));
    return pending;
  };
  const gauge = ({ name, help }: { name: string; help: string }, read: (row: MailQueueStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const row = await stats();
        if (row) this.set(read(row));
      },
    });
  gauge({ name: 'notifications_mail_waiting', help: 'E-mails waiting to be sent (pending or being sent, retries included)' }, (row) => row.waiting);
  gauge(
    { name: 'notifications_mail_oldest_waiting_seconds', help: 'Age of the oldest e-mail waiting to be sent (0 when none): above minutes, SMTP refuses or is away' },
    (row) => row.oldest_waiting_seconds,
  );
  gauge({ name: 'notifications_mail_parked', help: 'E-mails parked after their last attempt (never sent; npm run mail -- replay <id>)' }, (row) => row.parked);
  return {
    mailSendFailures: new Counter({
      name: 'notifications_mail_send_failures_total',
      help: 'SMTP hand-overs that failed, by SMTP response code (connection when none: unreachable, timeout)',
      labelNames: ['code'],
      registers,
    }),
    pushFailures: new Counter({
      name: 'notifications_push_failures_total',
      help: "Device tokens a push did not reach, by the provider's code (provider_error: the whole call failed)",
      labelNames: ['code'],
      registers,
    }),
  };
}

/** The transport, counting each failed hand-over (the mail worker retries or parks it as before). */
export function countingMailFailures(transport: MailTransport, metrics: DeliveryMetrics): MailTransport {
  return {
    async sendMail(mail) {
      try {
        return await transport.sendMail(mail);
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode;
        metrics.mailSendFailures.inc({ code: typeof code === 'number' ? String(code) : 'connection' });
        throw error;
      }
    },
    close: () => transport.close(),
  };
}

/** The provider, counting each token it did not reach by code, and every token of a call that failed as a whole. */
export function countingPushFailures(provider: PushProvider, metrics: DeliveryMetrics): PushProvider {
  return {
    kind: provider.kind,
    async send(message, tokens) {
      let outcomes;
      try {
        outcomes = await provider.send(message, tokens);
      } catch (error) {
        metrics.pushFailures.inc({ code: 'provider_error' }, tokens.length);
        throw error;
      }
      for (const outcome of outcomes) if (!outcome.ok) metrics.pushFailures.inc({ code: outcome.code });
      return outcomes;
    },
    close: () => provider.close(),
  };
}
