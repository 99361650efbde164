import { User } from './shared/entities/user.entity.ts';
import { Block, Center, Employee, Guardian, Student, Subject } from './directory/directory.entities.ts';
import { CalendarEvent, EmployeeSubject, EventStudent, Registration, SchoolCourse } from './shared/entities/registration.entities.ts';
import { RefreshToken } from './shared/entities/refresh-token.entity.ts';
import { blockEntities } from './blocks/student-block.entities.ts';
import { attendanceEntities } from './attendance/attendance.entities.ts';
import { privacyEntities } from '@academy/privacy';

/**
 * Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging).
 * A feature with tables of its own imports its entities here and appends them at the end.
 */
export const entities = [
  User,
  RefreshToken,
  Employee,
  Guardian,
  Student,
  Subject,
  Block,
  Center,
  SchoolCourse,
  Registration,
  CalendarEvent,
  EventStudent,
  EmployeeSubject,
  ...blockEntities,
  ...attendanceEntities,
  ...privacyEntities,
];
