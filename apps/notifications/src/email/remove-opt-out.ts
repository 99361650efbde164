import type { Actor } from '@academy/auth';
import type { OptOut, OptOutKey } from '@academy/contracts';
import type { NotificationsContext } from '../notifications-context.ts';
import { optOutNotFound } from '../notifications.errors.ts';
import { deleteOptOut } from './email.store.ts';

/** Undoes one opt-out (admin; a guardian who unsubscribed by mistake asks the academy): the address gets mails of that type again from the next one. */
export async function removeOptOut(ctx: NotificationsContext, input: OptOutKey, actor: Actor): Promise<OptOut> {
  const removed = await deleteOptOut(ctx.orm.em, input);
  if (!removed) throw optOutNotFound();
  ctx.logger.info({ recipient: removed.recipient, type: removed.type, byUserId: actor.userId }, 'opt-out undone by an administrator');
  return removed;
}
