import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError, createRedis, type Logger } from '@academy/kit';
import type { Config } from '../config.ts';

export class TooManyLoginAttemptsError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'Too many failed logins, retry later', { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}

export interface LoginProtection {
  /** Throws a 429 when this (e-mail, IP) or this IP is blocked; call before checking the password. */
  assertAllowed(email: string, ip: string): Promise<void>;
  /** Counts a failed login (unknown e-mail or wrong password alike); throws the 429 of the attempt that reaches a block. */
  failed(email: string, ip: string): Promise<void>;
  /** A successful login clears the consecutive failures of this (e-mail, IP). */
  succeeded(email: string, ip: string): Promise<void>;
  close(): void;
}

/**
 * A login costs a scrypt verification (tens of ms) anyway, and a count lost to a timeout is a guess
 * not counted: the counters get their own Redis client with a longer command timeout than the
 * shared one (100 ms), which a busy event loop can overrun and so count in memory instead.
 */
const LOGIN_REDIS_COMMAND_TIMEOUT_MS = 1000;

/**
 * rate-limiter-flexible's login pattern: failed logins are counted per (e-mail, IP), a short block
 * after `LOGIN_MAX_CONSECUTIVE_FAILURES` in a row, cleared by a success; and per IP over a day, a
 * long block for a password sprayer. Successes count against nothing here (the gateway's general
 * per-IP limit applies), so a school behind one address can log everyone in. Counters live in Redis,
 * shared by every academic instance, under a prefix naming the database (one namespace per
 * deployment, and per test database); while Redis is away each instance counts in memory.
 */
export function createLoginProtection(config: Config, logger: Logger): LoginProtection {
  const redis = createRedis(config.REDIS_URL, { connectionName: 'academic-login', commandTimeoutMs: LOGIN_REDIS_COMMAND_TIMEOUT_MS });
  redis.on('error', (error) => logger.debug({ err: error }, 'login limiter redis error'));
  const database = new URL(config.DATABASE_URL).pathname.slice(1) || 'academic';
  const prefix = `${config.LOGIN_LIMIT_KEY_PREFIX}:${database}`;
  const limiter = (keyPrefix: string, points: number, duration: number, blockDuration: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration, blockDuration });
    return new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, blockDuration, rejectIfRedisNotReady: true, insuranceLimiter: memory });
  };
  // Failures in a row per (e-mail, IP): the window is the block's, long enough that slow guessing still counts.
  const byEmailAndIp = limiter(`${prefix}:fails:email-ip`, config.LOGIN_MAX_CONSECUTIVE_FAILURES, 3600, config.LOGIN_FAILURE_BLOCK_SECONDS);
  const byIpPerDay = limiter(`${prefix}:fails:ip-day`, config.LOGIN_MAX_FAILURES_PER_IP_PER_DAY, 24 * 3600, config.LOGIN_IP_BLOCK_SECONDS);
  const key = (email: string, ip: string) => `${email}_${ip}`;

  /** Limiter errors other than "over the limit" let the login through: a broken counter must not lock a school out. */
  const tolerate = (error: unknown) => {
    if (error instanceof RateLimiterRes) throw new TooManyLoginAttemptsError(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    logger.warn({ err: error }, 'login limiter unavailable; attempt not counted');
  };

  return {
    async assertAllowed(email, ip) {
      let pair: RateLimiterRes | null = null;
      let perIp: RateLimiterRes | null = null;
      try {
        [pair, perIp] = await Promise.all([byEmailAndIp.get(key(email, ip)), byIpPerDay.get(ip)]);
      } catch (error) {
        return tolerate(error);
      }
      const blocked = [
        perIp && perIp.consumedPoints > config.LOGIN_MAX_FAILURES_PER_IP_PER_DAY ? perIp.msBeforeNext : 0,
        pair && pair.consumedPoints > config.LOGIN_MAX_CONSECUTIVE_FAILURES ? pair.msBeforeNext : 0,
      ];
      const wait = Math.max(...blocked);
      if (wait > 0) throw new TooManyLoginAttemptsError(Math.max(1, Math.ceil(wait / 1000)));
    },
    async failed(email, ip) {
      const results = await Promise.allSettled([byEmailAndIp.consume(key(email, ip)), byIpPerDay.consume(ip)]);
      for (const result of results) if (result.status === 'rejected') tolerate(result.reason);
    },
    async succeeded(email, ip) {
      await byEmailAndIp.delete(key(email, ip)).catch((error: unknown) => logger.warn({ err: error }, 'login limiter unavailable; failures not cleared'));
    },
    close: () => redis.disconnect(),
  };
}
