import type { EventHandler } from '@academy/messaging';
import { runReplicaSql } from './replica-sql.ts';

/** Keeps a tombstone, so a late `employee.upserted` of before the deletion does not bring it back. */
export const onEmployeeDeleted: EventHandler<'employee.deleted'> = async (em, event) => {
  await runReplicaSql(
    em,
    `insert into employees (id, active, deleted, source_version) values (?, false, true, ?)
     on conflict (id) do update set active = false, deleted = true, source_version = excluded.source_version
     where employees.source_version <= excluded.source_version`,
    [event.data.id, event.occurredAt],
  );
};
