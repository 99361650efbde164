import type { EventHandler } from '@academy/messaging';
import { runReplicaSql } from './replica-sql.ts';

export const onSchoolCourseCreated: EventHandler<'school-course.created'> = async (em, event) => {
  const { id, name, startDate, endDate } = event.data;
  await runReplicaSql(
    em,
    `insert into school_courses (id, name, start_date, end_date, deleted, source_version) values (?, ?, ?, ?, false, ?)
     on conflict (id) do update set name = excluded.name, start_date = excluded.start_date, end_date = excluded.end_date,
       deleted = false, source_version = excluded.source_version
     where school_courses.source_version <= excluded.source_version`,
    [id, name, startDate, endDate, event.occurredAt],
  );
};
