import { privacyEntities } from '@academy/privacy';
import { NotificationPreference } from './preferences/preferences.entities.ts';
import { Delivery } from './shared/deliveries.entities.ts';
import { DeviceToken } from './devices/devices.entities.ts';
import { RecordedPush } from './push/push.entities.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging). */
export const entities = [...privacyEntities, DeviceToken, Delivery, RecordedPush, NotificationPreference];
