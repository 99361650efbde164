// The language of a notification: i18next picks the wording (plurals included) from the resources of
// each locale, Intl formats dates and numbers for it. Values come back as template parts, so the
// templates keep escaping every event value whatever the language.
import i18next from 'i18next';
import type { Locale } from '@academy/contracts';
import { en } from './locales/en.ts';
import { es } from './locales/es.ts';

/** A piece of a sentence: plain text, an event's value (escaped in HTML, kept on one line) or a link. */
export type Part = string | { value: string } | { link: string };

/** Who a notification is written for: their language, and the academy's time zone for instants. */
export interface Language {
  locale: Locale;
  timeZone: string;
}

/** The recipient's own locale when the event carries it, the academy's otherwise. */
export const languageOf = (locale: Locale | null | undefined, academy: Language): Language => ({ locale: locale ?? academy.locale, timeZone: academy.timeZone });

/** Resources are static, so one instance serves every service instance (no per-instance state in it). */
const translator = i18next.createInstance();
void translator.init({
  resources: { en: { translation: en }, es: { translation: es } },
  fallbackLng: 'es',
  initAsync: false,
  // The templates escape; i18next only places the values.
  interpolation: { escapeValue: false },
});

type Value = string | number | { link: string };
const MARK = '\u0000';

/** A translated sentence with its values as plain text (subjects, push texts). */
export function say(lang: Language, key: string, values: Record<string, string | number> = {}): string {
  return translator.t(key, { lng: lang.locale, ...values });
}

/** A translated sentence as parts: the wording literal, each value a value part (escaped, in bold) or a link. */
export function phrase(lang: Language, key: string, values: Record<string, Value> = {}, count?: number): Part[] {
  const names = Object.keys(values);
  const marked = Object.fromEntries(names.map((name, index) => [name, `${MARK}${index}${MARK}`]));
  const sentence = translator.t(key, { lng: lang.locale, ...marked, ...(count === undefined ? {} : { count }) });
  return sentence.split(MARK).flatMap((piece, index): Part[] => {
    if (index % 2 === 0) return piece ? [piece] : [];
    const value = values[names[Number(piece)]!]!;
    return [typeof value === 'object' ? value : { value: String(value) }];
  });
}

const TAGS: Record<Locale, string> = { es: 'es-ES', en: 'en-GB' };
const cache = new Map<string, Intl.DateTimeFormat>();
const dateFormat = (locale: Locale, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) cache.set(key, (format = new Intl.DateTimeFormat(TAGS[locale], { ...options, timeZone })));
  return format;
};

/** "2026-11-05" → "5 November 2026" / "5 de noviembre de 2026": a calendar date, read in UTC whatever the server's zone. */
export const calendarDate = (lang: Language, isoDate: string, weekday = false): string =>
  dateFormat(lang.locale, 'UTC', { day: 'numeric', month: 'long', year: 'numeric', ...(weekday ? { weekday: 'short' } : {}) }).format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));

/** An instant as the academy's clock shows it, in the reader's language. */
export const instant = (lang: Language, at: Date): string => dateFormat(lang.locale, lang.timeZone, { dateStyle: 'long', timeStyle: 'short' }).format(at);

export const number = (lang: Language, value: number): string => new Intl.NumberFormat(TAGS[lang.locale], { maximumFractionDigits: 2 }).format(value);

/** 75 → "75%" / "75 %"; up to two decimals. */
export const percent = (lang: Language, value: number): string => new Intl.NumberFormat(TAGS[lang.locale], { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);

