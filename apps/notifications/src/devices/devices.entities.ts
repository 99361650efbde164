import { defineEntity, p } from '@mikro-orm/postgresql';
import { PUSH_PLATFORMS } from '@academy/contracts';

/** One push token per (user, device); a token belongs to one user at a time. */
export const DeviceToken = defineEntity({
  name: 'DeviceToken',
  tableName: 'device_tokens',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    deviceId: p.string().length(200),
    token: p.text().unique(),
    platform: p.enum(PUSH_PLATFORMS),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
    /** Registered again or sent to successfully; tokens unseen for TOKEN_RETENTION_DAYS are pruned. */
    lastSeenAt: p.datetime().onCreate(() => new Date()).index(),
  },
  uniques: [{ properties: ['userId', 'deviceId'] }],
});
