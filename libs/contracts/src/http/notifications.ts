import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { SuccessErrorBody, UnspecifiedObject, jsonContent } from './common.ts';

export const PushSendBody = z.object({
  userIds: z.array(z.number().int().positive()).min(1),
  body: z.string().min(1),
  title: z.string().optional(),
  priority: z.enum(['default', 'normal', 'high']).optional(),
  channelId: z.string().optional(),
  platform: z.enum(['ios', 'android']).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const PushSendResponse = z.object({
  success: z.boolean(),
  requestedUserIds: z.array(z.number().int()),
  tokensCount: z.number().int(),
  successCount: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(z.unknown()),
});

export const DeviceTokenRemoved = z.object({ success: z.literal(true), message: z.string() });

/** Device tokens and push send (notifications service). */
export function registerNotificationsDocs(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/v2/push-notifications/send',
    tags: ['notifications'],
    security: [{ apiKey: [] }],
    summary: 'Send a push message to all devices of the given users (internal)',
    request: { body: { content: { 'application/json': { schema: PushSendBody } } } },
    responses: { 200: jsonContent(PushSendResponse, 'Send report'), 401: jsonContent(SuccessErrorBody, 'Missing or wrong x-api-key') },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v2/notifications/token',
    tags: ['notifications'],
    security: [{ bearerAuth: [] }],
    summary: "Register or update the push token of the user's device",
    request: { body: { content: { 'application/json': { schema: UnspecifiedObject } } } },
    responses: { 200: jsonContent(UnspecifiedObject, 'Payload not specified by the interface'), 401: jsonContent(SuccessErrorBody, 'Unauthorized') },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v2/notifications/token/{deviceId}',
    tags: ['notifications'],
    security: [{ bearerAuth: [] }],
    summary: 'Remove the push token of a device of the user',
    request: { params: z.object({ deviceId: z.string().min(1) }) },
    responses: {
      200: jsonContent(DeviceTokenRemoved, 'Device token removed successfully'),
      401: jsonContent(SuccessErrorBody, 'Unauthorized'),
      404: jsonContent(SuccessErrorBody, 'Device not found'),
    },
  });
}
