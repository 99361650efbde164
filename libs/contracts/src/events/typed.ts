import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EventEnvelope } from './envelope.ts';
import { eventSchemas, eventVersions, isEventType, readableOlderVersions, retiredTwinVersions, type EventData, type EventType, type EventVersions } from './catalogue.ts';

/** An envelope whose `type` is a catalogue type and whose `data` has been checked against that type's schema. */
export type TypedEnvelope<T extends EventType = EventType> = { [K in T]: Omit<EventEnvelope, 'type' | 'data'> & { type: K; data: EventData<K> } }[T];

export interface EnvelopeMeta {
  source: string;
  correlationId?: string;
  /** Defaults to a fresh uuid. */
  id?: string;
  occurredAt?: Date;
  /** An older version the schema still reads, stamped on a twin recorded beside the current one (`alsoPublishes`); defaults to the current version. */
  version?: number;
}

/** The publishing side: validates `data` against its type's schema (throws a ZodError) and wraps it. */
export function createEnvelope<T extends EventType>(type: T, data: EventData<T>, meta: EnvelopeMeta): TypedEnvelope<T> {
  const version = meta.version ?? eventVersions[type];
  if (version !== eventVersions[type] && !readableOlderVersions[type]?.includes(version)) throw new RangeError(`version ${version} of "${type}" is neither its current one nor one its schema still reads`);
  const envelope = {
    id: meta.id ?? randomUUID(),
    type,
    version,
    occurredAt: (meta.occurredAt ?? new Date()).toISOString(),
    source: meta.source,
    correlationId: meta.correlationId ?? randomUUID(),
    data: eventSchemas[type].parse(data) as EventData<T>,
  };
  return envelope as TypedEnvelope<T>;
}

/** A failure says why in `error`; `reason` is its kind, for metrics. */
export type ParsedEnvelope =
  | { ok: true; envelope: TypedEnvelope }
  | { ok: false; reason: 'invalid' | 'unsupported_version'; error: string; eventId?: string; type?: string }
  /** A twin of a retired version (`retiredTwinVersions`): the reader drops it, its data unread. */
  | { ok: false; reason: 'retired_twin'; error: string; eventId: string; type: EventType };

/**
 * The subscribing side: parses raw bytes or a decoded object into a typed envelope. Never throws;
 * a failure says why (no retry can fix it, so the consumer parks it in the DLQ at once). A type's
 * envelope must carry one of the versions the reader knows: `versions[type]` where given, else the
 * catalogue's current version of that type and the older ones its schema still reads.
 */
export function parseEnvelope(raw: Buffer | string | unknown, versions: EventVersions = {}): ParsedEnvelope {
  let value: unknown = raw;
  if (Buffer.isBuffer(raw) || typeof raw === 'string') {
    try {
      value = JSON.parse(raw.toString());
    } catch {
      return { ok: false, reason: 'invalid', error: 'body is not JSON' };
    }
  }
  const envelope = EventEnvelope.safeParse(value);
  if (!envelope.success) return { ok: false, reason: 'invalid', error: `invalid envelope: ${z.prettifyError(envelope.error)}` };
  const { id, type } = envelope.data;
  if (!isEventType(type)) return { ok: false, reason: 'invalid', error: `unknown event type "${type}"`, eventId: id, type };
  const known = versions[type] ?? [eventVersions[type], ...(readableOlderVersions[type] ?? [])];
  if (!known.includes(envelope.data.version) && retiredTwinVersions[type]?.includes(envelope.data.version)) {
    return { ok: false, reason: 'retired_twin', error: `version ${envelope.data.version} of "${type}" is a retired twin of the current version, dropped`, eventId: id, type };
  }
  if (!known.includes(envelope.data.version)) {
    return { ok: false, reason: 'unsupported_version', error: `unsupported version ${envelope.data.version} of "${type}" (this consumer reads version${known.length > 1 ? 's' : ''} ${known.join(', ')})`, eventId: id, type };
  }
  const data = eventSchemas[type].safeParse(envelope.data.data);
  if (!data.success) return { ok: false, reason: 'invalid', error: `invalid data of "${type}": ${z.prettifyError(data.error)}`, eventId: id, type };
  return { ok: true, envelope: { ...envelope.data, type, data: data.data } as TypedEnvelope };
}

/** Handlers keyed by event type, each receiving the envelope of its own type (the typed `subscribe` map). */
export type EnvelopeHandlers<Args extends unknown[] = []> = { [T in EventType]?: (...args: [...Args, TypedEnvelope<T>]) => Promise<void> };

/** Identity helper that keeps each handler's envelope typed by its key. */
export function defineHandlers<Args extends unknown[] = []>(handlers: EnvelopeHandlers<Args>): EnvelopeHandlers<Args> {
  return handlers;
}
