import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import request from 'supertest';
import { startService, type RunningService } from '@academy/service';
import { createTestDatabase, dropTestDatabase, testConfig, testUrls } from '@academy/testing';
import { readConfig } from '../src/config.ts';
import { incidentsService } from '../src/service.ts';

describe('incidents service', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(incidentsService, { ...readConfig(), ...(await testConfig('incidents')) });
    await service.ctx.broker.start();
  });
  afterAll(async () => {
    await service.stop();
    await dropTestDatabase(service.ctx.config.DATABASE_URL);
  });

  test('GET /readyz reports its database, broker and cache', async () => {
    const res = await request(service.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.checks).sort()).toEqual(['broker', 'cache', 'database']);
  });

  test('the initial migration created the outbox and inbox tables', async () => {
    const rows = await service.ctx.orm.em
      .fork()
      .getConnection()
      .execute<{ table_name: string }[]>("select table_name from information_schema.tables where table_schema = 'public' and table_name in ('outbox', 'inbox') order by table_name");
    expect(rows.map((r) => r.table_name)).toEqual(['inbox', 'outbox']);
  });

  test('a bad environment variable stops the start, naming it', () => {
    const result = spawnSync(process.execPath, ['apps/incidents/src/main.ts'], {
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: 'nope' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/PORT is invalid/);
    expect(result.stderr).toMatch(/DATABASE_URL is invalid/);
  });

  test('SIGTERM stops a running process cleanly (exit 0) after it logged "stopped"', async () => {
    const database = await createTestDatabase('incidents_sigterm');
    const child = spawn(process.execPath, ['apps/incidents/src/main.ts'], {
      env: { ...process.env, PORT: '0', DATABASE_URL: database, RABBITMQ_URL: testUrls.rabbitmq, REDIS_URL: testUrls.redis, JWT_KEYS_DIR: service.ctx.config.JWT_KEYS_DIR, JWT_KEY_IDS: 'test-1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 20_000;
    while (!output.includes('incidents listening') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain('incidents listening');
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('"msg":"stopped"');
    await dropTestDatabase(database);
  });
});
