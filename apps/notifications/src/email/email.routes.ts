import type { Express, Response } from 'express';
import { confirmUnsubscribeRoute, listOptOutsRoute, removeOptOutRoute, unsubscribeRoute } from '@academy/contracts';
import { routeBinder } from '@academy/service';
import type { NotificationsContext } from '../notifications-context.ts';
import { listOptOuts, removeOptOut, unsubscribe, unsubscribeSettings, unsubscribeState, type UnsubscribeOutcome } from './unsubscribes.ts';
import { UNSUBSCRIBE_PAGE_CSP, unsubscribePage, type UnsubscribeView } from './unsubscribe-page.ts';

/**
 * The unsubscribe link of a guardian's mail: public (a guardian has no login), answered with plain
 * HTML pages. The GET only shows what would stop and a button (mail scanners follow links); the POST,
 * from that button or a mail client's one-click unsubscribe (RFC 8058), records it. Admins list the
 * recorded opt-outs and undo one.
 */
export function registerEmailRoutes(app: Express, ctx: NotificationsContext): void {
  const bind = routeBinder(app, ctx);
  const answer = (res: Response, outcome: UnsubscribeOutcome, view: (outcome: Extract<UnsubscribeOutcome, { ok: true }>) => UnsubscribeView) => {
    if (!outcome.ok) ctx.logger.info({ reason: outcome.reason }, 'unsubscribe link refused');
    res
      .status(outcome.ok ? 200 : 400)
      .type('html')
      .set({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-security-policy': UNSUBSCRIBE_PAGE_CSP })
      .send(unsubscribePage(ctx.config.ACADEMY_LOCALE, outcome.ok ? view(outcome) : { page: 'invalid' }));
  };

  bind(unsubscribeRoute, async ({ query, res }) => {
    const outcome = await unsubscribeState(ctx.orm.em.fork(), unsubscribeSettings(ctx.config), query.token, ctx.clock.now());
    answer(res, outcome, ({ type, address, already }) => (already ? { page: 'already', type, address } : { page: 'confirm', type, address, token: query.token }));
  });

  bind(confirmUnsubscribeRoute, async ({ query, res }) => {
    const outcome = await unsubscribe(ctx.orm.em.fork(), unsubscribeSettings(ctx.config), query.token, ctx.clock.now());
    answer(res, outcome, ({ type, address, already }) => ({ page: already ? 'already' : 'done', type, address }));
  });

  // What the links recorded, and undoing one (admin): a guardian who unsubscribed by mistake asks the academy.
  bind(listOptOutsRoute, async ({ query, res }) => {
    res.json({ success: true, ...(await listOptOuts(ctx.orm.em, query)) });
  });

  bind(removeOptOutRoute, async ({ query, req, res }) => {
    const removed = await removeOptOut(ctx.orm.em, query);
    req.log.info({ recipient: removed.recipient, type: removed.type }, 'opt-out undone by an administrator');
    res.json({ success: true, message: 'Opt-out removed', data: removed });
  });
}
