import type { EventData } from '@academy/contracts';
import type { EventHandler } from '@academy/messaging';
import { approvalDigestTemplate } from './approval-digest-mail.ts';
import { queueMails } from './email.store.ts';
import { languageOf, type Language } from '../shared/i18n.ts';

export interface PendingDigestDeps {
  /** Wakes the mail worker after the mail was queued. */
  wake: () => void;
  /** The app's address; the digest links to `<appUrl>/blocks/pending`. */
  appUrl: string;
  /** The language of an admin whose login chose none, and the academy's time zone. */
  academy: Language;
}

/**
 * `blocks.pending-digest`: the admin's digest mail, one `deliveries` row written in the event's
 * transaction (with its inbox row), unique per (event, address, channel). It carries the admin's
 * `user_id`, so the mail worker holds it back (`skipped`) when they switched `approval_digest` off.
 */
export function onPendingDigest(deps: PendingDigestDeps): EventHandler<'blocks.pending-digest'> {
  return async (em, event) => {
    const data: EventData<'blocks.pending-digest'> = event.data;
    const mail = approvalDigestTemplate(languageOf(data.admin.locale, deps.academy), data, `${deps.appUrl.replace(/\/+$/, '')}/blocks/pending`);
    await queueMails(em, event, [{ to: data.admin.email, userId: data.admin.userId, role: 'admin', template: 'approvalDigestTemplate', ...mail }]);
    deps.wake();
  };
}
