import type { MikroORM } from '@mikro-orm/postgresql';
import nodemailer from 'nodemailer';
import { eventSchemas } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { contextFromCarrier, inSpan, markSpanError, SpanKind, type Logger, type TraceCarrier } from '@academy/kit';
import { notificationTypeOf, isOptional } from '../shared/notification-types.ts';

export interface MailTransport {
  sendMail(mail: { from: string; to: string; subject: string; html: string; text: string; headers?: Record<string, string>; list?: { unsubscribe: string } }): Promise<unknown>;
  close(): void;
}

/** Pooled SMTP (nodemailer): a few kept-open connections instead of one per mail. */
export function smtpTransport(url: string, maxConnections: number): MailTransport {
  return nodemailer.createTransport({ url, pool: true, maxConnections, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
}

export interface MailWorkerOptions {
  orm: MikroORM;
  transport: MailTransport;
  from: string;
  logger: Logger;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  pollMs: number;
  /** Rows claimed per round. */
  batchSize?: number;
}

export interface MailWorker {
  /** Look for due e-mails now (after an event wrote some). */
  wake(): void;
  stop(): Promise<void>;
}

interface ClaimedMail {
  id: string;
  recipient: string;
  event_type: string;
  user_id: number | null;
  attempts: number;
  payload: { to: string; subject: string; html: string; text: string; unsubscribe?: string; trace?: TraceCarrier };
  /** Its recipient's login switched its type off by e-mail (read with the claim; never for a critical type). */
  switched_off: boolean;
  /** Its address is unsubscribed from its type (a guardian's link; read with the claim; never for a critical type). */
  unsubscribed: boolean;
}

/** The event types whose mails a preference may hold back, and their notification types, side by side (critical ones are absent). */
const OPTIONAL_EVENT_TYPES = Object.keys(eventSchemas).filter(isOptional);
const OPTIONAL_TYPES = OPTIONAL_EVENT_TYPES.map((eventType) => notificationTypeOf(eventType)!);

/**
 * A mail with an unsubscribe link carries it as `List-Unsubscribe: <link>` (nodemailer's `list`) and
 * says the link takes a one-click POST (RFC 8058), so mail clients offer their own unsubscribe button.
 */
const ONE_CLICK = { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };

/** A claimed row whose process died while sending is tried again after this lease. */
const SENDING_LEASE = '5 minutes';

/** Refusals of the mailbox itself: retrying cannot help (the row is `failed`, with the reason). */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 550 && code <= 553;
};

/**
 * Sends the `pending` e-mail deliveries that are due. Rows are claimed with `FOR UPDATE SKIP LOCKED`
 * (several instances never take the same row) and marked `sending` with a lease; a sent mail becomes
 * `sent`; a failure goes back to `pending` with a doubled delay, and after `maxAttempts` it is
 * `parked`: kept, visible in the deliveries listing with its last error, never dropped.
 */
export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { orm, transport, from, logger, maxAttempts, retryBaseMs, retryMaxMs, pollMs } = options;
  const batchSize = options.batchSize ?? 20;
  const log = logger.child({ component: 'mail-worker' });
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeTimer: NodeJS.Timeout | null = null;

  const update = (text: string, params: unknown[]) => orm.em.fork().getConnection().execute(text, params, 'run');

  /**
   * Claims a batch and, in the same statement, reads the preference check of each claimed mail (at
   * send time, for every sender's mails alike): whether its recipient's login switched its type off
   * by e-mail, and whether its address is unsubscribed from its type. Primary-key probes, and none for
   * a critical type; no round trip of its own (bench:notifications measures what it adds).
   */
  const claim = () =>
    orm.em.fork().getConnection().execute<ClaimedMail[]>(
      `with claimed as (
         update deliveries set status = 'sending', attempts = attempts + 1, next_attempt_at = now() + interval '${SENDING_LEASE}', updated_at = now()
          where id in (select id from deliveries where channel = 'email' and status in ('pending', 'sending') and next_attempt_at <= now()
                       order by next_attempt_at limit ? for update skip locked)
         returning id, recipient, event_type, user_id, attempts, payload
       ), optional as (select * from unnest(?::text[], ?::text[]) as o(event_type, type))
       select c.*,
              exists (select 1 from optional o join notification_preferences p on p.user_id = c.user_id and p.type = o.type and p.channel = 'email' and not p.enabled
                       where o.event_type = c.event_type) as switched_off,
              exists (select 1 from optional o join email_unsubscribes u on u.recipient = c.recipient and u.type = o.type
                       where o.event_type = c.event_type) as unsubscribed
         from claimed c`,
      [batchSize, pgArray(OPTIONAL_EVENT_TYPES), pgArray(OPTIONAL_TYPES)],
      'all',
    );

  /** The SMTP hand-over of one mail, a span in the trace of the event that queued it (its payload's `trace`). */
  const send = (mail: ClaimedMail) =>
    inSpan(
      `smtp send ${mail.event_type}`,
      { kind: SpanKind.CLIENT, parent: contextFromCarrier(mail.payload.trace), attributes: { 'academy.delivery.id': String(mail.id), 'academy.delivery.attempt': mail.attempts } },
      async (span) => {
        const { to, subject, html, text, unsubscribe } = mail.payload;
        try {
          await transport.sendMail({ from, to, subject, html, text, headers: { 'X-Academy-Delivery': String(mail.id), ...(unsubscribe ? ONE_CLICK : {}) }, ...(unsubscribe ? { list: { unsubscribe } } : {}) });
        } catch (error) {
          markSpanError(span, error);
          throw error;
        }
      },
    );

  const deliver = async (mail: ClaimedMail) => {
    try {
      await send(mail);
      await update(`update deliveries set status = 'sent', sent_at = now(), next_attempt_at = null, updated_at = now() where id = ?`, [mail.id]);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      if (isPermanent(error) || mail.attempts >= maxAttempts) {
        const status = isPermanent(error) ? 'failed' : 'parked';
        await update(`update deliveries set status = ?, last_error = ?, next_attempt_at = null, updated_at = now() where id = ?`, [status, reason, mail.id]);
        log.error({ deliveryId: mail.id, attempts: mail.attempts, reason }, `e-mail ${status}`);
        return;
      }
      const delayMs = Math.min(retryBaseMs * 2 ** (mail.attempts - 1), retryMaxMs);
      await update(`update deliveries set status = 'pending', last_error = ?, next_attempt_at = now() + make_interval(secs => ?), updated_at = now() where id = ?`, [
        reason,
        delayMs / 1000,
        mail.id,
      ]);
      log.warn({ deliveryId: mail.id, attempts: mail.attempts, delayMs, reason }, 'e-mail failed; will retry');
    }
  };

  const skip = async (mails: ClaimedMail[], reason: string) => {
    if (!mails.length) return;
    await update(`update deliveries set status = 'skipped', last_error = ?, next_attempt_at = null, updated_at = now() where id = any(?::bigint[])`, [reason, pgArray(mails.map((mail) => mail.id))]);
  };

  /**
   * What the claim's check found: a mail to a user who switched its type off by e-mail, or to an
   * address unsubscribed from its type (a guardian's link), is `skipped` (kept, visible in the
   * deliveries listing), never sent.
   */
  const withoutSwitchedOff = async (claimed: ClaimedMail[]): Promise<ClaimedMail[]> => {
    const switched = claimed.filter((mail) => mail.switched_off);
    const unsubscribedMails = claimed.filter((mail) => mail.unsubscribed && !mail.switched_off);
    if (!switched.length && !unsubscribedMails.length) return claimed;
    await skip(switched, 'switched off by its recipient (e-mail preference)');
    await skip(unsubscribedMails, 'its address unsubscribed from this type (unsubscribe link)');
    const skippedIds = new Set([...switched, ...unsubscribedMails].map((mail) => mail.id));
    return claimed.filter((mail) => !skippedIds.has(mail.id));
  };

  const round = async () => {
    do {
      again = false;
      const claimed = await claim();
      await Promise.all((await withoutSwitchedOff(claimed)).map(deliver));
      if (claimed.length === batchSize) again = true;
    } while (again && !stopped);
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch((error: unknown) => log.warn({ err: error }, 'mail round failed; retrying at the next poll'))
      .finally(() => {
        running = null;
      });
  };

  timer = setInterval(run, pollMs);
  timer.unref();
  run();

  return {
    wake() {
      // The event's transaction commits just after its handler returns.
      if (wakeTimer || stopped) return;
      wakeTimer = setTimeout(() => {
        wakeTimer = null;
        run();
      }, 20);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (wakeTimer) clearTimeout(wakeTimer);
      await running;
      transport.close();
    },
  };
}
