import type { Actor } from '@academy/auth';
import type { NotificationsContext } from '../notifications-context.ts';
import { readPreferencesOf, type Preferences } from './preferences.store.ts';

/** What GET answers: every setting of the caller, and their quiet hours (null when none). */
export async function readPreferences(ctx: NotificationsContext, _input: Record<string, never>, actor: Actor): Promise<Preferences> {
  return readPreferencesOf(ctx.orm.em, actor.userId);
}
