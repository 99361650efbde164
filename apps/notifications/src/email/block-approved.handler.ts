import type { EventHandler } from '@academy/messaging';
import type { Language } from '../shared/i18n.ts';
import { queueMails } from './email.store.ts';
import { approvalMails, type GuardianLink } from './recipients.ts';

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
    await queueMails(em, event, mails);
    wake();
  };
}
