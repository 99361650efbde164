import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { deadUrl, gatewayConfig } from './helpers.ts';

describe('the console served by the gateway at /', () => {
  let gateway: RunningGateway;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'console-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/index-Abc123.js"></script>');
    writeFileSync(path.join(dir, 'assets', 'index-Abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'assets', 'index-Big456.js'), 'console.log("a line of the bundle");\n'.repeat(200));
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const nowhere = await deadUrl();
    gateway = await startGateway(gatewayConfig({ CONSOLE_DIR: dir, ACADEMIC_URL: nowhere }));
  });
  afterAll(async () => {
    await gateway.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('index.html at / and at any page path of the router, revalidated on every load, with a strict CSP', async () => {
    for (const page of ['/', '/today', '/attendance/12']) {
      const answer = await request(gateway.url).get(page);
      expect([page, answer.status, answer.headers['cache-control']]).toEqual([page, 200, 'no-cache']);
      expect(answer.text).toContain('/assets/index-Abc123.js');
      const csp = answer.headers['content-security-policy'];
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https:|\*/);
    }
  });

  test('hashed assets are cached for a year as immutable and sent gzipped; a missing asset is a 404, not the page', async () => {
    const asset = await request(gateway.url).get('/assets/index-Abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request(gateway.url).get('/assets/index-Gone99.js')).status).toBe(404);
    const big = await request(gateway.url).get('/assets/index-Big456.js').set('accept-encoding', 'gzip');
    expect([big.status, big.headers['content-encoding']]).toEqual([200, 'gzip']);
    const icon = await request(gateway.url).get('/favicon.svg');
    expect([icon.status, icon.headers['cache-control']]).toEqual([200, 'no-cache']);
  });

  test('the API keeps its JSON 404 and is never answered with the page', async () => {
    const unknown = await request(gateway.url).get('/api/v3/nothing');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
    expect((await request(gateway.url).get('/api')).status).toBe(404);
  });

  test("the services' internal paths (a privacy part) are a JSON 404, never the page", async () => {
    for (const internal of ['/internal', '/internal/', '/internal/privacy/parts/0b7e4a4c-5a43-4c55-9d43-6f1f7a0e2a11', '/internal/privacy/parts/0b7e4a4c-5a43-4c55-9d43-6f1f7a0e2a11/entries/0']) {
      const answer = await request(gateway.url).get(internal).set('x-api-key', 'dev-privacy-api-key-change-me');
      expect([internal, answer.status, answer.type, answer.body.code]).toEqual([internal, 404, 'application/json', 'ROUTE_NOT_FOUND']);
    }
  });
});
