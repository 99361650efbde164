import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from '../src/index.ts';

const Schema = z.object({
  PORT: env.port(3000),
  DATABASE_URL: z.url(),
  FLAG: env.bool(false),
  ORIGINS: env.list('http://a.test'),
});

describe('loadConfig', () => {
  test('applies defaults and coerces values', () => {
    const config = loadConfig(Schema, { DATABASE_URL: 'postgres://x@h/db', FLAG: 'true', ORIGINS: 'http://a, http://b' });
    expect(config).toEqual({ PORT: 3000, DATABASE_URL: 'postgres://x@h/db', FLAG: true, ORIGINS: ['http://a', 'http://b'] });
  });

  test('a missing variable fails fast, naming it', () => {
    expect(() => loadConfig(Schema, {})).toThrow(ConfigError);
    expect(() => loadConfig(Schema, {})).toThrow(/DATABASE_URL is missing/);
  });

  test('a malformed variable fails fast, naming it and why', () => {
    expect(() => loadConfig(Schema, { DATABASE_URL: 'postgres://x@h/db', PORT: '70000' })).toThrow(/PORT is invalid/);
    expect(() => loadConfig(Schema, { DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL is invalid/);
  });
});

describe('env.timeZone', () => {
  const Zone = z.object({ ACADEMY_TIME_ZONE: env.timeZone('Europe/Madrid') });

  test('an IANA zone is taken, and the default when unset', () => {
    expect(loadConfig(Zone, {})).toEqual({ ACADEMY_TIME_ZONE: 'Europe/Madrid' });
    expect(loadConfig(Zone, { ACADEMY_TIME_ZONE: 'America/Argentina/Buenos_Aires' })).toEqual({ ACADEMY_TIME_ZONE: 'America/Argentina/Buenos_Aires' });
  });

  test('a name Intl does not know fails fast, naming the variable and what it must be', () => {
    expect(() => loadConfig(Zone, { ACADEMY_TIME_ZONE: 'Mars/Olympus_Mons' })).toThrow(/ACADEMY_TIME_ZONE is invalid.*IANA time zone/);
  });
});
