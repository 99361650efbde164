import type { IncomingMessage } from 'node:http';

// A body that a handler streams (multipart: files go to storage as they arrive) is known only once it
// has been read. Whoever needs what it carried (the `Idempotency-Key`'s check, @academy/service)
// waits for its digest here, and the reader (`parseMultipart`, @academy/files) tells it, once the
// body is read and before anything of it is kept. Two libraries that do not import each other meet
// on the request.

/** What waits for a request's body digest: it may throw (the key's stored answer, or a 422), and the reader then keeps nothing. */
export type BodyDigestCheck = (digest: string) => Promise<void>;

const waiting = new WeakMap<IncomingMessage, BodyDigestCheck>();

/** Asks for `req`'s body digest: `check` runs once the body has been read (`bodyDigested`). */
export function awaitBodyDigest(req: IncomingMessage, check: BodyDigestCheck): void {
  waiting.set(req, check);
}

/** Whether anyone waits for `req`'s body digest (the reader hashes the body only then). */
export function wantsBodyDigest(req: IncomingMessage): boolean {
  return waiting.has(req);
}

/** Tells the digest of `req`'s body, once read: resolves to go on, rejects when the request must stop here (keep nothing). */
export async function bodyDigested(req: IncomingMessage, digest: string): Promise<void> {
  const check = waiting.get(req);
  waiting.delete(req);
  await check?.(digest);
}
