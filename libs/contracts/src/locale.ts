import { z } from 'zod';

/** The languages the academy writes to people in: a user's `locale`, carried by events, `ACADEMY_LOCALE`. */
export const LOCALES = ['es', 'en'] as const;
export const Locale = z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` });
export type Locale = z.infer<typeof Locale>;
