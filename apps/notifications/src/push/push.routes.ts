import { pushSendContract } from '@academy/contracts';
import { implement } from '../notifications-context.ts';
import { sendPush } from './send-push.ts';

/** The internal send other services call with the `x-api-key`. */
export const pushRoutes = implement(pushSendContract, {
  send: async ({ body }, ctx) => ({ status: 200, body: await sendPush(ctx, { message: body }) }),
});
