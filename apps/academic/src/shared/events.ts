// Payloads of the events academic records (in the outbox, in the transaction of the change).
import type { EntityManager } from '@mikro-orm/postgresql';
import { taxIdDigest, type EventData } from '@academy/contracts';
import { recordEvent, type EventMeta } from '@academy/messaging';

/** `source` of every event this service records. */
export const SOURCE = 'academic';

type EmployeeRecord = {
  id: number;
  userId?: number | null;
  name: string;
  lastname: string;
  email?: string | null;
  active: boolean;
  taxId?: string | null;
  payrollCode?: string | null;
};

/** Payload of `employee.upserted` version 3 (always with `taxIdDigest` and `payrollCode`, never the tax id): what the replicas keep. */
export const employeeUpsertedData = (employee: EmployeeRecord, taxIdDigestKey: string): EventData<'employee.upserted'> => ({
  id: employee.id,
  userId: employee.userId ?? null,
  name: `${employee.name} ${employee.lastname}`.trim(),
  email: employee.email ?? null,
  active: employee.active,
  taxIdDigest: employee.taxId ? taxIdDigest(employee.taxId, taxIdDigestKey) : null,
  payrollCode: employee.payrollCode ?? null,
});

/** Records `employee.upserted` (version 3: the tax id's digest, never the tax id). */
export function recordEmployeeUpserted(em: EntityManager, employee: EmployeeRecord, meta: EventMeta & { taxIdDigestKey: string }): void {
  const { taxIdDigestKey, ...eventMeta } = meta;
  recordEvent(em, 'employee.upserted', employeeUpsertedData(employee, taxIdDigestKey), eventMeta);
}

/** Payload of `school-course.created`: the course (each replica works out the current one itself). */
export const schoolCourseCreatedData = (course: { id: number; name: string; startDate: string; endDate: string }): EventData<'school-course.created'> => ({
  id: course.id,
  name: course.name,
  startDate: course.startDate,
  endDate: course.endDate,
});

type CalendarEventRecord = { id: number; subjectId: number; centerId: number; employeeId?: number | null; startsAt: Date | string; endsAt: Date | string };

/** Payload of `calendar-event.created` / `calendar-event.updated`: the class's whole state (the incidents timetable replica). */
export const calendarEventData = (event: CalendarEventRecord): EventData<'calendar-event.created'> => ({
  id: event.id,
  subjectId: event.subjectId,
  centerId: event.centerId,
  employeeId: event.employeeId ?? null,
  startsAt: new Date(event.startsAt).toISOString(),
  endsAt: new Date(event.endsAt).toISOString(),
});
