import { defineEntity, p } from '@mikro-orm/postgresql';
import { NOTIFICATION_CHANNELS, NOTIFICATION_TYPES } from '@academy/contracts';

/** A user's setting of one notification type on one channel; no row means on (the default). */
export const NotificationPreference = defineEntity({
  name: 'NotificationPreference',
  tableName: 'notification_preferences',
  properties: {
    userId: p.integer().primary(),
    type: p.enum(NOTIFICATION_TYPES).primary(),
    channel: p.enum(NOTIFICATION_CHANNELS).primary(),
    enabled: p.boolean(),
    updatedAt: p.datetime(),
  },
});
