import type { PrivacyProvider } from '@academy/privacy';
import { deletePreferencesOfUser, readQuietHours, readSettings } from './preferences.store.ts';

/** A login's notification settings and quiet hours (what they changed; the rest is the default, on). */
export const preferencesPrivacy: PrivacyProvider = {
  feature: 'preferences',
  subjects: ['employee', 'student'],
  declares: [
    {
      record: 'notification_preferences',
      purpose: 'Which notification types the person switched off or on, per channel (e-mail, push).',
      category: 'preferences',
      retention: 'While the login exists.',
      fields: { type: { personal: false, description: 'the notification type' }, channel: { personal: false, description: 'email or push' }, enabled: { personal: false, description: 'on or off' } },
    },
    {
      record: 'quiet_hours',
      purpose: 'When the person receives no optional push (held until the quiet hours end).',
      category: 'preferences',
      retention: 'While the login exists.',
      fields: { quietHours: { personal: true, description: 'start, end and time zone of the quiet hours' } },
    },
  ],
  async export({ em, subject }) {
    if (subject.userId === null) return null;
    const [settings, quietHours] = [await readSettings(em, subject.userId), await readQuietHours(em, subject.userId)];
    return settings.length || quietHours ? { data: { settings, quietHours } } : null;
  },
  async erase({ em, subject }) {
    if (subject.userId === null) return { erased: [], kept: [] };
    const deleted = await deletePreferencesOfUser(em, subject.userId);
    const erased = [
      ...(deleted.settings ? [{ what: 'notification settings', count: deleted.settings }] : []),
      ...(deleted.quietHours ? [{ what: 'quiet hours', count: deleted.quietHours }] : []),
    ];
    return { erased, kept: [] };
  },
};
