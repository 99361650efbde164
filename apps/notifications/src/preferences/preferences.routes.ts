import { preferencesContract } from '@academy/contracts';
import { implement } from '../notifications-context.ts';
import { readPreferences } from './read-preferences.ts';
import { updatePreferences } from './update-preferences.ts';

/** The caller's own preferences: each type on each channel, and quiet hours. */
export const preferenceRoutes = implement(preferencesContract, {
  read: async (_input, ctx, actor) => ({ status: 200, body: { success: true, data: await readPreferences(ctx, {}, actor) } }),
  // The use case writes on `ctx.orm.em`, the request's EntityManager: with an Idempotency-Key it carries
  // the keyed transaction, so the update commits with the key's answer (a fork would leave it, on a second connection).
  update: async ({ body }, ctx, actor) => ({ status: 200, body: { success: true, data: await updatePreferences(ctx, body, actor) } }),
});
