import type { EventHandler } from '@academy/messaging';
import { runReplicaSql } from './replica-sql.ts';

export const onSchoolCourseDeleted: EventHandler<'school-course.deleted'> = async (em, event) => {
  await runReplicaSql(
    em,
    `insert into school_courses (id, deleted, source_version) values (?, true, ?)
     on conflict (id) do update set deleted = true, source_version = excluded.source_version
     where school_courses.source_version <= excluded.source_version`,
    [event.data.id, event.occurredAt],
  );
};
