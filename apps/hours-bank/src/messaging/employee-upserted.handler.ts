import type { EventHandler } from '@academy/messaging';
import { runReplicaSql } from './replica-sql.ts';

export const onEmployeeUpserted: EventHandler<'employee.upserted'> = async (em, event) => {
  const { id, userId, name, email, active } = event.data;
  await runReplicaSql(
    em,
    `insert into employees (id, user_id, name, email, active, deleted, source_version) values (?, ?, ?, ?, ?, false, ?)
     on conflict (id) do update set user_id = excluded.user_id, name = excluded.name, email = excluded.email, active = excluded.active,
       deleted = false, source_version = excluded.source_version
     where employees.source_version <= excluded.source_version`,
    [id, userId, name, email, active, event.occurredAt],
  );
};
