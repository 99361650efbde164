import { getSession } from './api/session';
import { i18next } from './i18n';

/** Dates and times in the academy's time zone and the user's language. */
const zone = () => getSession()?.academy.timeZone ?? 'Europe/Madrid';
const locale = () => (i18next.language === 'en' ? 'en-GB' : 'es-ES');

export const formatTime = (iso: string) => new Intl.DateTimeFormat(locale(), { timeZone: zone(), hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
export const formatDateTime = (iso: string) => new Intl.DateTimeFormat(locale(), { timeZone: zone(), dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
export const formatDate = (iso: string) => new Intl.DateTimeFormat(locale(), { timeZone: zone(), dateStyle: 'full' }).format(new Date(iso));
export const formatNumber = (value: number) => new Intl.NumberFormat(locale()).format(value);
/** Today in the academy's calendar, `YYYY-MM-DD`. */
export const academyToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: zone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
