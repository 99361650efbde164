import { z } from 'zod';
import { Id, IdText, PageMeta, errorResponses, jsonContent, queryObject } from './common.ts';
import { contract, routeFamily } from '../routes.ts';
import { isTimeZone } from '../locale.ts';

// Notifications (spec sections "Push notifications", "Events" 1, 3, 4, the "Notifications" errors).

/** Stored as PostgreSQL text, which cannot hold a NUL character. */
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((value) => !value.includes('\u0000'), { error: 'must not contain NUL characters' });
const required = (max: number) => text(max).refine((value) => value.trim().length > 0, { error: 'is required' });

export const PUSH_PLATFORMS = ['ios', 'android'] as const;
export const PushPlatform = z.enum(PUSH_PLATFORMS, { error: 'must be "ios" or "android"' });

/** FCM registration tokens are ~160-200 characters; 4 KB leaves room and refuses abuse. */
export const MAX_DEVICE_TOKEN_LENGTH = 4096;

export const RegisterDeviceTokenBody = z
  .strictObject({
    deviceId: required(200).meta({ description: 'Stable id of the device (one token per user and device)', example: 'pixel-8-5f2a' }),
    token: required(MAX_DEVICE_TOKEN_LENGTH).meta({ description: 'FCM registration token of the app on that device' }),
    platform: PushPlatform,
  })
  .meta({ id: 'RegisterDeviceTokenBody' });
export type RegisterDeviceTokenBody = z.infer<typeof RegisterDeviceTokenBody>;

export const DeviceToken = z
  .object({
    deviceId: z.string(),
    platform: PushPlatform,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
  })
  .meta({ id: 'DeviceToken' });

export const DeviceTokenRegistered = z.object({ success: z.literal(true), message: z.string(), data: DeviceToken });
export const DeviceTokenRemoved = z.object({ success: z.literal(true), message: z.string() });
/** The caller's devices, most recently seen first (never the tokens themselves). */
export const DeviceTokenList = z.object({ success: z.literal(true), data: z.array(DeviceToken) });
export const DeviceIdParams = z.object({ deviceId: required(200) });

export const PUSH_PRIORITIES = ['default', 'normal', 'high'] as const;
export const MAX_PUSH_USER_IDS = 1000;
/** FCM's limit on a message's payload. */
export const MAX_PUSH_PAYLOAD_BYTES = 4096;
const FCM_RESERVED_DATA_KEYS = new Set(['from', 'message_type', 'notification', 'collapse_key']);

export const PushSendBody = z
  .strictObject({
    userIds: z
      .array(Id, { error: 'must be an array of user ids' })
      .min(1, { error: 'must list at least one user id' })
      .max(MAX_PUSH_USER_IDS, { error: `must list at most ${MAX_PUSH_USER_IDS} user ids` }),
    body: required(4000),
    title: text(200).optional(),
    priority: z.enum(PUSH_PRIORITIES, { error: 'must be "default", "normal" or "high"' }).optional(),
    channelId: text(200).optional().meta({ description: 'Android notification channel' }),
    platform: PushPlatform.optional().meta({ description: 'Only the tokens of this platform' }),
    data: z
      .record(z.string(), z.string({ error: 'values must be strings (an FCM rule)' }), { error: 'must be an object of string values' })
      .optional()
      .meta({ description: 'Free object for deep-linking; values are strings (FCM)' }),
    idempotencyKey: required(200).optional().meta({ description: 'A retried send with the same key sends nothing and answers the first result' }),
  })
  // FCM refuses these for every token (a per-token error each): refused here as one clear 400.
  .superRefine((input, ctx) => {
    for (const key of Object.keys(input.data ?? {})) {
      if (FCM_RESERVED_DATA_KEYS.has(key) || /^(google|gcm)/i.test(key)) ctx.addIssue({ code: 'custom', path: ['data', key], message: 'is a key FCM reserves' });
    }
    const size = new TextEncoder().encode(JSON.stringify({ title: input.title, body: input.body, data: input.data })).length;
    if (size > MAX_PUSH_PAYLOAD_BYTES) ctx.addIssue({ code: 'custom', path: ['body'], message: `title, body and data take ${size} bytes; FCM accepts at most ${MAX_PUSH_PAYLOAD_BYTES}` });
  })
  .meta({ id: 'PushSendBody' });
