import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { cert, deleteApp, initializeApp } from 'firebase-admin/app';
import { getMessaging, type BatchResponse, type MulticastMessage } from 'firebase-admin/messaging';
import type { PushSendBody } from '@academy/contracts';
import { recordedPushes } from './push.store.ts';

/** What a push says, whoever it goes to. */
export type PushMessage = Pick<PushSendBody, 'title' | 'body' | 'priority' | 'channelId' | 'data'>;

export type TokenOutcome = { ok: true } | { ok: false; code: string; message: string };

/**
 * The part of firebase-admin's `Messaging` the service uses: its token overload of
 * `sendEachForMulticast` (a `Messaging` is one; tests pass an object implementing it).
 */
export interface MulticastSender {
  sendEachForMulticast(message: MulticastMessage, dryRun?: boolean): Promise<BatchResponse>;
}

export interface PushProvider {
  /** `firebase` sends; `recording` stores what would have been sent (no Google account needed). */
  readonly kind: 'firebase' | 'recording';
  /** One outcome per token, in the order given. */
  send(message: PushMessage, tokens: string[]): Promise<TokenOutcome[]>;
  close(): Promise<void>;
}

/** FCM's limit of tokens per `sendEachForMulticast`. */
export const FCM_MULTICAST_LIMIT = 500;
/** Chunks sent at once. */
const CHUNK_CONCURRENCY = 4;

/**
 * Only these say the token itself is dead (app uninstalled, token rotated or malformed); any other
 * error (a bad payload, quota, an outage) leaves the token in place.
 */
export const DEAD_TOKEN_CODES: ReadonlySet<string> = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token']);

/** The spec's fields onto an FCM message: Android priority and channel, APNs priority header. */
export function toMulticastMessage(message: PushMessage, tokens: string[]): MulticastMessage {
  const androidPriority = message.priority === 'high' ? 'high' : message.priority === 'normal' ? 'normal' : undefined;
  const apnsPriority = message.priority === 'high' ? '10' : message.priority === 'normal' ? '5' : undefined;
  return {
    tokens,
    notification: { title: message.title, body: message.body },
    ...(message.data ? { data: message.data } : {}),
    android: {
      ...(androidPriority ? { priority: androidPriority } : {}),
      ...(message.channelId ? { notification: { channelId: message.channelId } } : {}),
    },
    ...(apnsPriority ? { apns: { headers: { 'apns-priority': apnsPriority } } } : {}),
  };
}

export function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

async function eachChunk<T>(chunks: T[][], work: (chunk: T[]) => Promise<TokenOutcome[]>): Promise<TokenOutcome[]> {
  const results: TokenOutcome[][] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const index = next++;
      results[index] = await work(chunks[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHUNK_CONCURRENCY, chunks.length) }, worker));
  return results.flat();
}

/**
 * firebase-admin's `sendEachForMulticast`, 500 tokens per call. A call that fails as a whole (FCM
 * unreachable, bad credentials) fails each of its tokens with that error's code, which never
 * deletes a token.
 */
export function firebasePushProvider(messaging: MulticastSender, onClose: () => Promise<void> = async () => {}): PushProvider {
  return {
    kind: 'firebase',
    send: (message, tokens) =>
      eachChunk(chunk(tokens, FCM_MULTICAST_LIMIT), async (part) => {
        let batch: BatchResponse;
        try {
          batch = await messaging.sendEachForMulticast(toMulticastMessage(message, part));
        } catch (error) {
          const failure = error as { code?: string; message?: string };
          return part.map(() => ({ ok: false, code: failure.code ?? 'messaging/send-failed', message: failure.message ?? String(error) }));
        }
        return part.map((_, index): TokenOutcome => {
          const response = batch.responses[index];
          if (response?.success) return { ok: true };
          return { ok: false, code: response?.error?.code ?? 'messaging/unknown-error', message: response?.error?.message ?? 'No response for this token' };
        });
      }),
    close: onClose,
  };
}

/** firebase-admin with the service account in `credentialsFile` (its own named app, deleted on close). */
export function firebaseFromCredentials(credentialsFile: string): PushProvider {
  const serviceAccount = JSON.parse(readFileSync(credentialsFile, 'utf8'));
  const app = initializeApp({ credential: cert(serviceAccount) }, `notifications-${randomUUID()}`);
  return firebasePushProvider(getMessaging(app), () => deleteApp(app));
}

/**
 * Stores each chunk it would have sent in `recorded_pushes`; every token succeeds. It stands for FCM,
 * a system outside the service: it writes through a connection of its own (not the service's pool,
 * whose connections the event handlers that push hold), and what it recorded stays recorded whatever
 * the caller's transaction does, as a push sent stays sent.
 */
export function recordingPushProvider(databaseUrl: string): PushProvider {
  const recorded = recordedPushes(databaseUrl);
  return {
    kind: 'recording',
    async send(message, tokens) {
      const chunks = chunk(tokens, FCM_MULTICAST_LIMIT);
      if (chunks.length) {
        const { tokens: _omitted, ...withoutTokens } = toMulticastMessage(message, []);
        await recorded.record(withoutTokens, chunks);
      }
      return tokens.map(() => ({ ok: true }));
    },
    close: () => recorded.close(),
  };
}
