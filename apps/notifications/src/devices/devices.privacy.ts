import type { PrivacyProvider } from '@academy/privacy';
import { deleteDevicesOfUser, devicesOfUser } from './devices.store.ts';

/** A login's push tokens, one per device (only people with a login have them). */
export const devicesPrivacy: PrivacyProvider = {
  feature: 'devices',
  subjects: ['employee', 'student'],
  declares: [
    {
      record: 'device_tokens',
      purpose: 'Where to send push notifications: the FCM token of each device the person signed in on.',
      category: 'devices',
      retention: 'Until removed, replaced by another login on the device, or unseen for 270 days (TOKEN_RETENTION_DAYS).',
      fields: {
        deviceId: { personal: true, description: "the app installation's id" },
        platform: { personal: false, description: 'ios or android' },
        token: { personal: true, description: 'the FCM registration token' },
        lastSeenAt: { personal: true, description: 'when the device last registered or received a push' },
      },
    },
  ],
  async export({ em, subject }) {
    if (subject.userId === null) return null;
    const devices = await devicesOfUser(em, subject.userId);
    return devices.length ? { data: { devices } } : null;
  },
  // The login is marked erased too (erased_users: its id alone), so a registration that waited for this erasure is refused.
  async erase({ em, subject, now }) {
    const count = subject.userId === null ? 0 : await deleteDevicesOfUser(em, subject.userId, now);
    return { erased: count ? [{ what: 'push device tokens', count }] : [], kept: [] };
  },
};
