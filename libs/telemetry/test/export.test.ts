// What a process started with the tracing preload sends, and how: OTLP/HTTP in protobuf unless
// OTEL_EXPORTER_OTLP_PROTOCOL says http/json; and, with the apps' `--experimental-async-context-frame`
// (AsyncLocalStorage without async hooks), the context manager still carries a span across await,
// timers, setImmediate and bound event emitters, two traces interleaved without mixing.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';

const root = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

type Export = { contentType: string; body: Buffer };
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** An OTLP/HTTP endpoint that keeps each export request as received (answers both encodings' empty response). */
function otlpEndpoint() {
  const exports: Export[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const contentType = String(req.headers['content-type']);
      exports.push({ contentType, body: Buffer.concat(chunks) });
      if (contentType === 'application/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  return { server, exports };
}

describe('the export and the context of a traced process', () => {
  const { server, exports } = otlpEndpoint();
  let endpoint: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Runs the fixture (a unique service name marks its exports); its exports and what it printed. */
  const runApp = async (flags: string[], env: Record<string, string> = {}) => {
    const service = `context-app-${exports.length}-${Date.now()}`;
    const { stdout } = await run(process.execPath, [...flags, '--import', path.join(root, 'libs/telemetry/src/register.ts'), path.join(import.meta.dirname, 'fixtures/context-app.mjs')], {
      cwd: root,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: service, ...env },
      timeout: 60_000,
    });
    const sent = exports.filter((request) => request.body.includes(service));
    return { sent, printed: JSON.parse(stdout.trim().split('\n').pop()!) as { frames: boolean; recorded: boolean } };
  };

  test('spans leave as OTLP/HTTP protobuf by default (the specification default) and as JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json', async () => {
    const byDefault = await runApp([]);
    expect(byDefault.sent.length).toBeGreaterThan(0);
    expect(byDefault.sent.map((request) => request.contentType)).toEqual(byDefault.sent.map(() => 'application/x-protobuf'));
    expect(byDefault.sent.some((request) => request.body.includes('first: in a timer'))).toBe(true);
    expect(() => JSON.parse(byDefault.sent[0]!.body.toString('utf8'))).toThrow();

    const json = await runApp([], { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(json.sent.length).toBeGreaterThan(0);
    expect(json.sent.map((request) => request.contentType)).toEqual(json.sent.map(() => 'application/json'));
    expect(JSON.stringify(JSON.parse(json.sent[0]!.body.toString('utf8')))).toContain('first: in a timer');
  }, 120_000);

  test('with OTEL_TRACES_EXPORTER=none spans are still recorded but nothing is sent', async () => {
    const none = await runApp(['--experimental-async-context-frame'], { OTEL_TRACES_EXPORTER: 'none' });
    expect(none.printed).toEqual({ frames: true, recorded: true });
    expect(none.sent).toEqual([]);
  }, 120_000);

  test('with --experimental-async-context-frame each span is the child of its own trace across await, timers, setImmediate and a bound emitter', async () => {
    const { sent, printed } = await runApp(['--experimental-async-context-frame'], { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(printed.frames).toBe(true);
    const spans = sent.flatMap((request) => (JSON.parse(request.body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: JsonSpan[] }[] }[] }).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    for (const rootName of ['first', 'second']) {
      const rootSpan = spans.find((span) => span.name === rootName)!;
      expect(rootSpan).toBeDefined();
      const children = spans.filter((span) => span.name.startsWith(`${rootName}: `));
      expect(children.map((span) => span.name).sort()).toEqual([`${rootName}: after await`, `${rootName}: in a bound listener`, `${rootName}: in a timer`, `${rootName}: in setImmediate`]);
      for (const span of children) expect({ name: span.name, traceId: span.traceId, parent: span.parentSpanId }).toEqual({ name: span.name, traceId: rootSpan.traceId, parent: rootSpan.spanId });
    }
    expect(spans.find((span) => span.name === 'first')!.traceId).not.toBe(spans.find((span) => span.name === 'second')!.traceId);
  }, 120_000);
});
