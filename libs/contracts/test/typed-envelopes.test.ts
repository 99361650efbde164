import { describe, expect, test } from '@jest/globals';
import { ZodError } from 'zod';
import { EVENT_VERSION, createEnvelope, parseEnvelope } from '../src/index.ts';

describe('typed event envelopes', () => {
  test('createEnvelope validates the data against its type and fills id, version, time and correlation id', () => {
    const envelope = createEnvelope('employee.deleted', { id: 4 }, { source: 'academic', correlationId: 'req-1' });
    expect(envelope).toMatchObject({ type: 'employee.deleted', version: EVENT_VERSION, source: 'academic', correlationId: 'req-1', data: { id: 4 } });
    expect(envelope.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(() => createEnvelope('employee.deleted', { id: 0 }, { source: 'academic' })).toThrow(ZodError);
  });

  test('parseEnvelope returns the typed envelope of valid bytes', () => {
    const envelope = createEnvelope('school-course.deleted', { id: 2, latestSchoolCourseId: null }, { source: 'academic' });
    const parsed = parseEnvelope(Buffer.from(JSON.stringify(envelope)));
    expect(parsed).toEqual({ ok: true, envelope });
  });

  test.each([
    ['not JSON', '{', /not JSON/],
    ['no envelope fields', JSON.stringify({ a: 1 }), /invalid envelope/],
    ['an unknown type', JSON.stringify({ ...createEnvelope('employee.deleted', { id: 1 }, { source: 's' }), type: 'employee.exploded' }), /unknown event type "employee.exploded"/],
    ['another version', JSON.stringify({ ...createEnvelope('employee.deleted', { id: 1 }, { source: 's' }), version: 2 }), /unsupported version 2/],
    ['data failing its schema', JSON.stringify({ ...createEnvelope('employee.deleted', { id: 1 }, { source: 's' }), data: { id: 'x' } }), /invalid data of "employee.deleted"/],
  ])('parseEnvelope rejects %s with the reason, without throwing', (_name, body, reason) => {
    const parsed = parseEnvelope(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(reason);
  });
});
