import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { useHoursBank } from './support.ts';

describe('hours-bank health endpoints', () => {
  const service = useHoursBank();

  test('GET /healthz answers ok', async () => {
    const res = await request(service().url).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  test('GET /readyz reports the database and the broker once connected', async () => {
    const res = await request(service().url).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.checks.database.ok).toBe(true);
    expect(res.body.checks.broker.ok).toBe(true);
  });

  test('GET /metrics exposes request counters by route and status', async () => {
    await request(service().url).get('/healthz');
    const res = await request(service().url).get('/metrics');
    expect(res.text).toMatch(/http_requests_total\{[^}]*route="\/healthz"[^}]*status="200"/);
  });

  test('an unknown route is a JSON 404 with a request id', async () => {
    const res = await request(service().url).get('/nope').set('x-request-id', 'abc-123');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'ROUTE_NOT_FOUND', message: 'No route for GET /nope', requestId: 'abc-123' });
  });
});
