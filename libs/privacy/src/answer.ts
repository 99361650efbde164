import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { AppName, EventData } from '@academy/contracts';
import { removeFiles, type FileStorage } from '@academy/files';
import { runEvery, type Clock, type Logger } from '@academy/kit';
import { consume, recordEvent, type Broker, type ConsumeOptions, type Consumer, type HandledEvent } from '@academy/messaging';
import type { StoredEntry } from './entities.ts';
import { PART_RETENTION_DAYS, dropPartsOfSubject, recordWrittenEntry, removeUnansweredEntries, storeExport, sweepExpiredParts } from './parts.ts';
import { checkProviders, type PrivacyProvider, type ProviderContext } from './provider.ts';
import { forgetTransientRecords } from './transient.ts';

type Answer = EventData<'privacy.part.answered'>;
type FeatureAnswer = Answer['features'][number];

/** What a service passes: its `ServiceContext` has all of it. */
export interface PrivacyHost {
  broker: Broker;
  orm: MikroORM;
  clock: Clock;
  logger: Logger;
}

export interface PrivacyOptions {
  /** The answering service, as in `APP_EVENTS`. */
  service: AppName;
  /** `<service>.privacy`. */
  queue: string;
  providers: readonly PrivacyProvider[];
  /** Where export parts are kept: an `encryptedStorage` of `@academy/files`. */
  storage: FileStorage;
  /** Failed attempts after which the answer is `failed` (default 3); the consumer retries in between. */
  attempts?: number;
  /** How often expired parts are swept (default hourly; 0: never, a test sweeps itself). */
  sweepEveryMs?: number;
  /** Consumer settings (`retryDelaysMs`, …); `maxAttempts` is kept above `attempts`. */
  consume?: Omit<ConsumeOptions, 'orm' | 'queue' | 'handlers' | 'maxAttempts'>;
}

export interface PrivacySubscription {
  consumer: Consumer;
  /** Stops the sweep timer and the consumer. */
  stop(): Promise<void>;
}

const DEFAULT_ATTEMPTS = 3;
const DAY_MS = 86_400_000;

interface PriorRow {
  status: string;
  attempts: number;
  answer: Answer | null;
  /** Not `done`: the files an earlier attempt stored whose commit failed (`recordWrittenEntry`). */
  entries: StoredEntry[] | null;
}

/** A failure's reason as published: the error's message (never its stack), bounded. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.slice(0, 2000);
}

/**
 * Counts a failed attempt in a transaction of its own (the attempt's is rolled back); answers the count
 * so far. `removed`: every file the attempt stored is gone, so the row names none any more.
 */
async function countFailure(orm: MikroORM, event: HandledEvent<'privacy.request.opened'>, reason: string, now: Date, removed: boolean): Promise<number> {
  const { requestId, kind, subject } = event.data;
  const [row] = await orm.em.fork().getConnection().execute<{ attempts: number }[]>(
    `insert into privacy_answers (request_id, kind, subject_kind, subject_id, status, reason, attempts, updated_at) values (?, ?, ?, ?, 'failing', ?, 1, ?)
     on conflict (request_id) do update set status = 'failing', attempts = privacy_answers.attempts + 1, reason = excluded.reason, updated_at = excluded.updated_at,
       entries = case when ? then null else privacy_answers.entries end
     returning attempts`,
    [requestId, kind, subject.kind, subject.id, reason, now, removed],
  );
  return row!.attempts;
}

/**
 * The handler of `privacy.request.opened` for one service: its providers (those asked about the
 * person's kind) export or erase in a savepoint of the consumer's transaction; the answer's row and
 * its `privacy.part.answered` commit with the inbox row. A failure rolls the savepoint back, removes
 * the part's stored files and is retried by the consumer until the `attempts`-th, which answers `failed`.
 */
