import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { getSession, refreshSession } from './session';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRIES = [300, 1000, 3000];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Called when the session cannot be renewed: the app sends the user to log in, and back afterwards. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};

/**
 * Every request carries the access token from memory; every write an Idempotency-Key, kept across
 * its retries, so a write whose answer was lost to the network is sent again safely (the service
 * answers the first outcome). A 401 renews the session once and resends; a second sends to login.
 */
const auth: Middleware = {
  onRequest({ request }) {
    const session = getSession();
    if (session) request.headers.set('authorization', `Bearer ${session.accessToken}`);
    if (WRITES.has(request.method) && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', crypto.randomUUID());
    return request;
  },
};

async function resilientFetch(input: Request): Promise<Response> {
  const send = async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetch(request.clone());
      } catch (error) {
        if (attempt >= RETRIES.length || (error as Error).name === 'AbortError') throw error;
        await wait(RETRIES[attempt]);
      }
    }
  };
  const answer = await send(input);
  if (answer.status !== 401) return answer;
  const renewed = await refreshSession();
  if (!renewed) {
    onSignedOut();
    return answer;
  }
  const again = new Request(input);
  again.headers.set('authorization', `Bearer ${renewed.accessToken}`);
  return send(again);
}

export const api = createClient<paths>({ baseUrl: '', fetch: resilientFetch });
api.use(auth);

/** An API error as the pages show it: the code (translated by `errors.<code>`) and the status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The body's `details` (a VALIDATION_ERROR's `[{ path, message }]`), for naming the refused fields. */
  readonly details: unknown;
  constructor(status: number, code: string, details?: unknown) {
    super(code);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The data of an openapi-fetch answer, or an ApiError with the body's code (never its raw JSON). */
export function data<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    const body = result.error as { code?: string; details?: unknown } | undefined;
    throw new ApiError(result.response.status, typeof body?.code === 'string' ? body.code : `HTTP_${result.response.status}`, body?.details);
  }
  return result.data as T;
}
