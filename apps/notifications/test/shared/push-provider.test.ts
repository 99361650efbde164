import { describe, expect, test } from '@jest/globals';
import { chunk, DEAD_TOKEN_CODES, toMulticastMessage } from '../../src/push/push-provider.ts';

describe('toMulticastMessage: the spec fields onto FCM', () => {
  test('priority high: Android high, APNs 10; the channel on the Android notification', () => {
    expect(toMulticastMessage({ title: 'T', body: 'B', priority: 'high', channelId: 'alerts', data: { a: '1' } }, ['t1'])).toEqual({
      tokens: ['t1'],
      notification: { title: 'T', body: 'B' },
      data: { a: '1' },
      android: { priority: 'high', notification: { channelId: 'alerts' } },
      apns: { headers: { 'apns-priority': '10' } },
    });
  });
  test('priority normal: Android normal, APNs 5', () => {
    const message = toMulticastMessage({ body: 'B', priority: 'normal' }, []);
    expect(message.android).toEqual({ priority: 'normal' });
    expect(message.apns).toEqual({ headers: { 'apns-priority': '5' } });
  });
  test('priority default or absent leaves FCM its defaults; no data, no data field', () => {
    for (const priority of ['default', undefined] as const) {
      const message = toMulticastMessage({ body: 'B', priority }, []);
      expect(message.android).toEqual({});
      expect(message).not.toHaveProperty('apns');
      expect(message).not.toHaveProperty('data');
    }
  });
});

test('chunk cuts at the size given, keeping order', () => {
  expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  expect(chunk([], 500)).toEqual([]);
});

test('only the two codes that mean a dead token delete it', () => {
  expect([...DEAD_TOKEN_CODES].sort()).toEqual(['messaging/invalid-registration-token', 'messaging/registration-token-not-registered']);
});
