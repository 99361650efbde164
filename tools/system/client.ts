// What a client of the system has: plain fetch against a gateway, JSON in and out.

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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function call<T = any>(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
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
