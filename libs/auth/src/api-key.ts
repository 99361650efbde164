import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { UnauthorizedError } from '@academy/kit';

/** Constant-time comparison that never throws on a length mismatch (both sides are hashed first). */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** An empty expected key refuses everything, so a missing setting never opens the door. */
export function requireApiKey(expected: string, failure: { message?: string; code?: string } = {}): RequestHandler {
  return (req, res, next) => {
    // As requireAuth: an authenticated answer is kept by no cache unless the route says otherwise.
    res.setHeader('cache-control', 'no-store');
    const given = req.headers['x-api-key'];
    if (expected && typeof given === 'string' && safeEqual(given, expected)) return next();
    next(new UnauthorizedError(failure.message ?? 'Invalid API key', failure.code ?? 'INVALID_API_KEY'));
  };
}
