// Spans encoded to OTLP protobuf as they end, batched as bytes (bench:tracing, eighth pass).
//
// The SDK's batch processor keeps each ended span (the span object, its context, attributes, times,
// status, its metrics closure: a dozen objects) until its batch leaves, up to 250 ms later; the OTLP
// exporter then walks the batch twice (a size estimate, then the writer) and copies the trace and span
// ids into new arrays on the way. Here a span is written once, when it ends, into its batch's buffer
// (one growing buffer per instrumentation scope): the span object is garbage as soon as `end()`
// returns, and what waits for the export is bytes. The request is assembled from those buffers and
// the resource and scope, each encoded once, and sent by the OTLP/HTTP protobuf exporter of the
// SDK (its transport, endpoint, headers, timeout and compression variables as they are).
//
// The bytes are those `@opentelemetry/otlp-transformer`'s serializer writes for the same spans
// (test/encoding.test.ts compares them); http/json exports keep the SDK's batch processor.
import { context, diag, ROOT_CONTEXT, TraceFlags, type Attributes, type AttributeValue } from '@opentelemetry/api';
import { suppressTracing, type ExportResult, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';

/** Node's Buffer has `latin1Write` (what `write(…, 'latin1')` ends in, without its encoding switch); its types do not say so. */
type LatinBuffer = Buffer & { latin1Write(value: string, offset: number, length: number): number };

/** A growing byte buffer with protobuf's wire primitives: the subset OTLP traces use. */
export class ProtoWriter {
  buf: Buffer;
  pos = 0;

  constructor(size = 4096) {
    this.buf = Buffer.allocUnsafe(size);
  }

  ensure(more: number): void {
    const needed = this.pos + more;
    if (needed <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < needed) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  varint(value: number): void {
    this.ensure(10);
    const buf = this.buf;
    if (value >= 0 && value <= 0xffffffff) {
      let v = value >>> 0;
      while (v > 127) {
        buf[this.pos++] = (v & 127) | 128;
        v >>>= 7;
      }
      buf[this.pos++] = v;
      return;
    }
    // 64-bit (negative as two's complement), as the SDK's writer does.
    let low: number;
    let high: number;
    if (value >= 0) {
      low = value >>> 0;
      high = (value / 4294967296) >>> 0;
    } else {
      const abs = Math.abs(value);
      low = ~(abs >>> 0) >>> 0;
      high = ~((abs / 4294967296) >>> 0) >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 127) {
      buf[this.pos++] = (low & 127) | 128;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buf[this.pos++] = low & 127;
  }

  tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  fixed64(low: number, high: number): void {
    this.ensure(8);
    this.buf.writeUInt32LE(low >>> 0, this.pos);
    this.buf.writeUInt32LE(high >>> 0, this.pos + 4);
    this.pos += 8;
  }

  double(value: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /**
   * A string as UTF-8. Its byte length first (native); when it equals the string's length the string
   * is ASCII and is copied by `latin1Write` (one native copy), else written as UTF-8. Measured on the
   * pipeline's strings (keys, ids, names, SQL): 50-70 ns a string, against 140-185 ns for a loop of
   * `charCodeAt` (the SDK writer's way, which also walks the string once more to test for ASCII).
   */
  string(value: string): void {
    const bytes = Buffer.byteLength(value, 'utf8');
    this.varint(bytes);
    this.ensure(bytes);
    this.pos += bytes === value.length ? (this.buf as LatinBuffer).latin1Write(value, this.pos, bytes) : this.buf.write(value, this.pos, bytes, 'utf8');
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** A trace or span id (lowercase hex) as its bytes. */
  hexId(id: string): void {
    const length = id.length >>> 1;
    this.varint(length);
    this.ensure(length);
    this.pos += this.buf.write(id, this.pos, length, 'hex');
  }

  /** Starts a length-delimited field's body (its length written by `end`); returns where it starts. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Writes the length of the body begun at `at`, moving the body when the length takes more than one byte. */
  end(at: number): void {
    const length = this.pos - at - 1;
    if (length < 128) {
      this.buf[at] = length;
      return;
    }
    let size = 1;
    for (let v = length >>> 7; v > 0; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buf.copy(this.buf, at + size, at + 1, this.pos);
    this.pos += size - 1;
    let v = length;
    let i = at;
    while (v > 127) {
      this.buf[i++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[i] = v;
  }
}

const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;

function anyValue(w: ProtoWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.tag(1, 2);
      w.string(value);
      return;
    case 'boolean':
      w.tag(2, 0);
      w.varint(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= MIN_INT64 && value < MAX_INT64) {
        w.tag(3, 0);
        w.varint(value);
      } else {
        w.tag(4, 1);
        w.double(value);
      }
      return;
    case 'object':
      break;
    default:
      return;
  }
  if (value === null) return;
  if (value instanceof Uint8Array) {
    w.tag(7, 2);
    w.bytes(value);
  } else if (Array.isArray(value)) {
    w.tag(5, 2);
    const array = w.begin();
    for (const item of value) {
      w.tag(1, 2);
      const at = w.begin();
      anyValue(w, item);
      w.end(at);
    }
    w.end(array);
  } else {
    w.tag(6, 2);
    const list = w.begin();
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      w.tag(1, 2);
      const kv = w.begin();
      w.tag(1, 2);
      w.string(key);
      w.tag(2, 2);
      const at = w.begin();
      anyValue(w, (value as Record<string, unknown>)[key]);
      w.end(at);
      w.end(kv);
    }
    w.end(list);
  }
}

function attributes(w: ProtoWriter, attrs: Attributes | undefined, field: number): void {
  if (!attrs) return;
  for (const key in attrs) {
    if (!Object.prototype.hasOwnProperty.call(attrs, key)) continue;
    w.tag(field, 2);
    const kv = w.begin();
    w.tag(1, 2);
    w.string(key);
    w.tag(2, 2);
    const at = w.begin();
    anyValue(w, attrs[key] as AttributeValue);
    w.end(at);
    w.end(kv);
  }
}

/** An `HrTime` ([seconds, nanoseconds]) as the fixed64 of nanoseconds, exactly as the SDK's serializer splits it. */
function hrTime(w: ProtoWriter, time: [number, number]): void {
  const seconds = time[0];
  const nanos = time[1];
  const lower16 = (seconds & 65535) * 1e9;
  const upper = ((seconds / 65536) >>> 0) * 1e9;
  const lowerLow = lower16 >>> 0;
  const lowerHigh = Math.floor(lower16 / 4294967296);
  const upperLow = (((upper & 65535) * 65536) >>> 0);
  const upperHigh = (upper / 65536) >>> 0;
  const low = lowerLow + upperLow + nanos;
  w.fixed64(low >>> 0, (lowerHigh + upperHigh + Math.floor(low / 4294967296)) >>> 0);
}

const flagsOf = (traceFlags: number, isRemote: boolean | undefined) => (traceFlags & 255) | 256 | (isRemote ? 512 : 0);

/** One `Span` message (ScopeSpans field 2, tag included), as the SDK's serializer writes it. */
export function writeSpan(w: ProtoWriter, span: ReadableSpan): void {
  w.tag(2, 2);
  const at = w.begin();
  const spanContext = span.spanContext();
  w.tag(1, 2);
  w.hexId(spanContext.traceId);
  w.tag(2, 2);
  w.hexId(spanContext.spanId);
  const traceState = spanContext.traceState?.serialize();
  if (traceState) {
    w.tag(3, 2);
    w.string(traceState);
  }
  const parent = span.parentSpanContext;
  if (parent?.spanId) {
    w.tag(4, 2);
    w.hexId(parent.spanId);
  }
  w.tag(5, 2);
  w.string(span.name);
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) {
    w.tag(6, 0);
    w.varint(kind);
  }
  w.tag(7, 1);
  hrTime(w, span.startTime);
  w.tag(8, 1);
  hrTime(w, span.endTime);
  attributes(w, span.attributes, 9);
  w.tag(10, 0);
  w.varint(span.droppedAttributesCount);
  for (const event of span.events) {
    w.tag(11, 2);
    const e = w.begin();
    w.tag(1, 1);
    hrTime(w, event.time);
    w.tag(2, 2);
    w.string(event.name);
    attributes(w, event.attributes, 3);
    w.tag(4, 0);
    w.varint(event.droppedAttributesCount || 0);
    w.end(e);
  }
  w.tag(12, 0);
  w.varint(span.droppedEventsCount);
  for (const link of span.links) {
    w.tag(13, 2);
    const l = w.begin();
    w.tag(1, 2);
    w.hexId(link.context.traceId);
    w.tag(2, 2);
    w.hexId(link.context.spanId);
    const linkState = link.context.traceState?.serialize();
    if (linkState) {
      w.tag(3, 2);
      w.string(linkState);
    }
    attributes(w, link.attributes, 4);
    w.tag(5, 0);
    w.varint(link.droppedAttributesCount || 0);
    w.tag(6, 5);
    w.fixed32(flagsOf(link.context.traceFlags, link.context.isRemote));
    w.end(l);
  }
  w.tag(14, 0);
  w.varint(span.droppedLinksCount);
  w.tag(15, 2);
  const status = w.begin();
  if (span.status.message) {
    w.tag(2, 2);
    w.string(span.status.message);
  }
  w.tag(3, 0);
  w.varint(span.status.code);
  w.end(status);
  w.tag(16, 5);
  w.fixed32(flagsOf(spanContext.traceFlags, parent?.isRemote));
  w.end(at);
}

/** A `Resource` message as field `field` (tag included). */
function writeResource(w: ProtoWriter, resource: Resource, field: number): void {
  w.tag(field, 2);
  const at = w.begin();
  attributes(w, resource.attributes, 1);
  w.tag(2, 0);
  w.varint(0);
  w.end(at);
}

/** An `InstrumentationScope` message as field `field` (tag included). */
function writeScope(w: ProtoWriter, scope: InstrumentationScope & { attributes?: Attributes; droppedAttributesCount?: number }, field: number): void {
  w.tag(field, 2);
  const at = w.begin();
  w.tag(1, 2);
  w.string(scope.name);
  if (scope.version) {
    w.tag(2, 2);
    w.string(scope.version);
  }
  attributes(w, scope.attributes, 3);
  if (scope.droppedAttributesCount) {
    w.tag(4, 0);
    w.varint(scope.droppedAttributesCount);
  }
  w.end(at);
}

/** Spans already written, grouped by resource and scope (in the order they first ended), and how many. */
export class EncodedBatch {
  readonly groups = new Map<Resource, Map<InstrumentationScope, ProtoWriter>>();
  count = 0;
  /** Writers of batches already sent, emptied, for the next (their buffers grown once, not per batch). */
  private readonly spare: ProtoWriter[];

  constructor(spare: ProtoWriter[] = []) {
    this.spare = spare;
  }

  add(span: ReadableSpan): void {
    let scopes = this.groups.get(span.resource);
    if (!scopes) this.groups.set(span.resource, (scopes = new Map()));
    let writer = scopes.get(span.instrumentationScope);
    if (!writer) {
      writer = this.spare.pop() ?? new ProtoWriter(16_384);
      writer.pos = 0;
      scopes.set(span.instrumentationScope, writer);
    }
    writeSpan(writer, span);
    this.count++;
  }

  /** The `ExportTraceServiceRequest`: what the SDK's serializer writes for the same spans. */
  request(): Uint8Array {
    const w = new ProtoWriter(Math.max(256, [...this.groups.values()].reduce((sum, scopes) => sum + [...scopes.values()].reduce((bytes, writer) => bytes + writer.pos + 128, 256), 0)));
    for (const [resource, scopes] of this.groups) {
      w.tag(1, 2);
      const resourceSpans = w.begin();
      writeResource(w, resource, 1);
      for (const [scope, spans] of scopes) {
        w.tag(2, 2);
        const scopeSpans = w.begin();
        writeScope(w, scope, 1);
        w.ensure(spans.pos);
        spans.buf.copy(w.buf, w.pos, 0, spans.pos);
        w.pos += spans.pos;
        if (scope.schemaUrl) {
          w.tag(3, 2);
          w.string(scope.schemaUrl);
        }
        w.end(scopeSpans);
      }
      if (resource.schemaUrl) {
        w.tag(3, 2);
        w.string(resource.schemaUrl);
      }
      w.end(resourceSpans);
    }
    return w.buf.subarray(0, w.pos);
  }

  /** Gives the batch's writers back to the spares (after `request()`: the request is a copy). */
  release(): void {
    for (const scopes of this.groups.values()) for (const writer of scopes.values()) if (this.spare.length < 16) this.spare.push(writer);
    this.groups.clear();
  }
}

/** What carries a batch's bytes to the collector: an `export(items, done)` whose items are the request (`length`: its spans). */
export interface EncodedExporter {
  export(items: { length: number; body: Uint8Array }, done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}

export interface EncodingOptions {
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
}

/**
 * The batch processor, on bytes: each recorded span is written into the open batch as it ends; the batch
 * leaves when it holds `maxExportBatchSize` spans or `scheduledDelayMillis` after its first span, one
 * export at a time, each bounded by `exportTimeoutMillis`. Spans waiting (in batches not yet sent, the
 * open one included) never exceed `maxQueueSize`: beyond it a span is dropped (said once, throttled by
 * the diag logger), as with the SDK's processor.
 */
export class EncodingSpanProcessor implements SpanProcessor {
  private readonly spare: ProtoWriter[] = [];
  private open = new EncodedBatch(this.spare);
  private readonly sealed: EncodedBatch[] = [];
  private waiting = 0;
  private sending = false;
  private timer: NodeJS.Timeout | undefined;
  private idle: (() => void)[] = [];
  private droppedSinceWarning = 0;
  private stopped = false;

  private readonly exporter: EncodedExporter;
  private readonly options: EncodingOptions;

  constructor(exporter: EncodedExporter, options: EncodingOptions) {
    this.exporter = exporter;
    this.options = options;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.waiting >= this.options.maxQueueSize) {
      if (this.droppedSinceWarning++ === 0) diag.warn('telemetry: span queue full (OTEL_BSP_MAX_QUEUE_SIZE), dropping spans');
      return;
    }
    this.open.add(span);
    this.waiting++;
    if (this.open.count >= this.options.maxExportBatchSize) this.seal();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.seal(), this.options.scheduledDelayMillis);
      this.timer.unref();
    }
  }

  /** Closes the open batch (if it has spans) and sends what is sealed. */
  private seal(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.open.count > 0) {
      this.sealed.push(this.open);
      this.open = new EncodedBatch(this.spare);
    }
    this.sendNext();
  }

  private sendNext(): void {
    if (this.sending) return;
    const batch = this.sealed.shift();
    if (!batch) {
      for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    this.sending = true;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timeout);
      this.waiting -= batch.count;
      this.sending = false;
      this.droppedSinceWarning = 0;
      this.sendNext();
    };
    const timeout = setTimeout(finish, this.options.exportTimeoutMillis);
    timeout.unref();
    const body = batch.request();
    batch.release();
    // The export's own HTTP request is not traced (as the SDK's processor does it).
    context.with(suppressTracing(ROOT_CONTEXT), () => {
      try {
        // A failure is said by the exporter (DroppingExporter: once a minute, with the count lost).
        this.exporter.export({ length: batch.count, body }, finish);
      } catch {
        finish();
      }
    });
  }

  /** Sends what is queued, open batch included; resolves when nothing is left to send. */
  forceFlush(): Promise<void> {
    const done = new Promise<void>((resolve) => this.idle.push(resolve));
    this.seal();
    return done;
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.exporter.shutdown();
  }
}

/**
 * The SDK's OTLP/HTTP protobuf exporter made to send bytes already encoded (`{ length, body }`): its
 * serializer is replaced by one that passes the body through; the transport (endpoint, headers,
 * timeout, compression, from the OTEL_EXPORTER_OTLP_* variables) and the response's reading stay its own.
 */
export function sendingEncoded<T extends object>(exporter: T): T {
  const delegate = (exporter as { _delegate?: { _serializer?: { deserializeResponse(data: Uint8Array): unknown } } })._delegate;
  const serializer = delegate?._serializer;
  if (!delegate || typeof serializer?.deserializeResponse !== 'function') throw new Error('telemetry: the OTLP exporter has no _delegate._serializer to replace (its version changed?)');
  delegate._serializer = { serializeRequest: (items: { body: Uint8Array }) => items.body, deserializeResponse: (data: Uint8Array) => serializer.deserializeResponse(data) } as typeof serializer;
  return exporter;
}
