import { isoSql } from '../shared/db.ts';

/** Columns of a time record as the API shows it (`r` = time_records). */
export const RECORD_COLUMNS = `r.id, r.employee_id as "employeeId", ${isoSql('r.clock_in_at')} as "clockInAt", ${isoSql('r.clock_out_at')} as "clockOutAt",
  r.clock_in_source as "clockInSource", r.clock_in_device_id as "clockInDeviceId", r.clock_out_source as "clockOutSource",
  r.clock_out_device_id as "clockOutDeviceId",
  floor(extract(epoch from coalesce(r.clock_out_at, now()) - r.clock_in_at) / 60)::int as "workedMinutes"`;
