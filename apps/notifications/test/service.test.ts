import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { startService, type RunningService } from '@academy/service';
import { dropTestDatabase, testConfig } from '@academy/testing';
import { readConfig } from '../src/config.ts';
import { notificationsService } from '../src/service.ts';

describe('notifications service', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService(notificationsService, { ...readConfig(), ...(await testConfig('notifications')) });
    await service.ctx.broker.start();
  });
  afterAll(async () => {
    await service.stop();
    await dropTestDatabase(service.ctx.config.DATABASE_URL);
  });

  test('GET /readyz reports its database and broker', async () => {
    const res = await request(service.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.checks).sort()).toEqual(['broker', 'database']);
  });

  test('the initial migration created the outbox and inbox tables', async () => {
    const rows = await service.ctx.orm.em
      .fork()
      .getConnection()
      .execute<{ table_name: string }[]>("select table_name from information_schema.tables where table_schema = 'public' and table_name in ('outbox', 'inbox') order by table_name");
    expect(rows.map((r) => r.table_name)).toEqual(['inbox', 'outbox']);
  });

  test('a bad environment variable stops the start, naming it', () => {
    const result = spawnSync(process.execPath, ['apps/notifications/src/main.ts'], {
      env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: 'nope' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/PORT is invalid/);
    expect(result.stderr).toMatch(/DATABASE_URL is invalid/);
  });
});
