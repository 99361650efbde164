// A small OTLP/HTTP trace receiver for this machine: `npm start` runs it on 127.0.0.1:4318 and points
// every service's OTEL_EXPORTER_OTLP_ENDPOINT at it; the system test starts its own. It takes
// `POST /v1/traces` in either OTLP/HTTP encoding, protobuf (`application/x-protobuf`, the services'
// default: OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf) or JSON (`application/json`), gzipped or not, and
// appends one line per span to a JSON-lines file (.local/dev/traces/spans.jsonl), which
// `npm run trace` reads. `GET /v1/traces/<traceId>` answers a trace's spans (tests read it).
// Not a collector: no gRPC, no retention beyond `maxBytes` (the file starts over past it).
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

/** One span as stored: flat, ids in hex, times in ms since the epoch (fractional). */
export interface StoredSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  service: string;
  startMs: number;
  endMs: number;
  status: { code: number; message?: string };
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  events: { name: string; attributes: Record<string, string | number | boolean> }[];
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number; message?: string };
  links?: { traceId: string; spanId: string }[];
  events?: { name: string; attributes?: OtlpKeyValue[] }[];
}
export interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const valueOf = (value: OtlpValue): string | number | boolean =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? value.boolValue ?? '';
const attributesOf = (list: OtlpKeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, valueOf(kv.value ?? {})]));
/** OTLP's JSON carries ids as hex (the JS exporter) or base64 (the spec's protobuf-JSON mapping): hex either way here. */
const hexId = (id: string | undefined, bytes: number): string => (!id ? '' : new RegExp(`^[0-9a-f]{${bytes * 2}}$`, 'i').test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex'));
const ms = (nanos: string | number) => Number(BigInt(nanos) / 1000n) / 1000;

/** The spans of one OTLP/JSON export request, flattened. */
export function spansOf(body: OtlpRequest): StoredSpan[] {
  return (body.resourceSpans ?? []).flatMap((rs) => {
    const resource = attributesOf(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((span) => ({
        traceId: hexId(span.traceId, 16),
        spanId: hexId(span.spanId, 8),
        parentSpanId: hexId(span.parentSpanId, 8) || null,
        name: span.name,
        kind: span.kind,
        service: String(resource['service.name'] ?? '?'),
        startMs: ms(span.startTimeUnixNano),
        endMs: ms(span.endTimeUnixNano),
        status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
        attributes: attributesOf(span.attributes),
        links: (span.links ?? []).map((link) => ({ traceId: hexId(link.traceId, 16), spanId: hexId(link.spanId, 8) })),
        events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
      })),
    );
  });
}

/** OTLP's `ExportTraceServiceRequest` (the official definitions' fields this receiver reads: otlp-trace.proto). */
const ExportTraceServiceRequest = protobuf.loadSync(path.join(import.meta.dirname, 'otlp-trace.proto')).lookupType('opentelemetry.proto.ExportTraceServiceRequest');

/**
 * A protobuf export request as its JSON encoding (ids in base64, as the protobuf-JSON mapping has them;
 * 64-bit numbers as strings), which `spansOf` reads. Throws on bytes that are not such a request.
 */
export function decodeProtobufRequest(body: Uint8Array): OtlpRequest {
  return ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), { longs: String, bytes: String }) as OtlpRequest;
}

/** Every stored span (a line that does not parse, a half-written last one, is skipped). */
export function readSpans(file: string): StoredSpan[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line ? [JSON.parse(line) as StoredSpan] : [];
      } catch {
        return [];
      }
    });
}

export interface OtlpReceiver {
  server: Server;
  url: string;
  file: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function startOtlpReceiver(options: { file: string; port?: number; host?: string; maxBytes?: number }): Promise<OtlpReceiver> {
  const { file, port = 4318, host = '127.0.0.1', maxBytes = 256 * 1024 * 1024 } = options;
  mkdirSync(path.dirname(file), { recursive: true });
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const traceMatch = /^\/v1\/traces\/([0-9a-f]{32})$/.exec(req.url ?? '');
    if (req.method === 'GET' && traceMatch) return answer(200, readSpans(file).filter((span) => span.traceId === traceMatch[1]));
    if (req.method !== 'POST' || req.url !== '/v1/traces') return answer(404, { error: 'POST /v1/traces or GET /v1/traces/<traceId>' });
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const isProtobuf = type === 'application/x-protobuf' || type === 'application/protobuf';
    if (!isProtobuf && type !== 'application/json') return answer(415, { error: 'OTLP/HTTP: application/x-protobuf or application/json' });
    const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity' && encoding !== 'gzip') return answer(415, { error: 'content-encoding: gzip or none' });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      let spans: StoredSpan[];
      try {
        const raw = Buffer.concat(chunks);
        const body = encoding === 'gzip' ? gunzipSync(raw, { maxOutputLength: MAX_BODY_BYTES }) : raw;
        spans = spansOf(isProtobuf ? decodeProtobufRequest(body) : (JSON.parse(body.toString('utf8')) as OtlpRequest));
      } catch {
        return answer(400, { error: `not an OTLP ${isProtobuf ? 'protobuf' : 'JSON'} export request` });
      }
      if (existsSync(file) && statSync(file).size > maxBytes) renameSync(file, `${file}.1`);
      if (spans.length) appendFileSync(file, spans.map((span) => JSON.stringify(span)).join('\n') + '\n');
      // An empty ExportTraceServiceResponse, in the request's encoding (empty bytes in protobuf).
      if (isProtobuf) return res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      answer(200, {});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    file,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// `node tools/dev/otlp-receiver.ts [port] [file]`: the receiver on its own.
if (import.meta.url === `file://${process.argv[1]}`) {
  const receiver = await startOtlpReceiver({ port: Number(process.argv[2] ?? 4318), file: path.resolve(process.argv[3] ?? '.local/dev/traces/spans.jsonl') });
  console.log(`OTLP/HTTP receiver on ${receiver.url}, spans appended to ${receiver.file}`);
}
