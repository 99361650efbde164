import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { forgedTokens } from '@academy/testing';
import { useHoursBank } from './support.ts';

describe('hours bank called directly with a bad token', () => {
  const service = useHoursBank();

  test.each(Object.entries(forgedTokens()))('a token that is %s is a 401 Unauthorized, never a 500', async (_flaw, token) => {
    const res = await request(service().url).get('/api/v2/hours-bank/1').set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Unauthorized');
  });
});
