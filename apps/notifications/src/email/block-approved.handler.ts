import type { EventHandler } from '@academy/messaging';
import type { Language } from '../shared/i18n.ts';
import { approvalMails, type GuardianLink } from './recipients.ts';
import { currentTraceCarrier } from '@academy/kit';

/**
 * `block.approved`: one `deliveries` row per recipient, written in the event's transaction (with its
 * inbox row) before anything is sent; the mail worker sends them. The unique (event, recipient,
 * channel) key makes a redelivered event, even on another queue, write nothing new. `academy`: the
 * language of whoever's login chose none; `unsubscribeLink`: the guardian's link in the footer.
 */
export function onBlockApproved(wake: () => void, academy: Language, unsubscribeLink?: GuardianLink): EventHandler<'block.approved'> {
  return async (em, event) => {
    const mails = approvalMails(event.data, academy, unsubscribeLink);
    if (!mails.length) return;
    await em.getConnection().execute(
      `insert into deliveries (event_id, event_type, channel, recipient, user_id, template, subject, payload, status, attempts, next_attempt_at, created_at, updated_at)
       values ${mails.map(() => `(?, ?, 'email', ?, ?, ?, ?, ?, 'pending', 0, now(), now(), now())`).join(', ')}
       on conflict (event_id, recipient, channel) do nothing`,
      mails.flatMap((mail) => [
        event.id,
        event.type,
        mail.to.toLowerCase(),
        mail.userId,
        mail.template,
        mail.subject,
        JSON.stringify({ to: mail.to, role: mail.role, subject: mail.subject, html: mail.html, text: mail.text, unsubscribe: mail.unsubscribe , trace: currentTraceCarrier() ?? undefined }),
      ]),
      'run',
      em.getTransactionContext(),
    );
    wake();
  };
}
