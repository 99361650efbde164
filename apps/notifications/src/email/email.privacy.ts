import type { PrivacyProvider } from '@academy/privacy';
import { deleteOptOutsOfAddress, optOutsOfAddress } from './email.store.ts';

/**
 * The opt-outs an address recorded with a mail's unsubscribe link. An erasure deletes them: the
 * person is erased from the academy's directory too, so no event names the address any more.
 */
export const emailPrivacy: PrivacyProvider = {
  feature: 'email',
  subjects: ['employee', 'student', 'guardian'],
  declares: [
    {
      record: 'email_unsubscribes',
      purpose: 'The types of mail an address asked not to receive (the unsubscribe link of guardians\' mails).',
      category: 'preferences',
      retention: 'Until an administrator undoes it, or an erasure.',
      fields: { recipient: { personal: true, description: 'the e-mail address' }, type: { personal: false, description: 'the notification type' } },
    },
  ],
  async export({ em, subject }) {
    if (subject.email === null) return null;
    const optOuts = await optOutsOfAddress(em, subject.email);
    return optOuts.length ? { data: { address: subject.email.toLowerCase(), optOuts } } : null;
  },
  async erase({ em, subject }) {
    const count = subject.email === null ? 0 : await deleteOptOutsOfAddress(em, subject.email);
    return { erased: count ? [{ what: 'e-mail opt-outs', count }] : [], kept: [] };
  },
};
