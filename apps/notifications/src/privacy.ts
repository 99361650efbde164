import { checkProviders, type PrivacyProvider } from '@academy/privacy';
import { deliveriesPrivacy } from './deliveries/deliveries.privacy.ts';
import { devicesPrivacy } from './devices/devices.privacy.ts';
import { emailPrivacy } from './email/email.privacy.ts';
import { preferencesPrivacy } from './preferences/preferences.privacy.ts';
import { pushPrivacy } from './push/push.privacy.ts';

/** Every feature's part of a person's data in notifications (each in its feature's `<feature>.privacy.ts`, over its store). */
export const notificationsProviders: readonly PrivacyProvider[] = [devicesPrivacy, preferencesPrivacy, deliveriesPrivacy, emailPrivacy, pushPrivacy];
checkProviders(notificationsProviders);
