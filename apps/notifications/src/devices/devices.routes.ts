import { deviceTokensContract } from '@academy/contracts';
import { implement } from '../notifications-context.ts';
import { listDeviceTokens } from './list-device-tokens.ts';
import { registerDeviceToken } from './register-device-token.ts';
import { removeDeviceToken } from './remove-device-token.ts';

/** The caller's push tokens, one per device. */
export const deviceRoutes = implement(deviceTokensContract, {
  register: async ({ body }, ctx, actor) => ({
    status: 200,
    body: { success: true, message: 'Device token registered successfully', data: await registerDeviceToken(ctx, body, actor) },
  }),
  list: async (_input, ctx, actor) => ({ status: 200, body: { success: true, data: await listDeviceTokens(ctx, {}, actor) } }),
  remove: async ({ params }, ctx, actor) => {
    await removeDeviceToken(ctx, params, actor);
    return { status: 200, body: { success: true, message: 'Device token removed successfully' } };
  },
});
