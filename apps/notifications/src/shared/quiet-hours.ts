// A user's quiet hours for push (table `quiet_hours`): set with the preferences, read by the push
// path to hold a non-critical push until they end.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { QuietHours } from '@academy/contracts';
import { pgArray } from '@academy/db';

export async function readQuietHours(em: EntityManager, userId: number): Promise<QuietHours | null> {
  const [row] = await em
    .getConnection()
    .execute<{ start: string; end: string; timeZone: string }[]>(
      `select to_char(start_time, 'HH24:MI') as start, to_char(end_time, 'HH24:MI') as "end", time_zone as "timeZone" from quiet_hours where user_id = ?`,
      [userId],
      'all',
      em.getTransactionContext(),
    );
  return row ?? null;
}

/** Sets (or, with null, removes) the user's quiet hours. */
export async function writeQuietHours(em: EntityManager, userId: number, quietHours: QuietHours | null, now: Date): Promise<void> {
  if (!quietHours) {
    await em.getConnection().execute(`delete from quiet_hours where user_id = ?`, [userId], 'run', em.getTransactionContext());
    return;
  }
  await em.getConnection().execute(
    `insert into quiet_hours (user_id, start_time, end_time, time_zone, updated_at) values (?, ?::time, ?::time, ?, ?)
     on conflict (user_id) do update set start_time = excluded.start_time, end_time = excluded.end_time, time_zone = excluded.time_zone, updated_at = excluded.updated_at`,
    [userId, quietHours.start, quietHours.end, quietHours.timeZone, now],
    'run',
    em.getTransactionContext(),
  );
}

/**
 * Of the users, those in their quiet hours at `now`, each with the instant they end (the next local
 * `end` after `now`, in their zone: PostgreSQL places it, DST included). A span whose start is after
 * its end runs over midnight. One read of the primary key.
 */
export async function inQuietHours(em: EntityManager, userIds: number[], now: Date): Promise<Map<number, Date>> {
  if (!userIds.length) return new Map();
  const rows = await em.execute<{ user_id: number; release_at: Date | string }[]>(
    `with q as (select user_id, start_time, end_time, time_zone, (?::timestamptz at time zone time_zone) as local from quiet_hours where user_id = any(?::int[]))
     select user_id,
            case when ((local::date + end_time) at time zone time_zone) > ?::timestamptz then (local::date + end_time) at time zone time_zone
                 else ((local::date + 1 + end_time) at time zone time_zone) end as release_at
       from q
      where case when start_time < end_time then local::time >= start_time and local::time < end_time
                 else local::time >= start_time or local::time < end_time end`,
    [now, pgArray(userIds), now],
    'all',
  );
  return new Map(rows.map((row) => [row.user_id, new Date(row.release_at)]));
}
