import type { PrivacyProvider } from '@academy/privacy';
import { deleteDeliveriesOfPerson, deliveriesOfPerson } from './deliveries.store.ts';

/** What was sent to the person (mails to their address, pushes to their login), with each mail's text. */
export const deliveriesPrivacy: PrivacyProvider = {
  feature: 'deliveries',
  subjects: ['employee', 'student', 'guardian'],
  declares: [
    {
      record: 'deliveries',
      purpose: 'The record of each e-mail and push sent (or held back) and why: what the mail worker sends, retries and parks, and what administrators look up.',
      category: 'communications',
      retention: 'Kept with no time limit today; removed on an erasure.',
      fields: {
        recipient: { personal: true, description: 'the address, or user:<id> for a push' },
        subject: { personal: true, description: "the mail's subject or the push's title" },
        text: { personal: true, description: "the mail's text (names, grades, attendance, payslip periods)" },
        status: { personal: false, description: 'pending, sent, recorded, failed, parked or skipped' },
        lastError: { personal: false, description: 'why it failed or was skipped' },
      },
    },
  ],
  async export({ em, subject }) {
    const deliveries = await deliveriesOfPerson(em, subject);
    return deliveries.length ? { data: { deliveries } } : null;
  },
  async erase({ em, subject }) {
    const count = await deleteDeliveriesOfPerson(em, subject);
    return { erased: count ? [{ what: 'e-mails and pushes sent (their record and text)', count }] : [], kept: [] };
  },
};
