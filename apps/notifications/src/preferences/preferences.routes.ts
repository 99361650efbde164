import { preferencesContract } from '@academy/contracts';
import { implement } from '../notifications-context.ts';
import { readAll, updatePreferences } from './preferences.ts';

/** The caller's own preferences: each type on each channel, and quiet hours. */
export const preferenceRoutes = implement(preferencesContract, {
  read: async (_input, ctx, actor) => ({ status: 200, body: { success: true, data: await readAll(ctx.orm.em, actor.userId) } }),
  // `ctx.orm.em` is the request's EntityManager: with an Idempotency-Key it carries the keyed
  // transaction, so the update commits with the key's answer (a fork would leave it, on a second connection).
  update: async ({ body }, ctx, actor) => ({ status: 200, body: { success: true, data: await updatePreferences(ctx.orm.em, actor.userId, body, ctx.clock.now()) } }),
});
