import { emailContract } from '@academy/contracts';
import { implement, type NotificationsContext } from '../notifications-context.ts';
import { listOptOuts } from './list-opt-outs.ts';
import { readUnsubscribe } from './read-unsubscribe.ts';
import { removeOptOut } from './remove-opt-out.ts';
import type { UnsubscribeOutcome } from './unsubscribe-links.ts';
import { unsubscribe } from './unsubscribe.ts';
import { UNSUBSCRIBE_PAGE_CSP, unsubscribePage, type UnsubscribeView } from './unsubscribe-page.ts';

const PAGE_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-security-policy': UNSUBSCRIBE_PAGE_CSP };

/** The page an unsubscribe link answers: the outcome's view, or (400) the page of an invalid link. */
function pageOf(ctx: NotificationsContext, outcome: UnsubscribeOutcome, view: (outcome: Extract<UnsubscribeOutcome, { ok: true }>) => UnsubscribeView) {
  if (!outcome.ok) ctx.logger.info({ reason: outcome.reason }, 'unsubscribe link refused');
  const body = Buffer.from(unsubscribePage(ctx.config.ACADEMY_LOCALE, outcome.ok ? view(outcome) : { page: 'invalid' }));
  return outcome.ok ? { status: 200 as const, body, headers: PAGE_HEADERS } : { status: 400 as const, body, headers: PAGE_HEADERS };
}

/**
 * The unsubscribe link of a guardian's mail: public (a guardian has no login), answered with plain
 * HTML pages. The GET only shows what would stop and a button (mail scanners follow links); the POST,
 * from that button or a mail client's one-click unsubscribe (RFC 8058), records it. Admins list the
 * recorded opt-outs and undo one.
 */
export const emailRoutes = implement(emailContract, {
  unsubscribePage: async ({ query }, ctx) => {
    const outcome = await readUnsubscribe(ctx, query);
    return pageOf(ctx, outcome, ({ type, address, already }) => (already ? { page: 'already', type, address } : { page: 'confirm', type, address, token: query.token }));
  },
  unsubscribe: async ({ query }, ctx) => {
    const outcome = await unsubscribe(ctx, query);
    return pageOf(ctx, outcome, ({ type, address, already }) => ({ page: already ? 'already' : 'done', type, address }));
  },
  // What the links recorded, and undoing one (admin): a guardian who unsubscribed by mistake asks the academy.
  listOptOuts: async ({ query }, ctx, actor) => ({ status: 200, body: { success: true, ...(await listOptOuts(ctx, query, actor)) } }),
  removeOptOut: async ({ query }, ctx, actor) => ({ status: 200, body: { success: true, message: 'Opt-out removed', data: await removeOptOut(ctx, query, actor) } }),
});
