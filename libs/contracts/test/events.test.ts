import { describe, expect, test } from '@jest/globals';
import { EventEnvelope, eventSchemas, isEventType } from '../src/index.ts';

describe('event contracts', () => {
  const envelope = {
    id: '9b2f7a4e-2c1d-4f3a-9e8b-1a2b3c4d5e6f',
    type: 'employee.upserted',
    version: 1,
    occurredAt: '2026-11-22T10:00:00.000Z',
    source: 'academic',
    correlationId: 'req-1',
    data: { id: 3, userId: null, name: 'Ana Ruiz', email: 'ana@academy.local', active: true },
  };

  test('a well-formed envelope and payload pass', () => {
    const parsed = EventEnvelope.parse(envelope);
    expect(eventSchemas['employee.upserted'].parse(parsed.data)).toEqual(envelope.data);
  });

  test('an envelope without id or with a bad date fails', () => {
    expect(EventEnvelope.safeParse({ ...envelope, id: 'x' }).success).toBe(false);
    expect(EventEnvelope.safeParse({ ...envelope, occurredAt: 'yesterday' }).success).toBe(false);
  });

  test('a payload that breaks its type schema fails', () => {
    expect(eventSchemas['employee.upserted'].safeParse({ ...envelope.data, id: 0 }).success).toBe(false);
  });

  test('isEventType knows the catalogue', () => {
    expect(isEventType('block.approved')).toBe(true);
    expect(isEventType('block.exploded')).toBe(false);
  });
});
