import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { bearer } from '@academy/testing';
import { API_KEY, useNotifications } from './support.ts';

describe('Cache-Control of notifications answers', () => {
  const service = useNotifications();

  test('POST /api/v2/notifications/token (a signed-in user) and the push send (an API key) answer Cache-Control: no-store', async () => {
    const registered = await request(service().url)
      .post('/api/v2/notifications/token')
      .set(bearer({ sub: '31', role: 'user' }))
      .send({ deviceId: 'cache-phone', token: 'tok-cache', platform: 'ios' });
    expect([registered.status, registered.headers['cache-control']]).toEqual([200, 'no-store']);
    const sent = await request(service().url).post('/api/v2/push-notifications/send').set('x-api-key', API_KEY).send({ userIds: [31], body: 'hi' });
    expect([sent.status, sent.headers['cache-control']]).toEqual([200, 'no-store']);
  });
});
