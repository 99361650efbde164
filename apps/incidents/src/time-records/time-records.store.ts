import { isoSql } from '../shared/db.ts';

/** Columns of a time record as the API shows it (`r` = time_records); an open record's worked time runs to `now` (a parameter: the service's clock). */
export const recordColumns = (now: string) => `r.id, r.employee_id as "employeeId", ${isoSql('r.clock_in_at')} as "clockInAt", ${isoSql('r.clock_out_at')} as "clockOutAt",
  r.clock_in_source as "clockInSource", r.clock_in_device_id as "clockInDeviceId", r.clock_out_source as "clockOutSource",
  r.clock_out_device_id as "clockOutDeviceId",
  floor(extract(epoch from coalesce(r.clock_out_at, ${now}::timestamptz) - r.clock_in_at) / 60)::int as "workedMinutes"`;
