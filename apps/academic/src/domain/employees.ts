import type { EventData } from '@academy/contracts';

type EmployeeRecord = { id: number; userId?: number | null; name: string; lastname: string; email?: string | null; active: boolean };

/** Payload of `employee.upserted`: what the hours-bank and incidents replicas keep. */
export const employeeUpsertedData = (employee: EmployeeRecord): EventData<'employee.upserted'> => ({
  id: employee.id,
  userId: employee.userId ?? null,
  name: `${employee.name} ${employee.lastname}`.trim(),
  email: employee.email ?? null,
  active: employee.active,
});
