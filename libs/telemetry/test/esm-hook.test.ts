// ioredis (and express with TRACE_EXPRESS=true), imported by ES modules as the apps import them, are
// patched through the synchronous ES-module hook the preload registers: their instrumentations' spans
// reach the OTLP endpoint. Express is not patched by default; TRACE_ESM_HOOK=false leaves both
// unpatched (the request's http span only).
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { testUrls } from '@academy/testing';

const root = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

/** A minimal OTLP/HTTP JSON endpoint (the apps run with OTEL_EXPORTER_OTLP_PROTOCOL=http/json): the instrumentation scopes of the spans each service sent. */
function otlpEndpoint() {
  const scopes = new Map<string, Set<string>>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { scope: { name: string } }[] }[] };
      for (const resourceSpans of request.resourceSpans) {
        const service = resourceSpans.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? '';
        for (const { scope } of resourceSpans.scopeSpans) scopes.set(service, (scopes.get(service) ?? new Set()).add(scope.name));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, scopes };
}

describe('the ES-module hook of the tracing preload', () => {
  const { server, scopes } = otlpEndpoint();
  let endpoint: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const runApp = (service: string, env: Record<string, string> = {}) =>
    run(process.execPath, ['--import', path.join(root, 'libs/telemetry/src/register.ts'), path.join(import.meta.dirname, 'fixtures/esm-app.mjs')], {
      cwd: root,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: service, REDIS_URL: testUrls.redis, ...env },
      timeout: 60_000,
    });

  test('ioredis imported by an ES module is traced by its instrumentation; express is not patched by default', async () => {
    await runApp('esm-hooked');
    expect([...(scopes.get('esm-hooked') ?? [])].sort()).toEqual(['@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-ioredis']);
  });

  test('with TRACE_EXPRESS=true express imported by an ES module is traced too', async () => {
    await runApp('esm-express', { TRACE_EXPRESS: 'true' });
    expect([...(scopes.get('esm-express') ?? [])].sort()).toEqual(['@opentelemetry/instrumentation-express', '@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-ioredis']);
  });

  test('with TRACE_ESM_HOOK=false only the http span is recorded', async () => {
    await runApp('esm-unhooked', { TRACE_ESM_HOOK: 'false' });
    expect([...(scopes.get('esm-unhooked') ?? [])]).toEqual(['@opentelemetry/instrumentation-http']);
  });
});
