/** A school course as the routes answer it. */
export type SchoolCourseRow = { id: number; name: string; startDate: string; endDate: string; createdAt: Date };

export const schoolCourseItem = (course: SchoolCourseRow, latestId: number | null) => ({
  id: course.id,
  name: course.name,
  startDate: String(course.startDate),
  endDate: String(course.endDate),
  isLatest: course.id === latestId,
  createdAt: course.createdAt.toISOString(),
});
