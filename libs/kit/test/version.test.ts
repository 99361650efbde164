import { execFileSync } from 'node:child_process';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { buildInfo, createHttpApp, createLogger, createMetrics } from '../src/index.ts';

const app = (name?: string) => createHttpApp({ app: name, logger: createLogger('kit-version-test', 'silent'), metrics: createMetrics('kit-version-test'), readiness: [], routes: () => {} });

describe('/version', () => {
  test('answers the app, its release and the commit it runs', async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const res = await request(app('academic')).get('/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ app: 'academic', version: expect.stringMatching(/^\d+\.\d+\.\d+/), commit: head });
  });

  test('an image says what its build set (APP_VERSION, APP_COMMIT), whatever the checkout holds', () => {
    expect(buildInfo('payslips', { APP_VERSION: '1.4.2', APP_COMMIT: 'abc1234' })).toEqual({ app: 'payslips', version: '1.4.2', commit: 'abc1234' });
  });

  test('an app that does not name itself has no /version', async () => {
    expect((await request(app()).get('/version')).status).toBe(404);
  });
});
