// The page a guardian's unsubscribe link opens: plain HTML in the academy's language, values escaped.
import type { Locale, NotificationType } from '@academy/contracts';
import { say } from '../shared/i18n.ts';
import { escapeHtml } from './templates.ts';

/** The answer page: plain HTML in the academy's language, the address escaped. */
export function unsubscribePage(locale: Locale, outcome: { ok: true; type: NotificationType; address: string } | { ok: false }): string {
  const lang = { locale, timeZone: 'UTC' };
  const title = say(lang, outcome.ok ? 'unsubscribe.doneTitle' : 'unsubscribe.invalidTitle');
  const body = outcome.ok ? say(lang, 'unsubscribe.done', { address: outcome.address, type: say(lang, `unsubscribe.types.${outcome.type}`) }) : say(lang, 'unsubscribe.invalid');
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family: sans-serif; line-height: 1.5"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></body></html>`;
}
