import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { hashPassword } from '@academy/auth';
import { startService, type RunningService } from '@academy/service';
import { dropTestDatabase, testConfig } from '@academy/testing';
// The real academic service in-process behind the gateway, as in logins-through-gateway.test.ts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { academicService } from '../../academic/src/service.ts';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { User } from '../../academic/src/shared/entities/user.entity.ts';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { SettingsSchema } from '../../academic/src/config.ts';
import { CONSOLE_CSRF_COOKIE, csrfTokenOf } from '../src/console-session.ts';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig } from './helpers.ts';

const PATH = '/api/console/session';
const REFRESH = 'academy_console_refresh';

/** The cookies an answer set, by name: value and attributes as sent. */
function setCookies(headers: Record<string, unknown>): Record<string, { value: string; attributes: string[] }> {
  const lines = (headers['set-cookie'] as string[] | undefined) ?? [];
  return Object.fromEntries(
    lines.map((line) => {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      return [pair.slice(0, at), { value: decodeURIComponent(pair.slice(at + 1)), attributes: attributes.map((a) => a.toLowerCase()) }];
    }),
  );
}

describe('the console cookie session at the gateway', () => {
  let academic: RunningService;
  let gateway: RunningGateway;

  const login = (email = 'teacher@school.test') => request(gateway.url).post(PATH).send({ email, password: 'right-pass' });
  const refresh = (cookie: string | null, csrf: string | null) => {
    const call = request(gateway.url).post(`${PATH}/refresh`);
    if (cookie !== null) call.set('cookie', `${REFRESH}=${encodeURIComponent(cookie)}`);
    if (csrf !== null) call.set('x-csrf-token', csrf);
    return call;
  };
  const me = (accessToken: string) => request(gateway.url).get('/api/v2/auth/me').set('authorization', `Bearer ${accessToken}`);
  /** Logs in and returns the session's refresh cookie, its CSRF token and the answer. */
  const session = async () => {
    const answer = await login();
    expect(answer.status).toBe(200);
    return { cookie: setCookies(answer.headers)[REFRESH].value, csrf: answer.body.csrfToken as string, body: answer.body };
  };

  beforeAll(async () => {
    academic = await startService(academicService, await testConfig('gateway_console', SettingsSchema));
    const em = academic.ctx.orm.em.fork();
    em.create(User, { email: 'teacher@school.test', passwordHash: await hashPassword('right-pass'), role: 'user' });
    await em.flush();
    gateway = await startGateway(gatewayConfig({ ACADEMIC_URL: academic.url, TOKEN_CACHE_MS: '0', TOKEN_REVOCATION_CHECK_MS: '0' }));
  });
  afterAll(async () => {
    await gateway.stop();
    await academic.stop();
    await dropTestDatabase(academic.ctx.config.DATABASE_URL);
  });

  test('a login sets the refresh token only as an HttpOnly, SameSite=Strict cookie scoped to the session path; the answer holds the access token and the CSRF token', async () => {
    const answer = await login();
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body.refreshToken).toBeUndefined();
    expect(JSON.stringify(answer.body)).not.toContain(setCookies(answer.headers)[REFRESH].value);
    expect(answer.body).toMatchObject({ tokenType: 'Bearer', user: { email: 'teacher@school.test' }, academy: { locale: 'es', timeZone: 'Europe/Madrid' } });
    const cookies = setCookies(answer.headers);
    expect(cookies[REFRESH].attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', `path=${PATH}`]));
    expect(cookies[REFRESH].attributes).not.toContain('secure');
    // The CSRF cookie is readable by the page (double submit) and is the answer's token.
    expect(cookies[CONSOLE_CSRF_COOKIE].value).toBe(answer.body.csrfToken);
    expect(cookies[CONSOLE_CSRF_COOKIE].attributes).toEqual(expect.arrayContaining(['samesite=strict', 'path=/']));
    expect(cookies[CONSOLE_CSRF_COOKIE].attributes).not.toContain('httponly');
    expect((await me(answer.body.accessToken)).status).toBe(200);
  });

  test('over TLS (a trusted proxy says https) both cookies are Secure', async () => {
    const answer = await login().set('x-forwarded-proto', 'https');
    const cookies = setCookies(answer.headers);
    expect(cookies[REFRESH].attributes).toContain('secure');
    expect(cookies[CONSOLE_CSRF_COOKIE].attributes).toContain('secure');
  });

  test('a refresh with the cookie and its CSRF token rotates both; the spent cookie presented again is refused and ends the session', async () => {
    const first = await session();
    const rotated = await refresh(first.cookie, first.csrf);
    expect(rotated.status).toBe(200);
    const next = setCookies(rotated.headers)[REFRESH].value;
    expect(next).not.toBe(first.cookie);
    expect(rotated.body.csrfToken).toBe(csrfTokenOf(next));
    expect(rotated.body.csrfToken).not.toBe(first.csrf);
    expect((await me(rotated.body.accessToken)).status).toBe(200);

    const replayed = await refresh(first.cookie, first.csrf);
    expect(replayed.status).toBe(401);
    expect(replayed.body.code).toBe('REFRESH_TOKEN_REUSED');
    expect(setCookies(replayed.headers)[REFRESH].value).toBe('');
    // The reuse revoked the whole session: the rotated cookie and its access token are refused too.
    expect((await refresh(next, rotated.body.csrfToken)).status).toBe(401);
    expect((await me(rotated.body.accessToken)).status).toBe(401);
  });

  test('a missing, forged or stale CSRF token is refused with 403 and rotates nothing', async () => {
    const first = await session();
    const rotated = await refresh(first.cookie, first.csrf);
    const cookie = setCookies(rotated.headers)[REFRESH].value;
    const missing = await refresh(cookie, null);
    const forged = await refresh(cookie, csrfTokenOf('a-refresh-token-of-my-own'));
    const stale = await refresh(cookie, first.csrf);
    expect([missing.status, forged.status, stale.status]).toEqual([403, 403, 403]);
    expect([missing.body.code, forged.body.code, stale.body.code]).toEqual(Array(3).fill('CSRF_TOKEN_INVALID'));
    expect(missing.headers['set-cookie']).toBeUndefined();
    // The cookie was not spent by the refused calls.
    expect((await refresh(cookie, rotated.body.csrfToken)).status).toBe(200);
  });

  test('no cookie, or a forged one with a matching CSRF token, is refused like a bad token (401)', async () => {
    const none = await refresh(null, 'anything');
    expect([none.status, none.body.code]).toEqual([401, 'UNAUTHORIZED']);
    const forgedCookie = 'f'.repeat(64);
    const forged = await refresh(forgedCookie, csrfTokenOf(forgedCookie));
    expect([forged.status, forged.body.code]).toEqual([401, 'INVALID_REFRESH_TOKEN']);
  });

  test('a logout revokes the session: the cookie is cleared and refused afterwards, the access token too; without the CSRF token it is refused and nothing ends', async () => {
    const { cookie, csrf, body } = await session();
    const refused = await request(gateway.url).delete(PATH).set('cookie', `${REFRESH}=${encodeURIComponent(cookie)}`);
    expect(refused.status).toBe(403);
    expect((await me(body.accessToken)).status).toBe(200);

    const out = await request(gateway.url).delete(PATH).set('cookie', `${REFRESH}=${encodeURIComponent(cookie)}`).set('x-csrf-token', csrf);
    expect(out.status).toBe(204);
    const cleared = setCookies(out.headers);
    expect([cleared[REFRESH].value, cleared[CONSOLE_CSRF_COOKIE].value]).toEqual(['', '']);
    expect(cleared[REFRESH].attributes).toContain('expires=thu, 01 jan 1970 00:00:00 gmt');
    expect((await refresh(cookie, csrf)).status).toBe(401);
    expect((await me(body.accessToken)).status).toBe(401);
  });

  test('a login body that is not JSON (a cross-site form) is 415, a malformed one 400, wrong credentials academic\'s 401; no cookie is set', async () => {
    const form = await request(gateway.url).post(PATH).type('form').send({ email: 'teacher@school.test', password: 'right-pass' });
    const malformed = await request(gateway.url).post(PATH).send({ email: 'not-an-email', password: 'x', extra: 1 });
    const wrong = await request(gateway.url).post(PATH).send({ email: 'teacher@school.test', password: 'wrong-pass' });
    expect([form.status, malformed.status, wrong.status]).toEqual([415, 400, 401]);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    for (const answer of [form, malformed, wrong]) expect(answer.headers['set-cookie']).toBeUndefined();
  });

  test('Bearer clients are unchanged: /api/v2/auth/login still answers the refresh token in its body', async () => {
    const answer = await request(gateway.url).post('/api/v2/auth/login').send({ email: 'teacher@school.test', password: 'right-pass' });
    expect(answer.status).toBe(200);
    expect(typeof answer.body.refreshToken).toBe('string');
    expect(answer.headers['set-cookie']).toBeUndefined();
  });
});
