import type { PrivacyProvider } from '@academy/privacy';
import { deleteHeldPushesOfUser, heldPushesOfUser } from './push.store.ts';

/** The pushes held for a login's quiet hours (their title and body). */
export const pushPrivacy: PrivacyProvider = {
  feature: 'push',
  subjects: ['employee', 'student'],
  declares: [
    {
      record: 'held_pushes',
      purpose: 'A push that arrived during the person\'s quiet hours, kept until they end and then sent.',
      category: 'communications',
      retention: 'Kept after it is sent; removed on an erasure.',
      fields: {
        title: { personal: true, description: "the push's title" },
        body: { personal: true, description: "the push's text" },
        data: { personal: false, description: 'what the app opens (ids)' },
        releaseAt: { personal: false, description: 'when the quiet hours end' },
      },
    },
  ],
  async export({ em, subject }) {
    if (subject.userId === null) return null;
    const heldPushes = await heldPushesOfUser(em, subject.userId);
    return heldPushes.length ? { data: { heldPushes } } : null;
  },
  async erase({ em, subject }) {
    const count = subject.userId === null ? 0 : await deleteHeldPushesOfUser(em, subject.userId);
    return { erased: count ? [{ what: 'pushes held for quiet hours', count }] : [], kept: [] };
  },
};
