import { emailContract } from '@academy/contracts';
import { implement, type NotificationsContext } from '../notifications-context.ts';
import { listOptOuts, removeOptOut, unsubscribe, unsubscribeSettings, unsubscribeState, type UnsubscribeOutcome } from './unsubscribes.ts';
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
    const outcome = await unsubscribeState(ctx.orm.em.fork(), unsubscribeSettings(ctx.config), query.token, ctx.clock.now());
    return pageOf(ctx, outcome, ({ type, address, already }) => (already ? { page: 'already', type, address } : { page: 'confirm', type, address, token: query.token }));
  },
  unsubscribe: async ({ query }, ctx) => {
    const outcome = await unsubscribe(ctx.orm.em.fork(), unsubscribeSettings(ctx.config), query.token, ctx.clock.now());
    return pageOf(ctx, outcome, ({ type, address, already }) => ({ page: already ? 'already' : 'done', type, address }));
  },
  // What the links recorded, and undoing one (admin): a guardian who unsubscribed by mistake asks the academy.
  listOptOuts: async ({ query }, ctx) => ({ status: 200, body: { success: true, ...(await listOptOuts(ctx.orm.em, query)) } }),
  removeOptOut: async ({ query, req }, ctx) => {
    const removed = await removeOptOut(ctx.orm.em, query);
    req.log.info({ recipient: removed.recipient, type: removed.type }, 'opt-out undone by an administrator');
    return { status: 200, body: { success: true, message: 'Opt-out removed', data: removed } };
  },
});