export type PushSendBody = z.infer<typeof PushSendBody>;

export const PushSendError = z
  .object({ userId: z.number().int(), deviceId: z.string(), code: z.string().meta({ example: 'messaging/registration-token-not-registered' }), message: z.string() })
  .meta({ id: 'PushSendError' });
export type PushSendError = z.infer<typeof PushSendError>;

export const PushSendResponse = z
  .object({
    success: z.boolean(),
    requestedUserIds: z.array(z.number().int()),
    tokensCount: z.number().int(),
    successCount: z.number().int(),
    errorCount: z.number().int(),
    errors: z.array(PushSendError),
  })
  .meta({ id: 'PushSendResponse' });
export type PushSendResponse = z.infer<typeof PushSendResponse>;

export const DELIVERY_CHANNELS = ['email', 'push'] as const;
/** `skipped`: not sent because its recipient switched that type off on that channel (preferences). */
export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'recorded', 'failed', 'parked', 'skipped'] as const;

export const DeliveriesQuery = queryObject({
  channel: z.enum(DELIVERY_CHANNELS, { error: 'must be "email" or "push"' }).optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
  userId: IdText.optional().meta({ description: 'Deliveries to this user (push) ' }),
  recipient: text(320).optional().meta({ description: 'E-mail address or user:<id>' }),
  page: IdText.default(1),
  limit: IdText.max(100, { error: 'must be at most 100' }).default(20),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

export const Delivery = z
  .object({
    id: z.number().int(),
    eventId: z.string().meta({ description: 'The event (or push send) it comes from' }),
    eventType: z.string().meta({ example: 'block.approved' }),
    channel: z.enum(DELIVERY_CHANNELS),
    recipient: z.string().meta({ description: 'E-mail address, or user:<id> for a push' }),
    userId: z.number().int().nullable(),
    template: z.string().nullable(),
    subject: z.string().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastError: z.string().nullable().meta({ description: 'Why the last attempt failed' }),
    detail: z.record(z.string(), z.unknown()).nullable().meta({ description: 'Push: token counts; e-mail: nothing' }),
    nextAttemptAt: z.iso.datetime().nullable(),
    sentAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveriesPage = z.object({
  success: z.literal(true),
  data: z.array(Delivery),
  meta: PageMeta,
});

/** Socket.IO event `incident_notification`, sent to `user:<employee's user id>` and `admins`. */
export const IncidentNotification = z
  .object({
    eventId: z.uuid().meta({ description: 'Id of the incident event: a client may drop a repeat' }),
    incidentId: z.number().int(),
    employeeId: z.number().int(),
    change: z.enum(['created', 'employee_message', 'admin_message', 'status_changed', 'deleted']),
    status: z.string(),
    byUserId: z.number().int().nullable(),
    occurredAt: z.iso.datetime(),
    kind: z.string().optional().meta({ description: 'CLOCK_IN_WHILE_OPEN, CLOCK_OUT_WITHOUT_OPEN, RECORD_OPEN_TOO_LONG, ABSENCE, LATE_CLOCK_IN' }),
    description: z.string().optional(),
    /** On a message: its id, text and number of files. */
    messageId: z.number().int().nullable().optional(),
    message: z.string().nullable().optional(),
    fileCount: z.number().int().optional(),
  })
  .meta({ id: 'IncidentNotification' });
export type IncidentNotification = z.infer<typeof IncidentNotification>;

// ---------------------------------------------------------------- preferences

/** What a notification is about; each may be switched off per channel, except the critical ones. */
export const NOTIFICATION_TYPES = ['block_approved', 'block_rejected', 'incident', 'payslip_published', 'attendance_reminder', 'attendance_warning', 'approval_digest'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
/** Always delivered: an incident about my time record, a payslip published (or corrected). */
export const CRITICAL_NOTIFICATION_TYPES: readonly NotificationType[] = ['incident', 'payslip_published'];
export const NOTIFICATION_CHANNELS = ['email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NotificationPreference = z
  .object({
    type: z.enum(NOTIFICATION_TYPES),
    channel: z.enum(NOTIFICATION_CHANNELS),
    enabled: z.boolean(),
    critical: z.boolean().meta({ description: 'Critical types are always delivered and cannot be switched off' }),
  })
  .meta({ id: 'NotificationPreference' });
export type NotificationPreference = z.infer<typeof NotificationPreference>;

const timeOfDay = z.string({ error: 'must be a time of day as HH:MM' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time of day as HH:MM, such as 22:00' });

/** Non-critical pushes during them are held and sent once when they end (e-mail is unaffected). `start` after `end` spans midnight. */
export const QuietHours = z
  .strictObject({
    start: timeOfDay,
    end: timeOfDay,
    timeZone: z.string({ error: 'must be an IANA time zone such as Europe/Madrid' }).max(64).refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Madrid' }),
  })
  .refine((quiet) => quiet.start !== quiet.end, { error: 'must differ from start', path: ['end'] })
  .meta({ id: 'QuietHours', example: { start: '22:00', end: '07:00', timeZone: 'Europe/Madrid' } });
export type QuietHours = z.infer<typeof QuietHours>;

/** PUT: the settings to change (the others stay as they are); `quietHours` null removes them. */
export const PreferencesBody = z.strictObject({
  quietHours: QuietHours.nullable().optional(),
  preferences: z
    .array(
      z.strictObject({
        type: z.enum(NOTIFICATION_TYPES, { error: `must be one of ${NOTIFICATION_TYPES.join(', ')}` }),
        channel: z.enum(NOTIFICATION_CHANNELS, { error: `must be one of ${NOTIFICATION_CHANNELS.join(', ')}` }),
        enabled: z.boolean({ error: 'must be true or false' }),
      }),
    )
    .min(1, { error: 'must name at least one setting' })
    .max(NOTIFICATION_TYPES.length * NOTIFICATION_CHANNELS.length * 2, { error: 'has too many settings' })
    .optional(),
}).refine((body) => body.preferences !== undefined || body.quietHours !== undefined, { error: 'is required (or quietHours)', path: ['preferences'] });
export type PreferencesBody = z.infer<typeof PreferencesBody>;

export const PreferencesResponse = z.object({
  success: z.literal(true),
  data: z.object({
    preferences: z.array(NotificationPreference).meta({ description: 'Every type × channel; defaults all on' }),
    quietHours: QuietHours.nullable().meta({ description: 'null: none set' }),
  }),
});
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;

const errors = (extra: Record<number, string> = {}) => errorResponses({ 400: 'Invalid input (the failing fields in the message)', ...extra }, 'success');

/** `/api/v2/push-notifications/send`: internal, called by other services with the `x-api-key` (a family of its own: its 401 says so). */
export const pushSendApi = routeFamily({
  prefix: '/api/v2/push-notifications/send',
  service: 'notifications',
  access: 'api-key',
  errorStyle: 'success',
  unauthorizedMessage: 'Invalid or missing API key',
  tags: ['notifications'],
});

export const pushSendRoute = pushSendApi.route({
  method: 'post',
  path: '/api/v2/push-notifications/send',
  summary: 'Send a push message to all devices of the given users (internal)',
  description:
    'Tokens of `userIds` (filtered by `platform`) are sent through FCM `sendEachForMulticast` in chunks of 500. A token FCM reports dead ' +
    '(`registration-token-not-registered`, `invalid-registration-token`) is deleted. Without Firebase credentials the message is recorded, not sent.',
  request: { body: PushSendBody },
  responses: {
    200: jsonContent(PushSendResponse, 'Send report (tokensCount 0 when the users have no token)'),
    ...errors({ 409: 'A send with this idempotencyKey is in progress or had another body' }),
  },
});

/** `/api/v2/notifications`: a user's device tokens and preferences, the deliveries (admin); every route needs a token. */
export const notificationsApi = routeFamily({
  prefix: '/api/v2/notifications',
  service: 'notifications',
  access: 'bearer',
  errorStyle: 'success',
  unauthorizedMessage: 'Unauthorized',
  tags: ['notifications'],
});

export const registerDeviceTokenRoute = notificationsApi.route({
  method: 'post',
  path: '/api/v2/notifications/token',
  summary: "Register or update the push token of the user's device",
  description: 'One token per (user, device); a token registered by another user moves to this one.',
  request: { body: RegisterDeviceTokenBody },
  responses: {
    200: jsonContent(DeviceTokenRegistered, 'Device token registered successfully'),
    ...errors({ 403: 'USER_ERASED: an erasure of this login ran (a registration arriving while it runs waits for it, then is refused)' }),
  },
});

export const removeDeviceTokenRoute = notificationsApi.route({
  method: 'delete',
  path: '/api/v2/notifications/token/{deviceId}',
  summary: 'Remove the push token of a device of the user',
  request: { params: DeviceIdParams },
  responses: { 200: jsonContent(DeviceTokenRemoved, 'Device token removed successfully'), ...errors({ 404: 'Device not found (another user’s device too)' }) },
});

export const listDeviceTokensRoute = notificationsApi.route({
  method: 'get',
  path: '/api/v2/notifications/token',
  summary: "The caller's devices with a push token, most recently seen first (the tokens themselves are never answered)",
  responses: { 200: jsonContent(DeviceTokenList, 'The devices'), ...errors() },
});

export const listDeliveriesRoute = notificationsApi.route({
  method: 'get',
  path: '/api/v2/notifications/deliveries',
  summary: 'E-mails and pushes: sent, recorded, failed or parked, and why (admin)',
  role: 'admin',
  roleRefusal: { message: 'Only administrators may list deliveries' },
  request: { query: DeliveriesQuery },
  responses: { 200: jsonContent(DeliveriesPage, 'Newest first'), ...errors({ 403: 'Not an administrator' }) },
});

export const readPreferencesRoute = notificationsApi.route({
  method: 'get',
  path: '/api/v2/notifications/preferences',
  summary: "The caller's notification preferences: each type on each channel, on or off",
  responses: { 200: jsonContent(PreferencesResponse, 'Every type × channel (defaults all on)'), ...errors() },
});

export const updatePreferencesRoute = notificationsApi.route({
  method: 'put',
  path: '/api/v2/notifications/preferences',
  summary: "Switch types on or off per channel (the caller's own); critical types cannot be switched off",
  request: { body: PreferencesBody },
  responses: { 200: jsonContent(PreferencesResponse, 'The preferences after the change'), ...errors({ 400: 'Invalid input, or a critical type switched off (CRITICAL_NOTIFICATION_TYPE, naming them)' }) },
});

// ---------------------------------------------------------------- opt-outs (what guardians' links recorded; admin)

const optOutType = z.enum(NOTIFICATION_TYPES, { error: `must be one of ${NOTIFICATION_TYPES.join(', ')}` });

export const OptOutsQuery = queryObject({
  recipient: text(320).optional().meta({ description: "Only this address's opt-outs (a guardian's e-mail, any case)" }),
  type: optOutType.optional(),
  page: IdText.default(1),
  limit: IdText.max(100, { error: 'must be at most 100' }).default(20),
});
export type OptOutsQuery = z.infer<typeof OptOutsQuery>;

export const OptOut = z
  .object({
    recipient: z.string().meta({ description: 'The address, in lower case' }),
    type: z.enum(NOTIFICATION_TYPES),
    createdAt: z.iso.datetime().meta({ description: 'When the unsubscribe link was confirmed' }),
  })
  .meta({ id: 'EmailOptOut' });
export type OptOut = z.infer<typeof OptOut>;

export const OptOutsPage = z.object({ success: z.literal(true), data: z.array(OptOut), meta: PageMeta });

/** One opt-out: an address and a type, both required. */
export const OptOutKey = queryObject({ recipient: required(320).meta({ description: "The guardian's e-mail address (any case)" }), type: optOutType });
export type OptOutKey = z.infer<typeof OptOutKey>;

export const OptOutRemoved = z.object({ success: z.literal(true), message: z.string(), data: OptOut });

export const listOptOutsRoute = notificationsApi.route({
  method: 'get',
  path: '/api/v2/notifications/opt-outs',
  summary: "Addresses unsubscribed from a type of mail by their link (guardians), newest first (admin)",
  role: 'admin',
  roleRefusal: { message: 'Only administrators may read opt-outs' },
  request: { query: OptOutsQuery },
  responses: { 200: jsonContent(OptOutsPage, 'Newest first'), ...errors({ 403: 'Not an administrator' }) },
});

export const removeOptOutRoute = notificationsApi.route({
  method: 'delete',
  path: '/api/v2/notifications/opt-outs',
  summary: "Undo a guardian's opt-out: that address gets that type of mail again from the next one (admin)",
  description: 'Mails already marked `skipped` stay so; the next mail of the type to the address is sent. The guardian can unsubscribe again from any later mail.',
  role: 'admin',
  roleRefusal: { message: 'Only administrators may undo opt-outs' },
  request: { query: OptOutKey },
  responses: { 200: jsonContent(OptOutRemoved, 'Opt-out removed'), ...errors({ 403: 'Not an administrator', 404: 'No such opt-out (OPT_OUT_NOT_FOUND)' }) },
});

// ---------------------------------------------------------------- unsubscribe (guardians, no login)

export const UnsubscribeQuery = z
  .strictObject({
    token: z
      // `?token=a&token=b` reads as an array: say that one token is expected, not that none came.
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : Array.isArray(issue.input) ? 'must be given once (one token expected)' : 'must be a string') })
      .min(1, { error: 'is required' })
      .max(2048, { error: 'must be at most 2048 characters' })
      .meta({ description: 'The signed token of the link in the mail (one type, one address, an expiry)' }),
  })
  .meta({ id: 'UnsubscribeQuery' });

const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

/** The public page a guardian's unsubscribe link opens: a family of its own (public, where `/api/v2/notifications` is bearer). */
export const notificationsUnsubscribeApi = routeFamily({
  prefix: '/api/v2/notifications/unsubscribe',
  service: 'notifications',
  access: 'public',
  errorStyle: 'success',
  unauthorizedMessage: 'Unauthorized',
  tags: ['notifications'],
});

export const unsubscribeRoute = notificationsUnsubscribeApi.route({
  method: 'get',
  path: '/api/v2/notifications/unsubscribe',
  summary: "The page of the unsubscribe link in a guardian's mail: says what would stop, with a button that confirms (no login; changes nothing)",
  description:
    'The token is signed by notifications (HMAC-SHA256) and names one notification type and one address, with an expiry. A valid one answers a ' +
    'plain HTML page (no scripts) saying which mails would stop, with a form whose one button POSTs the same token; the GET itself records ' +
    'nothing, so a mail scanner that follows the link unsubscribes no one. An address already unsubscribed from the type: a page saying so. ' +
    'A forged, malformed or expired token: a plain HTML page saying so, 400.',
  request: { query: UnsubscribeQuery },
  responses: {
    200: htmlPage('The confirmation form (or: already unsubscribed)'),
    400: htmlPage('The link is not valid or has expired (a missing token: the JSON error naming `token`)'),
  },
});

export const UnsubscribeOneClickBody = z
  .object({ 'List-Unsubscribe': z.literal('One-Click').optional() })
  .meta({ id: 'UnsubscribeOneClickBody', description: "RFC 8058's one-click body, as mail clients send it; the page's own button sends none. Not read." });

export const confirmUnsubscribeRoute = notificationsUnsubscribeApi.route({
  method: 'post',
  path: '/api/v2/notifications/unsubscribe',
  summary: "Unsubscribe an address from one type of mail: the page's button, or a mail client's one-click unsubscribe (RFC 8058; no login)",
  description:
    'The token, in the query as in the link (and in the `List-Unsubscribe` header of the mail), names one type and one address. A valid one records ' +
    'the opt-out (the mail worker then records such mails as `skipped`) and answers a plain HTML page confirming it; again: a page saying it was ' +
    'already done, nothing changed. A forged, malformed or expired token: a plain HTML page saying so, 400, nothing changed.',
  request: { query: UnsubscribeQuery, body: UnsubscribeOneClickBody, bodyContentType: 'application/x-www-form-urlencoded', bodyRequired: false },
  responses: {
    200: htmlPage('Unsubscribed (or: already unsubscribed, nothing changed)'),
    400: htmlPage('The link is not valid or has expired; nothing was changed (a missing token: the JSON error naming `token`)'),
  },
});

/** notifications' routes by feature and name: each `<feature>.routes.ts` implements its contract. */
export const deviceTokensContract = contract({ register: registerDeviceTokenRoute, remove: removeDeviceTokenRoute, list: listDeviceTokensRoute });
export const deliveriesContract = contract({ list: listDeliveriesRoute });
export const preferencesContract = contract({ read: readPreferencesRoute, update: updatePreferencesRoute });
export const pushSendContract = contract({ send: pushSendRoute });
export const emailContract = contract({ unsubscribePage: unsubscribeRoute, unsubscribe: confirmUnsubscribeRoute, listOptOuts: listOptOutsRoute, removeOptOut: removeOptOutRoute });
