import type { components } from './schema';

export type ConsoleSession = components['schemas']['ConsoleSession'];

/** The readable cookie the gateway sets beside the HttpOnly refresh cookie: the CSRF token of a reloaded page. */
const CSRF_COOKIE = 'academy_console_csrf';
const SESSION_PATH = '/api/console/session';

/**
 * The session lives in this module's memory only: the access token, the CSRF token and the user.
 * Nothing of it is written to localStorage, sessionStorage or the console; the refresh token is an
 * HttpOnly cookie the page never sees.
 */
let current: ConsoleSession | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<(session: ConsoleSession | null) => void>();

export const getSession = (): ConsoleSession | null => current;

export function onSessionChange(listener: (session: ConsoleSession | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setSession(session: ConsoleSession | null): void {
  current = session;
  clearTimeout(refreshTimer);
  // Refresh a minute before the access token expires (at least 10 s from now).
  if (session) refreshTimer = setTimeout(() => void refreshSession(), Math.max(10, session.expiresIn - 60) * 1000);
  for (const listener of listeners) listener(session);
}

const csrfFromCookie = (): string | null => {
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${CSRF_COOKIE}=`));
  return entry ? decodeURIComponent(entry.slice(CSRF_COOKIE.length + 1)) : null;
};

let refreshing: Promise<ConsoleSession | null> | null = null;

/**
 * A new access token from the session cookie. One refresh at a time across the browser's tabs (a
 * Web Lock): two tabs presenting the same cookie would look like a stolen token and end the
 * session. The CSRF token is read from its cookie inside the lock, so a tab that refreshes after
 * another sends the rotated one. Never retried on a network error: the cookie may have been spent.
 */
export function refreshSession(): Promise<ConsoleSession | null> {
  refreshing ??= (async () => {
    const run = async () => {
      const csrf = csrfFromCookie();
      if (!csrf) return null;
      try {
        const answer = await fetch(`${SESSION_PATH}/refresh`, { method: 'POST', headers: { 'x-csrf-token': csrf }, credentials: 'same-origin' });
        return answer.ok ? ((await answer.json()) as ConsoleSession) : null;
      } catch {
        return current;
      }
    };
    const session = navigator.locks ? await navigator.locks.request('academy-console-refresh', run) : await run();
    setSession(session);
    return session;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

export async function logIn(email: string, password: string): Promise<{ ok: true } | { ok: false; status: number; code?: string; retryAfter?: string }> {
  const answer = await fetch(SESSION_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }), credentials: 'same-origin' });
  if (!answer.ok) {
    const body = (await answer.json().catch(() => ({}))) as { code?: string };
    return { ok: false, status: answer.status, code: body.code, retryAfter: answer.headers.get('retry-after') ?? undefined };
  }
  setSession((await answer.json()) as ConsoleSession);
  return { ok: true };
}

export async function logOut(): Promise<void> {
  const csrf = current?.csrfToken ?? csrfFromCookie() ?? '';
  try {
    await fetch(SESSION_PATH, { method: 'DELETE', headers: { 'x-csrf-token': csrf }, credentials: 'same-origin' });
  } finally {
    setSession(null);
  }
}
