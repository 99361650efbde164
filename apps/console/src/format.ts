import { getSession } from './api/session';
import { i18next } from './i18n';

/** Dates and times in the academy's time zone and the user's language. */
const zone = () => getSession()?.academy.timeZone ?? 'Europe/Madrid';
const locale = () => (i18next.language === 'en' ? 'en-GB' : 'es-ES');

/**
 * One formatter per language, time zone and style, made once: making an `Intl` formatter costs far more
 * than formatting with it, and a list (the review queue's 500 blocks) formats a date a row.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(style: string, make: (locale: string, zone: string) => T): T {
  const key = `${locale()} ${zone()} ${style}`;
  let made = formatters.get(key) as T | undefined;
  if (!made) formatters.set(key, (made = make(locale(), zone())));
  return made;
}
const dateTime = (style: string, options: Intl.DateTimeFormatOptions) => formatter(style, (locale, timeZone) => new Intl.DateTimeFormat(locale, { ...options, timeZone }));

export const formatTime = (iso: string) => dateTime('time', { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
export const formatDateTime = (iso: string) => dateTime('date-time', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
export const formatDate = (iso: string) => dateTime('date', { dateStyle: 'full' }).format(new Date(iso));
export const formatNumber = (value: number) => formatter('number', (locale) => new Intl.NumberFormat(locale)).format(value);
/** Today in the academy's calendar, `YYYY-MM-DD`. */
export const academyToday = () => formatter('day', (_locale, timeZone) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })).format(new Date());
