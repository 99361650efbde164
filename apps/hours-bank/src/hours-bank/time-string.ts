import { invalidHours, invalidMinutes, invalidTimeFormat, timeRequired } from './hours-bank.errors.ts';

/**
 * Accepted grammar, after trimming surrounding whitespace:
 *   time    = hours | minutes | hours spaces? minutes
 *   hours   = digits "h"      minutes = digits "m"      (lower case only, whole numbers)
 * Minutes must be below 60 (`90m` is INVALID_MINUTES: write `1h 30m`); the total must be above
 * zero (`0h`, `0m`, `0h 0m`, `-1h` are INVALID_HOURS) and below MAX_HOURS per operation.
 */
export const MAX_HOURS = 1000;
/** Longer input is refused before any parsing (a time string is at most a few characters). */
const MAX_LENGTH = 32;
const TIME_PATTERN = /^(-)?(?:(\d{1,9})h)? *(?:(\d{1,9})m)?$/;

export function parseTime(raw: unknown): number {
  if (raw === undefined || raw === null) throw timeRequired();
  if (typeof raw !== 'string') throw invalidTimeFormat();
  const text = raw.trim();
  if (text === '') throw timeRequired();
  if (text.length > MAX_LENGTH) throw invalidTimeFormat();
  const match = TIME_PATTERN.exec(text);
  if (!match || (match[2] === undefined && match[3] === undefined)) throw invalidTimeFormat();
  const [, sign, hoursText, minutesText] = match;
  const hours = Number(hoursText ?? 0);
  const minutes = Number(minutesText ?? 0);
  if (minutes >= 60) throw invalidMinutes();
  const total = hours * 60 + minutes;
  if (sign || total <= 0 || hours >= MAX_HOURS) throw invalidHours(MAX_HOURS);
  return total;
}

/** `<H>h <M>m`, `<H>h` or `<M>m`; zero is `0h`; a negative amount gets a leading `-`. */
export function formatMinutes(minutes: number): string {
  if (minutes === 0) return '0h';
  const sign = minutes < 0 ? '-' : '';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  if (hours === 0) return `${sign}${rest}m`;
  if (rest === 0) return `${sign}${hours}h`;
  return `${sign}${hours}h ${rest}m`;
}

/** Decimal hours rounded to 2 decimals (100 minutes → 1.67). */
export function minutesToDecimal(minutes: number): number {
  const sign = minutes < 0 ? -1 : 1;
  return (sign * Math.round((Math.abs(minutes) * 100) / 60)) / 100;
}
