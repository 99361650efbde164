// What a client of the system has: plain fetch against a gateway, JSON in and out.
import { randomUUID } from 'node:crypto';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes; the tests assert what they read
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** The write's `Idempotency-Key`: a fresh one by default on POST, PUT, PATCH and DELETE, as a careful client sends; false sends none. */
  idempotencyKey?: string | false;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function call<T = any>(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (WRITE_METHODS.has(method.toUpperCase()) && options.idempotencyKey !== false) headers['idempotency-key'] ??= options.idempotencyKey ?? randomUUID();
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: response.status, body: body as T, headers: response.headers };
}

/**
 * A write sent until it has an outcome, always with the same `Idempotency-Key`: again after a
 * timeout (the gateway's 504, or no answer at all) and, waiting `Retry-After`, while the first
 * attempt still runs (409 `IDEMPOTENCY_KEY_IN_USE`). `attempts` records each try's status (0: no answer).
 */
export async function callUntilDone<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any -- as call
  base: string,
  method: string,
  path: string,
  options: CallOptions & { idempotencyKey: string; attempts?: number[]; deadlineMs?: number },
): Promise<Answer<T>> {
  const deadline = Date.now() + (options.deadlineMs ?? 60_000);
  for (;;) {
    const answer = await call<T>(base, method, path, options).catch(() => null);
    options.attempts?.push(answer?.status ?? 0);
    const again = answer === null || answer.status === 504 || (answer.status === 409 && (answer.body as { code?: string })?.code === 'IDEMPOTENCY_KEY_IN_USE');
    if (!again || Date.now() > deadline) {
      if (answer === null) throw new Error(`${method} ${path}: no answer before the deadline`);
      return answer;
    }
    await new Promise((r) => setTimeout(r, 1000 * Number(answer?.headers.get('retry-after') ?? 1)));
  }
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: { id: number; email: string; role: 'admin' | 'user'; employeeId: number | null; studentId: number | null };
}

export async function login(base: string, credentials: { email: string; password: string }, headers: Record<string, string> = {}): Promise<Session> {
  const answer = await call<Session>(base, 'POST', '/api/v2/auth/login', { body: credentials, headers });
  if (answer.status !== 200) throw new Error(`login of ${credentials.email} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Polls `probe` until it returns a value other than undefined (or throws after `timeoutMs`). */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
}
