import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { openApiResponseValidator } from '@academy/testing/openapi';
import { seedEmployee, useIncidents } from './support.ts';

// The answers as an outside validator (Prism proxying the gateway) or a generated client reads them:
// checked against the OpenAPI document the gateway serves, not against our own zod schemas.
describe('time-record answers match the OpenAPI document', () => {
  const service = useIncidents();
  const api = () => request(service().url);
  const validator = openApiResponseValidator();
  const departures = (method: string, path: string, answer: { status: number; body: unknown }) => validator.departures(method, path, answer);

  test('GET /api/v2/timerecord/open without an open record (record: null) is an answer the document allows', async () => {
    const { auth } = await seedEmployee(service());
    const open = await api().get('/api/v2/timerecord/open').set(auth);
    expect(open.body).toEqual({ hasOpenRecord: false, record: null });
    expect(departures('get', '/api/v2/timerecord/open', open)).toEqual([]);
  });

  test('GET /api/v2/timerecord/open with an open record, and the clock-in and clock-out that open and close it, match the document', async () => {
    const { auth } = await seedEmployee(service());
    const clockIn = await api().post('/api/v2/timerecord/clock-in').set(auth).send({ source: 'App', deviceId: 'phone-1' });
    expect(clockIn.status).toBe(201);
    expect(departures('post', '/api/v2/timerecord/clock-in', clockIn)).toEqual([]);

    const open = await api().get('/api/v2/timerecord/open').set(auth);
    expect(open.body).toMatchObject({ hasOpenRecord: true, record: { id: clockIn.body.data.id, clockOutAt: null } });
    expect(departures('get', '/api/v2/timerecord/open', open)).toEqual([]);

    const clockOut = await api().post('/api/v2/timerecord/clock-out').set(auth).send({ source: 'Web' });
    expect(clockOut.status).toBe(200);
    expect(departures('post', '/api/v2/timerecord/clock-out', clockOut)).toEqual([]);
  });

  test('the validator is not lenient: a record that is neither null nor a time record is a departure', async () => {
    expect(departures('get', '/api/v2/timerecord/open', { status: 200, body: { hasOpenRecord: true, record: { id: 1 } } })).not.toEqual([]);
    expect(departures('get', '/api/v2/timerecord/open', { status: 200, body: { hasOpenRecord: false } })).not.toEqual([]);
    expect(departures('get', '/api/v2/timerecord/open', { status: 299, body: {} })).toEqual(['GET /api/v2/timerecord/open does not document status 299']);
  });
});
