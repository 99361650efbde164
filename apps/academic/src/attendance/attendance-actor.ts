/** Who calls an attendance route, from their token. */
export interface AttendanceActor {
  userId: number;
  role: 'admin' | 'user';
  employeeId: number | null;
  correlationId: string;
}

export const isAdmin = (actor: AttendanceActor) => actor.role === 'admin';
