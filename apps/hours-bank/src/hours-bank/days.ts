/** The UTC day of `now`, the service clock's instant (`ctx.clock`). */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** `2026-01-15` stays; a date-time becomes its UTC day; none is today's. */
export const toDay = (date: string | undefined, now: Date) => (date === undefined ? dayOf(now) : date.length === 10 ? date : dayOf(new Date(date)));
