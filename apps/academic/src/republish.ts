// Catch-up for a new consumer deployment (e.g. a fresh hours-bank whose employee and school-course
// replicas are empty): `npm run republish:academic` (node apps/academic/src/republish.ts) records an
// `employee.upserted` for every employee (inactive ones with active=false) and a
// `school-course.created` for every course and a `calendar-event.created` for every class (the
// incidents timetable) into the outbox; the running academic service's relay
// publishes them. Consumers upsert, so replaying onto an up-to-date replica changes nothing.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { recordEvent } from '@academy/messaging';
import { withServiceOrm } from '@academy/service';
import { readConfig } from './config.ts';
import { academicService } from './service.ts';
import { Employee } from './directory/directory.entities.ts';
import { CalendarEvent, SchoolCourse } from './shared/entities/registration.entities.ts';
import { SOURCE, calendarEventData, recordEmployeeUpserted, schoolCourseCreatedData } from './shared/events.ts';

export async function republishAll(orm: MikroORM, taxIdDigestKey: string, correlationId = `republish-${new Date().toISOString()}`) {
  return orm.em.fork().transactional(async (em) => {
    const employees = await em.find(Employee, {}, { orderBy: { id: 'asc' } });
    const courses = await em.find(SchoolCourse, {}, { orderBy: [{ startDate: 'asc' }, { id: 'asc' }] });
    for (const employee of employees) recordEmployeeUpserted(em, employee, { source: SOURCE, correlationId, taxIdDigestKey });
    for (const course of courses) recordEvent(em, 'school-course.created', schoolCourseCreatedData(course), { source: SOURCE, correlationId });
    const events = await em.find(CalendarEvent, {}, { orderBy: { id: 'asc' } });
    for (const event of events) recordEvent(em, 'calendar-event.created', calendarEventData(event), { source: SOURCE, correlationId });
    return { employees: employees.length, schoolCourses: courses.length, calendarEvents: events.length };
  });
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const config = readConfig();
  const counts = await withServiceOrm(academicService, config, (orm) => republishAll(orm, config.TAX_ID_DIGEST_KEY));
  console.log(`Recorded ${counts.employees} employee.upserted, ${counts.schoolCourses} school-course.created and ${counts.calendarEvents} calendar-event.created events in the outbox; the academic service publishes them.`);
}
