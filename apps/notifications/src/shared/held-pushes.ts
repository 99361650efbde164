// Pushes held during their recipient's quiet hours (table `held_pushes`), and the sender that sends
// each once when they end: rows due at `clock.now()` are claimed FOR UPDATE SKIP LOCKED in a
// transaction held while they are sent (another instance skips them), each sent through `sendPush`
// under the key `held-push:<id>` (a row whose transaction died after its send is not sent twice), and
// marked sent when the transaction commits.
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { PushSendBody } from '@academy/contracts';
import { runEvery, type Clock, type Logger } from '@academy/kit';
import type { PushProvider } from './push-provider.ts';
import { sendPush } from './send-push.ts';

type HeldMessage = Omit<PushSendBody, 'userIds' | 'idempotencyKey'>;

/** Holds `message` for each user until their quiet hours end (`releaseAt` per user). */
export async function holdPushes(em: EntityManager, eventType: string, message: HeldMessage, releaseAt: Map<number, Date>, now: Date): Promise<void> {
  if (!releaseAt.size) return;
  const rows = [...releaseAt];
  await em.execute(
    `insert into held_pushes (user_id, event_type, message, release_at, created_at) values ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    rows.flatMap(([userId, at]) => [userId, eventType, JSON.stringify(message), at, now]),
    'run',
  );
}

const BATCH = 100;

/** Sends the held pushes due at `now`; answers how many this run sent. */
export async function releaseHeldPushes(orm: MikroORM, push: PushProvider, now: Date): Promise<number> {
  return orm.em.fork().transactional(async (tx) => {
    const due = await tx.execute<{ id: string; user_id: number; event_type: string; message: HeldMessage }[]>(
      `select id, user_id, event_type, message from held_pushes where sent_at is null and release_at <= ? order by release_at, id limit ${BATCH} for update skip locked`,
      [now],
    );
    for (const held of due) {
      await sendPush(orm.em.fork(), push, { ...held.message, userIds: [held.user_id], idempotencyKey: `held-push:${held.id}` }, { eventType: held.event_type, now, quietHoursChecked: true });
    }
    if (due.length) await tx.execute(`update held_pushes set sent_at = ? where id = any(?::bigint[])`, [now, `{${due.map((held) => held.id).join(',')}}`]);
    return due.length;
  });
}

/** Runs `releaseHeldPushes` every `intervalMs` (0: off, tests call it); returns its stop, which waits for a run in flight. */
export function startHeldPushSender(deps: { orm: MikroORM; push: PushProvider; clock: Clock; logger: Logger }, intervalMs: number): () => Promise<void> {
  return runEvery(
    intervalMs,
    async () => {
      const sent = await releaseHeldPushes(deps.orm, deps.push, deps.clock.now());
      if (sent) deps.logger.info({ sent }, 'held pushes sent (quiet hours over)');
    },
    (error) => deps.logger.warn({ err: error }, 'held push sender failed; the next run retries'),
    'held pushes',
  );
}
