import type { MikroORM } from '@mikro-orm/postgresql';
import nodemailer from 'nodemailer';
import { contextFromCarrier, inSpan, markSpanError, SpanKind, type Logger } from '@academy/kit';
import { claimDueMails, markMail, skipMails, type ClaimedMail } from './email.store.ts';

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
  /** Polls every `pollMs` from now on (the service's start; a test or a bench may only wake it). */
  start(): void;
  /** Look for due e-mails now (after an event wrote some). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * A mail with an unsubscribe link carries it as `List-Unsubscribe: <link>` (nodemailer's `list`) and
 * says the link takes a one-click POST (RFC 8058), so mail clients offer their own unsubscribe button.
 */
const ONE_CLICK = { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };

/** Refusals of the mailbox itself: retrying cannot help (the row is `failed`, with the reason). */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 550 && code <= 553;
};

/** The SMTP hand-over of one mail, a span in the trace of the event that queued it (its payload's `trace`). */
function sendMail(transport: MailTransport, from: string, mail: ClaimedMail) {
  return inSpan(
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
}

/**
 * Sends one claimed mail and records the outcome: `sent`; after a failure `pending` again with a
 * doubled delay, `failed` for a refusal of the mailbox itself, `parked` after `maxAttempts`.
 */
async function deliverMail(options: MailWorkerOptions, log: Logger, mail: ClaimedMail): Promise<void> {
  const { orm, maxAttempts, retryBaseMs, retryMaxMs } = options;
  try {
    await sendMail(options.transport, options.from, mail);
    await markMail(orm.em.fork(), mail.id, { status: 'sent' });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    if (isPermanent(error) || mail.attempts >= maxAttempts) {
      const status = isPermanent(error) ? 'failed' : 'parked';
      await markMail(orm.em.fork(), mail.id, { status, reason });
      log.error({ deliveryId: mail.id, attempts: mail.attempts, reason }, `e-mail ${status}`);
      return;
    }
    const delayMs = Math.min(retryBaseMs * 2 ** (mail.attempts - 1), retryMaxMs);
    await markMail(orm.em.fork(), mail.id, { status: 'pending', reason, delayMs });
    log.warn({ deliveryId: mail.id, attempts: mail.attempts, delayMs, reason }, 'e-mail failed; will retry');
  }
}

/**
 * What the claim's check found: a mail to a user who switched its type off by e-mail, or to an
 * address unsubscribed from its type (a guardian's link), is `skipped` (kept, visible in the
 * deliveries listing), never sent. Returns the mails to send.
 */
async function withoutSwitchedOff(orm: MikroORM, claimed: ClaimedMail[]): Promise<ClaimedMail[]> {
  const switched = claimed.filter((mail) => mail.switched_off);
  const unsubscribedMails = claimed.filter((mail) => mail.unsubscribed && !mail.switched_off);
  if (!switched.length && !unsubscribedMails.length) return claimed;
  await skipMails(orm.em.fork(), switched, 'switched off by its recipient (e-mail preference)');
  await skipMails(orm.em.fork(), unsubscribedMails, 'its address unsubscribed from this type (unsubscribe link)');
  const skippedIds = new Set([...switched, ...unsubscribedMails].map((mail) => mail.id));
  return claimed.filter((mail) => !skippedIds.has(mail.id));
}

/**
 * Sends the `pending` e-mail deliveries that are due, in rounds: claim a batch (`claimDueMails`:
 * several instances never take the same row), skip what a preference holds back, deliver the rest.
 * A round runs at each poll (once started), when woken, and again at once while batches come full.
 */
export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const batchSize = options.batchSize ?? 20;
  const log = options.logger.child({ component: 'mail-worker' });
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeTimer: NodeJS.Timeout | null = null;

  const round = async () => {
    do {
      again = false;
      const claimed = await claimDueMails(options.orm.em.fork(), batchSize);
      await Promise.all((await withoutSwitchedOff(options.orm, claimed)).map((mail) => deliverMail(options, log, mail)));
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

  return {
    start() {
      if (timer || stopped) return;
      timer = setInterval(run, options.pollMs);
      timer.unref();
      run();
    },
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
      options.transport.close();
    },
  };
}
