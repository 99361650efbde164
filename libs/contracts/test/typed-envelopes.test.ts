import { describe, expect, test } from '@jest/globals';
import { ZodError } from 'zod';
import { createEnvelope, eventSchemas, eventVersions, parseEnvelope } from '../src/index.ts';

describe('typed event envelopes', () => {
  test('createEnvelope validates the data against its type and fills id, version, time and correlation id', () => {
    const envelope = createEnvelope('employee.deleted', { id: 4 }, { source: 'academic', correlationId: 'req-1' });
    expect(envelope).toMatchObject({ type: 'employee.deleted', version: eventVersions['employee.deleted'], source: 'academic', correlationId: 'req-1', data: { id: 4 } });
    expect(envelope.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(() => createEnvelope('employee.deleted', { id: 0 }, { source: 'academic' })).toThrow(ZodError);
  });

  test('parseEnvelope returns the typed envelope of valid bytes', () => {
    const envelope = createEnvelope('school-course.deleted', { id: 2 }, { source: 'academic' });
    const parsed = parseEnvelope(Buffer.from(JSON.stringify(envelope)));
    expect(parsed).toEqual({ ok: true, envelope });
  });

  test.each([
    ['not JSON', '{', /not JSON/],
    ['no envelope fields', JSON.stringify({ a: 1 }), /invalid envelope/],
    ['an unknown type', JSON.stringify({ ...createEnvelope('employee.deleted', { id: 1 }, { source: 's' }), type: 'employee.exploded' }), /unknown event type "employee.exploded"/],
    ['another version', JSON.stringify({ ...createEnvelope('employee.deleted', { id: 1 }, { source: 's' }), version: 2 }), /unsupported version 2 of "employee.deleted" \(this consumer reads version 1\)/],
    ['data failing its schema', JSON.stringify({ ...createEnvelope('employee.deleted', { id: 1 }, { source: 's' }), data: { id: 'x' } }), /invalid data of "employee.deleted"/],
  ])('parseEnvelope rejects %s with the reason, without throwing', (_name, body, reason) => {
    const parsed = parseEnvelope(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(reason);
  });

  test('every event type has its own version, stamped by createEnvelope', () => {
    expect(Object.keys(eventVersions).sort()).toEqual(Object.keys(eventSchemas).sort());
    for (const version of Object.values(eventVersions)) expect(Number.isInteger(version) && version > 0).toBe(true);
    const envelope = createEnvelope('hours-bank.transaction.reverted', { transactionId: 1, reversalTransactionId: 2, hoursBankId: 3, employeeId: 4, schoolCourseId: 5, type: 'PENDING', minutes: 60, cause: 'deleted', byUserId: null }, { source: 'hours-bank' });
    expect(envelope.version).toBe(eventVersions['hours-bank.transaction.reverted']);
  });

  test('a reader that declares the versions it knows of a type accepts those and refuses the rest, naming them', () => {
    const current = createEnvelope('employee.deleted', { id: 1 }, { source: 's' });
    const older = { ...current, version: 7 };
    const reader = { 'employee.deleted': [7, eventVersions['employee.deleted']] };
    expect(parseEnvelope(JSON.stringify(older), reader)).toEqual({ ok: true, envelope: older });
    expect(parseEnvelope(JSON.stringify(current), reader)).toEqual({ ok: true, envelope: current });
    expect(parseEnvelope(JSON.stringify({ ...current, version: 8 }), reader)).toEqual({
      ok: false,
      reason: 'unsupported_version',
      error: 'unsupported version 8 of "employee.deleted" (this consumer reads versions 7, 1)',
      eventId: current.id,
      type: 'employee.deleted',
    });
    // other types keep their current version
    const upserted = createEnvelope('employee.upserted', { id: 1, userId: null, name: 'A', email: null, active: true }, { source: 's' });
    expect(parseEnvelope(JSON.stringify({ ...upserted, version: 7 }), reader)).toMatchObject({ ok: false, reason: 'unsupported_version' });
  });

  test('an older version that the current schema still reads is accepted by default: a school course of version 1, its extra field dropped', () => {
    const current = createEnvelope('school-course.created', { id: 3, name: '2025-2026', startDate: '2025-09-01', endDate: '2026-06-30' }, { source: 'academic' });
    expect(current.version).toBe(2);
    const versionOne = { ...current, version: 1, data: { ...current.data, latestSchoolCourseId: 3 } };
    expect(parseEnvelope(JSON.stringify(versionOne))).toEqual({ ok: true, envelope: { ...versionOne, data: current.data } });
    expect(parseEnvelope(JSON.stringify({ ...current, version: 3 }))).toMatchObject({ ok: false, error: 'unsupported version 3 of "school-course.created" (this consumer reads versions 2, 1)' });
  });

  test('loose fields are tightened: an empty name, or a course ending before it starts, is refused at the producer', () => {
    expect(() => createEnvelope('employee.upserted', { id: 1, userId: null, name: '', email: null, active: true }, { source: 'academic' })).toThrow(ZodError);
    expect(() => createEnvelope('school-course.created', { id: 1, name: 'x', startDate: '2026-09-01', endDate: '2026-06-30' }, { source: 'academic' })).toThrow(/endDate must not be before startDate/);
  });
});
