import type { Actor } from '@academy/auth';
import type { OptOut, OptOutsQuery, PageMeta } from '@academy/contracts';
import type { NotificationsContext } from '../notifications-context.ts';
import { listOptOutRows } from './email.store.ts';

/** The opt-outs the links recorded (admin), newest first, a page at a time. */
export function listOptOuts(ctx: NotificationsContext, input: OptOutsQuery, _actor: Actor): Promise<{ data: OptOut[]; meta: PageMeta }> {
  return listOptOutRows(ctx.orm.em, input);
}
