import type { ServerResponse } from 'node:http';

/**
 * Aborts when the response closes before it was sent: the client went away, or the gateway gave up
 * waiting (its 504) and closed the connection. Uploads stop their work on it and keep nothing.
 */
export function requestSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the request went away before its answer'));
  });
  return controller.signal;
}
