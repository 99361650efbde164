// Replicas of academic's employees and school courses, for every service that needs them. See README.md.
export { EmployeeReplica, SchoolCourseReplica, replicaEntities } from './entities.ts';
export { replicaHandlers, onEmployeeUpserted, onEmployeeDeleted, onSchoolCourseCreated, onSchoolCourseDeleted } from './handlers.ts';
export {
  CalendarEventReplica,
  EmployeeFirstSeen,
  timetableReplicaEntities,
  timetableReplicaHandlers,
  onCalendarEventChanged,
  onCalendarEventDeleted,
  onEmployeeUpsertedFirstSeen,
} from './timetable.ts';
export { subscribeReplicas, type ReplicaHost } from './subscribe.ts';
export { CHOSEN_SCHOOL_COURSE_SQL, chosenSchoolCourseId } from './school-course.ts';
export { employeeReplicaPrivacy } from './privacy.ts';
