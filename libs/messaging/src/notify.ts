import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@academy/kit';

/** Channel notified by the outbox's insert trigger. */
export const OUTBOX_CHANNEL = 'academy_outbox';

const FUNCTION_SQL = `create or replace function academy_outbox_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('${OUTBOX_CHANNEL}', pg_current_xact_id()::text);
  return null;
end
$$`;

/**
 * Installs, idempotently, the statement trigger `outbox_notify` on `outbox`: every statement that
 * inserts outbox rows (the ORM's flush, hours-bank's raw SQL) sends `NOTIFY academy_outbox` with the
 * transaction's id as payload, delivered to listeners when its transaction commits, and once per
 * transaction however many rows (PostgreSQL folds identical notifications). The relay skips a
 * notification whose transaction its last claim already saw (the in-process wake got there first). It runs at each relay start rather than in each
 * service's migrations, so every service that has the outbox gets it without a migration of its own;
 * an advisory lock serializes instances starting together, and nothing is rewritten (nor the table
 * locked) when the trigger is already there.
 */
export async function ensureOutboxNotify(orm: MikroORM): Promise<void> {
  await orm.em.fork().transactional(async (tx) => {
    const connection = tx.getConnection();
    const trx = tx.getTransactionContext();
    await connection.execute(`select pg_advisory_xact_lock(hashtext('academy_outbox_notify'))`, [], 'all', trx);
    const [current] = await connection.execute<{ function: boolean; trigger: boolean }[]>(
      `select exists (select 1 from pg_proc where proname = 'academy_outbox_notify' and pg_get_functiondef(oid) like ?) as function,
              exists (select 1 from pg_trigger where tgname = 'outbox_notify' and tgrelid = 'outbox'::regclass) as trigger`,
      [`%pg_notify('${OUTBOX_CHANNEL}', pg_current_xact_id()::text)%`],
      'all',
      trx,
    );
    if (!current.function) await connection.execute(FUNCTION_SQL, [], 'run', trx);
    if (!current.trigger) await connection.execute(`create trigger outbox_notify after insert on outbox for each statement execute function academy_outbox_notify()`, [], 'run', trx);
  });
}

export interface OutboxListener {
  /** True while the LISTEN connection is up. */
  readonly connected: boolean;
  /** The LISTEN connection while it is up (statements may run on it between notifications), else null. */
  readonly client: pg.Client | null;
  /** Settles after the first attempt: true when listening, false when it failed (retried in the background). */
  readonly firstConnect: Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * A dedicated connection (outside the pool) that LISTENs on `channel` and calls `onNotify` for each
 * notification with its payload, and once without after every (re)connection for what was committed meanwhile. A lost
 * connection is reopened with backoff (200 ms doubling to 5 s). The relay runs its own statements on
 * it too (`client`), never held up by a busy pool.
 */
export function listenForOutbox(options: {
  clientUrl: string;
  channel: string;
  onNotify: (payload?: string) => void;
  logger: Logger;
  /** Statements run on each new connection before it listens (the relay's session settings). */
  sessionSql?: readonly string[];
}): OutboxListener {
  const { clientUrl, channel, onNotify, logger, sessionSql = [] } = options;
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let delayMs = 200;
  let settleFirst: (listening: boolean) => void = () => undefined;
  const firstConnect = new Promise<boolean>((resolve) => {
    settleFirst = resolve;
  });

  const scheduleReconnect = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, delayMs);
    delayMs = Math.min(delayMs * 2, 5000);
  };

  const drop = (lost: pg.Client, error?: Error) => {
    if (client !== lost) return;
    client = null;
    if (!stopped) logger.warn({ err: error }, 'outbox LISTEN connection lost; polling until it is back');
    void lost.end().catch(() => undefined);
    scheduleReconnect();
  };

  const connect = async () => {
    const candidate = new pg.Client({ connectionString: clientUrl, keepAlive: true, application_name: 'outbox-relay-listen' });
    candidate.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload);
    });
    candidate.on('error', (error) => drop(candidate, error));
    candidate.on('end', () => drop(candidate));
    try {
      await candidate.connect();
      for (const sql of sessionSql) await candidate.query(sql);
      await candidate.query(`listen ${channel}`);
    } catch (error) {
      logger.warn({ err: error }, 'outbox LISTEN failed; polling until it works');
      void candidate.end().catch(() => undefined);
      settleFirst(false);
      scheduleReconnect();
      return;
    }
    if (stopped) {
      await candidate.end().catch(() => undefined);
      settleFirst(false);
      return;
    }
    client = candidate;
    delayMs = 200;
    settleFirst(true);
    onNotify();
  };

  void connect();
  return {
    get connected() {
      return client !== null;
    },
    get client() {
      return client;
    },
    firstConnect,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
