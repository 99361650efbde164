import type { DeviceTokenRow } from './devices.store.ts';

/** A device as the routes answer it (never its token): what registering and listing answer. */
export const deviceItem = (row: DeviceTokenRow) => ({
  deviceId: row.device_id,
  platform: row.platform,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  lastSeenAt: new Date(row.last_seen_at).toISOString(),
});
