import { describe, expect, test } from '@jest/globals';
import { createEnvelope, eventVersions, parseEnvelope } from '../src/index.ts';

const v1Data = { id: 3, userId: null, name: 'Ana Ruiz', email: null, active: true };

describe('employee.upserted versions', () => {
  test('version 2 is stamped and carries taxId and payrollCode', () => {
    const envelope = createEnvelope('employee.upserted', { ...v1Data, taxId: '12345678Z', payrollCode: null }, { source: 'academic' });
    expect(eventVersions['employee.upserted']).toBe(2);
    expect(envelope.version).toBe(2);
    const parsed = parseEnvelope(JSON.stringify(envelope));
    expect(parsed.ok && parsed.envelope.data).toMatchObject({ taxId: '12345678Z', payrollCode: null });
  });

  test('version 1 (without the new fields) is still read, the fields left undefined', () => {
    const envelope = { ...createEnvelope('employee.upserted', v1Data, { source: 'academic' }), version: 1 };
    const parsed = parseEnvelope(JSON.stringify(envelope));
    expect(parsed.ok).toBe(true);
    if (parsed.ok && parsed.envelope.type === 'employee.upserted') {
      expect(parsed.envelope.data.taxId).toBeUndefined();
      expect(parsed.envelope.data.payrollCode).toBeUndefined();
    }
  });

  test('a tax id with a wrong control letter is invalid data (parked, not retried)', () => {
    const envelope = createEnvelope('employee.upserted', v1Data, { source: 'academic' });
    const parsed = parseEnvelope(JSON.stringify({ ...envelope, data: { ...v1Data, taxId: '12345678A', payrollCode: null } }));
    expect(parsed).toMatchObject({ ok: false, reason: 'invalid' });
  });
});
