import { z } from 'zod';

/** The languages the academy writes to people in: a user's `locale`, carried by events, `ACADEMY_LOCALE`. */
export const LOCALES = ['es', 'en'] as const;
export const Locale = z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` });
export type Locale = z.infer<typeof Locale>;

/** Whether `value` is an IANA time zone this runtime knows (Intl refuses the others): `ACADEMY_TIME_ZONE`, a user's quiet hours. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
