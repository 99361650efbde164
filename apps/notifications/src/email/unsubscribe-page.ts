// The pages of a guardian's unsubscribe link: plain HTML in the guardians' language (ACADEMY_LOCALE),
// values escaped, no scripts; the confirmation is a form, so the link's GET changes nothing.
import { createHash } from 'node:crypto';
import type { Locale, NotificationType } from '@academy/contracts';
import { say } from '../shared/i18n.ts';
import { escapeHtml } from './templates.ts';

/** What the page shows: the form that confirms (GET), the outcome of a POST, or a refused token. */
export type UnsubscribeView =
  | { page: 'confirm'; type: NotificationType; address: string; token: string }
  | { page: 'done' | 'already'; type: NotificationType; address: string }
  | { page: 'invalid' };

const STYLE = 'body{font-family:sans-serif;line-height:1.5;max-width:40rem;margin:2rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1rem}';

/**
 * The page's Content-Security-Policy: nothing may load or run (no script source at all), its one
 * style element by hash, the form posts to this origin only, no framing.
 */
export const UNSUBSCRIBE_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

const TITLES = { confirm: 'unsubscribe.confirmTitle', done: 'unsubscribe.doneTitle', already: 'unsubscribe.alreadyTitle', invalid: 'unsubscribe.invalidTitle' } as const;

export function unsubscribePage(locale: Locale, view: UnsubscribeView): string {
  const lang = { locale, timeZone: 'UTC' };
  const title = say(lang, TITLES[view.page]);
  const body = view.page === 'invalid' ? say(lang, 'unsubscribe.invalid') : say(lang, `unsubscribe.${view.page}`, { address: view.address, type: say(lang, `unsubscribe.types.${view.type}`) });
  // The form posts to this same path with the same token in the query, as a mail client's one-click POST does.
  const form =
    view.page === 'confirm'
      ? `<form method="post" action="?token=${escapeHtml(encodeURIComponent(view.token))}"><button type="submit">${escapeHtml(say(lang, 'unsubscribe.button'))}</button></form>`
      : '';
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>${form}</body></html>`
  );
}
