import { describe, expect, test } from '@jest/globals';
import { DEV_TAX_ID_DIGEST_KEY, createEnvelope, eventVersions, parseEnvelope, taxIdDigest } from '../src/index.ts';

const v1Data = { id: 3, userId: null, name: 'Ana Ruiz', email: null, active: true };
const digest = taxIdDigest('12345678Z', DEV_TAX_ID_DIGEST_KEY);

describe('employee.upserted versions', () => {
  test('version 3 is stamped and carries the tax id digest and payrollCode', () => {
    const envelope = createEnvelope('employee.upserted', { ...v1Data, taxIdDigest: digest, payrollCode: null }, { source: 'academic' });
    expect(eventVersions['employee.upserted']).toBe(3);
    expect(envelope.version).toBe(3);
    const parsed = parseEnvelope(JSON.stringify(envelope));
    expect(parsed.ok && parsed.envelope.data).toMatchObject({ taxIdDigest: digest, payrollCode: null });
  });

  test('version 2 (the tax id itself, published beside 3 by academic@1.3.0 only) is neither stamped nor read any more: a retired twin, which the consumer drops; any other version it does not read is still unsupported', () => {
    expect(() => createEnvelope('employee.upserted', { ...v1Data, payrollCode: null }, { source: 'academic', version: 2 })).toThrow(RangeError);
    const twin = { ...createEnvelope('employee.upserted', { ...v1Data, payrollCode: null }, { source: 'academic' }), version: 2, data: { ...v1Data, taxId: '12345678Z', payrollCode: null } };
    const parsed = parseEnvelope(JSON.stringify(twin));
    expect(parsed).toEqual({ ok: false, reason: 'retired_twin', error: expect.stringContaining('retired twin'), eventId: twin.id, type: 'employee.upserted' });
    expect(JSON.stringify(parsed)).not.toContain('12345678Z');
    // Another version nobody reads is still unsupported (parked), not retired.
    expect(parseEnvelope(JSON.stringify({ ...twin, version: 4 }))).toMatchObject({ ok: false, reason: 'unsupported_version', error: expect.stringContaining('reads versions 3, 1') });
  });

  test('a version the schema does not read is refused at the producer', () => {
    expect(() => createEnvelope('employee.upserted', v1Data, { source: 'academic', version: 4 })).toThrow(RangeError);
  });

  test('version 1 (without the new fields) is still read, the fields left undefined', () => {
    const envelope = { ...createEnvelope('employee.upserted', v1Data, { source: 'academic' }), version: 1 };
    const parsed = parseEnvelope(JSON.stringify(envelope));
    expect(parsed.ok).toBe(true);
    if (parsed.ok && parsed.envelope.type === 'employee.upserted') {
      expect(parsed.envelope.data.taxIdDigest).toBeUndefined();
      expect(parsed.envelope.data.payrollCode).toBeUndefined();
    }
  });

  test('a digest of another shape, or a tax id in a version 3 or 1, is invalid data (parked, not retried), and the producer cannot write one', () => {
    const envelope = createEnvelope('employee.upserted', v1Data, { source: 'academic' });
    expect(parseEnvelope(JSON.stringify({ ...envelope, data: { ...v1Data, taxIdDigest: '12345678Z', payrollCode: null } }))).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parseEnvelope(JSON.stringify({ ...envelope, data: { ...v1Data, taxId: '12345678Z', taxIdDigest: digest, payrollCode: null } }))).toMatchObject({ ok: false, reason: 'invalid', error: expect.stringContaining('taxId') });
    expect(parseEnvelope(JSON.stringify({ ...envelope, version: 1, data: { ...v1Data, taxId: null } }))).toMatchObject({ ok: false, reason: 'invalid' });
    expect(() => createEnvelope('employee.upserted', { ...v1Data, taxId: '12345678Z', taxIdDigest: digest, payrollCode: null }, { source: 'academic' })).toThrow('taxId');
  });
});

describe('taxIdDigest', () => {
  test('is the HMAC-SHA256 of the normalized id: the same for the id however written, another under another key', () => {
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(taxIdDigest(' 12.345.678-z', DEV_TAX_ID_DIGEST_KEY)).toBe(digest);
    expect(taxIdDigest('12345678Z', 'another-key-of-at-least-thirty-two-chars')).not.toBe(digest);
    expect(taxIdDigest('X1234567L', DEV_TAX_ID_DIGEST_KEY)).not.toBe(digest);
  });
});
