// Spanish tax ids (NIF of a person): a DNI is 8 digits and a control letter, a NIE is X, Y or Z,
// 7 digits and a control letter. The letter is the number modulo 23 looked up in CONTROL_LETTERS
// (for a NIE, X/Y/Z stand for the leading digit 0/1/2). Academic validates them on the employee;
// payslips reuses the same rules to find an employee's id in a payslip's text.
import { createHmac } from 'node:crypto';

const CONTROL_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const NIE_PREFIX_DIGITS: Record<string, string> = { X: '0', Y: '1', Z: '2' };
const SHAPE = /^(?:\d{8}|[XYZ]\d{7})[A-Z]$/;

/** The letter a DNI number (8 digits) or a NIE body (X/Y/Z and 7 digits) must end with. */
function controlLetter(body: string): string {
  const digits = body.replace(/^[XYZ]/, (prefix) => NIE_PREFIX_DIGITS[prefix]);
  return CONTROL_LETTERS[Number(digits) % 23];
}

/** Upper case, without the spaces, dots and hyphens people write inside ids ("12.345.678-z" → "12345678Z"). */
export const normalizeTaxId = (value: string): string => value.toUpperCase().replace(/[\s.\-]/g, '');

/** A DNI or NIE with the right control letter, as written or once normalized. */
export function isValidSpanishTaxId(value: string): boolean {
  const id = normalizeTaxId(value);
  return SHAPE.test(id) && controlLetter(id.slice(0, -1)) === id.slice(-1);
}

/**
 * The valid DNIs and NIEs written in a text (a page of a payslip), normalized, each once, in order
 * of appearance. Ids may be written with dots, a space or a hyphen before the letter.
 */
export function findSpanishTaxIds(text: string): string[] {
  const candidates = text.toUpperCase().match(/(?<![A-Z0-9])(?:\d{2}\.?\d{3}\.?\d{3}|[XYZ][\s-]?\d{7})[\s-]?[A-Z](?![A-Z0-9])/g) ?? [];
  return [...new Set(candidates.map(normalizeTaxId).filter(isValidSpanishTaxId))];
}

/** A valid, obviously fictitious DNI for demo employee `n` (1 → "00000001R"): the seed and payslips' demo PDF share it. */
export function demoTaxId(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 99_999_999) throw new RangeError(`demoTaxId needs an integer from 0 to 99999999, got ${n}`);
  const digits = String(n).padStart(8, '0');
  return `${digits}${controlLetter(digits)}`;
}

/**
 * How a tax id travels in events and sits in payslips' replica (`employee.upserted` version 3): the
 * HMAC-SHA256 (hex) of the normalized id under `key` (`TAX_ID_DIGEST_KEY`, shared by academic and
 * payslips only). Keyed, because a bare hash of the 10^8 possible DNIs is reversed by trying them all.
 */
export function taxIdDigest(taxId: string, key: string): string {
  return createHmac('sha256', key).update(normalizeTaxId(taxId)).digest('hex');
}

/** The shape of `taxIdDigest`'s output. */
export const TAX_ID_DIGEST_PATTERN = /^[0-9a-f]{64}$/;

/** For development and tests only: `npm start` needs no setup; a deployment sets its own `TAX_ID_DIGEST_KEY` (a Kubernetes Secret). */
export const DEV_TAX_ID_DIGEST_KEY = 'dev-only-tax-id-digest-key-do-not-use-in-production';