export function privacyRequestHandler(host: Pick<PrivacyHost, 'orm' | 'clock' | 'logger'>, options: Pick<PrivacyOptions, 'service' | 'providers' | 'storage' | 'attempts'>) {
  const { service, providers, storage } = options;
  const maxAttempts = options.attempts ?? DEFAULT_ATTEMPTS;
  checkProviders(providers);
  return async (em: EntityManager, event: HandledEvent<'privacy.request.opened'>): Promise<void> => {
    const { requestId, kind, subject, locale } = event.data;
    const now = host.clock.now();
    const meta = { source: service, correlationId: event.correlationId };
    const connection = em.getConnection();
    // One attempt of a request at a time in this service (the same request published twice): the files of an
    // earlier attempt removed below are then never those of one still running.
    await connection.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`privacy:${requestId}`], 'all', em.getTransactionContext());
    const [prior] = await connection.execute<PriorRow[]>('select status, attempts, answer, entries from privacy_answers where request_id = ?', [requestId], 'all', em.getTransactionContext());
    if (prior?.answer && prior.status !== 'failing') {
      // The same request again (replayed, republished): the answer it had, not a second run.
      recordEvent(em, 'privacy.part.answered', prior.answer, meta);
      return;
    }
    // An earlier attempt stored files and its commit failed: no answer names them, they go before this attempt writes its own.
    if (prior?.entries?.length) await removeUnansweredEntries(host.orm, storage, requestId, prior.entries, now);
    const asked = providers.filter((provider) => provider.subjects.includes(subject.kind));
    const written: string[] = [];
    let features: FeatureAnswer[];
    let entries: StoredEntry[] = [];
    let droppedParts: string[] = [];
    try {
      ({ features, entries, droppedParts } = await em.transactional(async (attempt) => {
        const ctx: ProviderContext = { em: attempt, subject, requestId, now, locale };
        const answered: FeatureAnswer[] = [];
        const stored: StoredEntry[] = [];
        const identifiers = new Set<string>(subject.email ? [subject.email] : []);
        for (const provider of asked) {
          const feature = `${service}.${provider.feature}`;
          if (kind === 'access') {
            const exported = await provider.export(ctx);
            // Each file named on the request's row as it is stored, apart from this transaction: if its commit fails, the next attempt or the sweep finds it.
            const part = exported ? await storeExport(storage, provider.feature, exported, written, (entry) => recordWrittenEntry(host.orm, event.data, entry, now)) : [];
            stored.push(...part);
            answered.push({ feature, status: exported ? 'done' : 'nothing-held', erased: [], kept: [], entries: part.length });
          } else {
            const erasure = await provider.erase(ctx);
            for (const identifier of erasure.identifiers ?? []) identifiers.add(identifier);
            const held = erasure.erased.some((item) => item.count > 0) || erasure.kept.length > 0;
            answered.push({ feature, status: held ? 'done' : 'nothing-held', erased: [...erasure.erased], kept: [...erasure.kept], entries: 0 });
          }
        }
        // The person's earlier exports kept here go with the erasure (their files below, once no row names them).
        const dropped = kind === 'erasure' ? await dropPartsOfSubject(attempt, subject, now) : [];
        // And what the outbox and the stored replies of keyed writes still say about them.
        if (kind === 'erasure') await forgetTransientRecords(attempt, [...identifiers]);
        return { features: answered, entries: stored, droppedParts: dropped };
      }));
    } catch (error) {
      const left = await removeFiles(storage, written);
      const reason = reasonOf(error);
      const attempts = await countFailure(host.orm, event, reason, now, left.length === 0);
      host.logger.warn({ err: error, requestId, service, attempts }, 'privacy: a provider failed');
      if (attempts < maxAttempts) throw error;
      const failed: Answer = { requestId, kind, service, status: 'failed', reason, attempts, features: [], export: null, answeredAt: now.toISOString() };
      await connection.execute(
        `update privacy_answers set status = 'failed', answer = ?, answered_at = ?, updated_at = ? where request_id = ?`,
        [JSON.stringify(failed), now, now, requestId],
        'run',
        em.getTransactionContext(),
      );
      recordEvent(em, 'privacy.part.answered', failed, meta);
      return;
    }
    const held = features.some((feature) => feature.status === 'done');
    const attempts = (prior?.attempts ?? 0) + 1;
    const expiresAt = new Date(now.getTime() + PART_RETENTION_DAYS * DAY_MS);
    const keepsPart = kind === 'access' && entries.length > 0;
    const answer: Answer = {
      requestId,
      kind,
      service,
      status: held ? 'done' : 'nothing-held',
      reason: null,
      attempts,
      features,
      export: keepsPart ? { entries: entries.length, sizeBytes: entries.reduce((sum, entry) => sum + entry.sizeBytes, 0), expiresAt: expiresAt.toISOString() } : null,
      answeredAt: now.toISOString(),
    };
    await connection.execute(
      `insert into privacy_answers (request_id, kind, subject_kind, subject_id, status, reason, attempts, answer, entries, answered_at, expires_at, updated_at)
       values (?, ?, ?, ?, ?, null, ?, ?, ?, ?, ?, ?)
       on conflict (request_id) do update set status = excluded.status, reason = null, attempts = excluded.attempts, answer = excluded.answer,
         entries = excluded.entries, answered_at = excluded.answered_at, expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
      [requestId, kind, subject.kind, subject.id, answer.status, attempts, JSON.stringify(answer), keepsPart ? JSON.stringify(entries) : null, now, keepsPart ? expiresAt : null, now],
      'run',
      em.getTransactionContext(),
    );
    recordEvent(em, 'privacy.part.answered', answer, meta);
    // The rows no longer name them: a rolled-back commit leaves rows naming missing files, which the retry empties again.
    await removeFiles(storage, droppedParts);
  };
}

/**
 * Declares `<service>.privacy` bound to `privacy.request.opened` and answers each request with the
 * service's providers (`privacyRequestHandler`); sweeps the parts whose 30 days are over, hourly.
 */
export async function subscribePrivacy(host: PrivacyHost, options: PrivacyOptions): Promise<PrivacySubscription> {
  const handler = privacyRequestHandler(host, options);
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const consumer = await consume(host.broker, {
    // One at a time: a request is rare and may stream files; a failing attempt also takes a second connection to count itself.
    prefetch: 1,
    ...options.consume,
    orm: host.orm,
    queue: options.queue,
    maxAttempts: attempts + 2,
    handlers: { 'privacy.request.opened': handler },
  });
  const sweep = () => sweepExpiredParts(host.orm, options.storage, host.clock.now());
  const stopSweep = runEvery(options.sweepEveryMs ?? 3_600_000, sweep, (error) => host.logger.warn({ err: error }, 'privacy: sweeping expired parts failed'), 'privacy sweep');
  return {
    consumer,
    async stop() {
      await stopSweep();
      await consumer.stop();
    },
  };
}
