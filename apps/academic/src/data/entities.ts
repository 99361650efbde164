import { RefreshToken } from '../auth/refresh-token.entity.ts';
import { User } from './user.entity.ts';
import { Block, Center, Employee, Guardian, Student, Subject } from './directory.entities.ts';
import { CalendarEvent, EmployeeSubject, EventStudent, Registration, SchoolCourse } from './registration.entities.ts';

/** Every MikroORM entity of this service (the outbox and inbox come from @academy/messaging). */
export const entities = [User, RefreshToken, Employee, Guardian, Student, Subject, Block, Center, SchoolCourse, Registration, CalendarEvent, EventStudent, EmployeeSubject];
