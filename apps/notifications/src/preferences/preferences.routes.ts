import type { Express } from 'express';
import { currentUser } from '@academy/auth';
import { readPreferencesRoute, updatePreferencesRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import type { NotificationsContext } from '../notifications-context.ts';
import { readAll, updatePreferences } from './preferences.ts';

/** The caller's own preferences: each type on each channel, and quiet hours. */
export function registerPreferenceRoutes(app: Express, ctx: NotificationsContext): void {
  const bind = routeBinder(app, ctx);
  bind(readPreferencesRoute, async ({ res }) => {
    res.json({ success: true, data: await readAll(ctx.orm.em, currentUser(res).userId) });
  });
  // `ctx.orm.em` is the request's EntityManager: with an Idempotency-Key it carries the keyed
  // transaction, so the update commits with the key's answer (a fork would leave it, on a second connection).
  bind(updatePreferencesRoute, async ({ body, res }) => {
    res.json({ success: true, data: await updatePreferences(ctx.orm.em, currentUser(res).userId, body, ctx.clock.now()) });
  });
}
