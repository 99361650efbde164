// Admin CRUD of the academy's people and structure. Deleting deactivates (the rows are referenced
// by registrations and history), except registrations and calendar events, which are deleted.
import { calendarEventsApi, centersApi, employeesApi, guardiansApi, registrationsApi, studentsApi, subjectsApi, usersApi } from '@academy/contracts';
import { resourceRoutes } from './resource-router.ts';
import { users } from './users.ts';
import { employees } from './employees.ts';
import { students } from './students.ts';
import { guardians } from './guardians.ts';
import { subjects } from './subjects.ts';
import { centers } from './centers.ts';
import { registrations } from './registrations.ts';
import { calendarEvents } from './calendar-events.ts';

/** The directory's resources (users, employees, students, guardians, subjects, centers, registrations, calendar events), each its five routes: admins only. */
export const directoryRoutes = [
  resourceRoutes(usersApi, users),
  resourceRoutes(employeesApi, employees),
  resourceRoutes(studentsApi, students),
  resourceRoutes(guardiansApi, guardians),
  resourceRoutes(subjectsApi, subjects),
  resourceRoutes(centersApi, centers),
  resourceRoutes(registrationsApi, registrations),
  resourceRoutes(calendarEventsApi, calendarEvents),
];

/** The directory's route families, for the start's check that each route has a handler. */
export const directoryFamilies = [usersApi, employeesApi, studentsApi, guardiansApi, subjectsApi, centersApi, registrationsApi, calendarEventsApi].map((api) => api.family);
