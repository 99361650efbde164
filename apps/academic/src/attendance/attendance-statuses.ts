// The academy's set of attendance statuses: read by everyone, replaced whole by an admin.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttendanceStatusItem, AttendanceStatusesBody } from '@academy/contracts';
import { pgArray } from '@academy/db';
import { statusInUse } from './attendance.errors.ts';

export async function listStatuses(em: EntityManager): Promise<AttendanceStatusItem[]> {
  return em.execute<AttendanceStatusItem[]>(`select code, name, weight::float8 as weight from attendance_statuses order by position, code`);
}

/**
 * Replaces the set: the given statuses are upserted in their order, the others removed. A status
 * still used by marks cannot be removed (409 naming it; the foreign key guards a race).
 */
export async function replaceStatuses(em: EntityManager, body: AttendanceStatusesBody): Promise<AttendanceStatusItem[]> {
  const codes = body.statuses.map((status) => status.code);
  await em.transactional(async (tx) => {
    await tx.execute(`lock table attendance_statuses in share row exclusive mode`);
    const used = await tx.execute<{ code: string }[]>(
      `select s.code from attendance_statuses s where not (s.code = any(?::text[])) and exists (select 1 from attendance_marks m where m.status = s.code) order by s.code`,
      [pgArray(codes)],
    );
    if (used.length) throw statusInUse(used.map((row) => row.code));
    await tx.execute(`delete from attendance_statuses where not (code = any(?::text[]))`, [pgArray(codes)]);
    await tx.execute(
      `insert into attendance_statuses (code, name, weight, position, updated_at)
       select x.code, x.name, x.weight, x.position, now() from jsonb_to_recordset(?::jsonb) as x(code text, name text, weight numeric, position int)
       on conflict (code) do update set name = excluded.name, weight = excluded.weight, position = excluded.position, updated_at = now()`,
      [JSON.stringify(body.statuses.map((status, position) => ({ ...status, position })))],
    );
  });
  return listStatuses(em);
}
