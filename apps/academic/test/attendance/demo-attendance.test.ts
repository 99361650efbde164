import { describe, expect, test } from '@jest/globals';
import { seedDemoData } from '../../src/seed.ts';
import { adminToken, useAttendance } from './attendance-support.ts';

describe('demo attendance in the seed', () => {
  const { world: w, service } = useAttendance('2026-11-25T12:00:00Z');

  test('the seeded past classes have sheets, and one student is under the threshold, flagged by the report and warned about', async () => {
    const seeded = await seedDemoData(service().ctx.orm, { now: new Date('2026-11-25T12:00:00Z') });
    expect(seeded.counts!.attendanceSheets).toBeGreaterThan(15 * 4 - 5);
    expect(seeded.counts!.underAttendanceThreshold).toBe(1);
    const [{ missing }] = await w.f.query<{ missing: number }>(
      `select count(*)::int as missing from calendar_events e where e.ends_at <= '2026-11-25T12:00:00Z' and exists (select 1 from event_students es where es.event_id = e.id)
          and not exists (select 1 from attendance_sheets s where s.event_id = e.id)`,
    );
    expect(missing).toBe(0);
    const report = await w.api().get('/api/v2/attendance/report?from=2026-10-01&to=2026-11-30&below=80').set(adminToken);
    expect(report.status).toBe(200);
    expect(report.body.data).toHaveLength(1);
    expect(report.body.data[0].sessions).toBeGreaterThanOrEqual(4);
    const warnings = await w.outbox<{ studentId: number; guardian: unknown }>('attendance.threshold-crossed');
    expect(warnings.map((warning) => warning.studentId)).toEqual([report.body.data[0].studentId]);
    expect(warnings[0]!.guardian).not.toBeNull();
    expect(await w.outbox('calendar-event.created')).toHaveLength(seeded.counts!.calendarEvents);
  });
});
