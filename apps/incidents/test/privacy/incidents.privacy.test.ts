import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import type { PrivacySubject } from '@academy/contracts';
import { personalFieldNames, type ProviderContext } from '@academy/privacy';
import { INCIDENTS_PERSONAL_FIELDS, incidentsPrivacy } from '../../src/privacy/incidents.privacy.ts';
import request from 'supertest';
import { runScheduledCheck } from '../../src/checks/run-scheduled-check.ts';
import { purgeKeptTimeRecords } from '../../src/privacy/purge-kept-time-records.ts';
import { recordIncident } from '../../src/shared/record-incident.ts';
import { incidentsService } from '../../src/service.ts';
import { adminAuth, insertRecord, seedEmployee, sql, useIncidents } from '../support.ts';

const NOW = new Date('2026-11-27T10:00:00Z');

describe("incidents' part of a personal data request", () => {
  const service = useIncidents();
  const providers = () => incidentsPrivacy({ storage: service().deps.storage, timeZone: service().ctx.config.ACADEMY_TIME_ZONE });
  const inTransaction = <T>(run: (ctx: ProviderContext) => Promise<T>, subject: PrivacySubject) =>
    service().ctx.orm.em.fork().transactional((em) => run({ em, subject, requestId: randomUUID(), now: NOW, locale: 'es' }));

  /** An employee with two time records (one clocked with a device) and an absence incident with one message. */
  async function employeeWithRecords() {
    const employee = await seedEmployee(service());
    const id = employee.employeeId as number;
    await insertRecord(service(), id, '2026-03-09T08:00:00Z', '2026-03-09T15:00:00Z');
    await insertRecord(service(), id, '2026-03-10T08:00:00Z', '2026-03-10T14:00:00Z');
    await sql(service(), `update time_records set clock_in_device_id = 'phone-1' where employee_id = $1 and clock_in_at = '2026-03-10T08:00:00Z'`, [id]);
    const [incident] = await sql<{ id: number }>(
      service(),
      `insert into incidents (employee_id, employee_user_id, kind, severity, status, description, day, created_at, updated_at)
       values ($1, null, 'ABSENCE', 'medium', 'open', $2, '2026-03-11', '2026-03-11T10:00:00Z', '2026-03-11T10:00:00Z') returning id`,
      [id, `No clock-in of ${id}`],
    );
    await sql(service(), `insert into incident_messages (incident_id, author_role, author_user_id, body, created_at) values ($1, 'employee', null, $2, '2026-03-11T11:00:00Z')`, [incident!.id, `I was ill (${id})`]);
    const subject: PrivacySubject = { kind: 'employee', id, userId: null, email: null };
    return { id, incidentId: incident!.id, subject };
  }

  /**
   * Runs the erasure of `subject` in a transaction held open after its providers ran, starts `write`
   * then, and commits the erasure 300 ms later: a write serialized with the erasure waits for its
   * commit; one that is not lands at once, beside the erasure. Answers what `write` answered.
   */
  async function writeDuringErasure<T>(subject: PrivacySubject, write: () => Promise<T>): Promise<T> {
    let commitErasure!: () => void;
    const erasureMayCommit = new Promise<void>((resolve) => (commitErasure = resolve));
    let erased!: () => void;
    const erasureHasRun = new Promise<void>((resolve) => (erased = resolve));
    const erasing = inTransaction(async (ctx) => {
      for (const provider of providers()) await provider.erase(ctx);
      erased();
      await erasureMayCommit;
    }, subject);
    await erasureHasRun;
    const writing = write();
    await Promise.race([writing, new Promise((resolve) => setTimeout(resolve, 300))]);
    commitErasure();
    await erasing;
    return writing;
  }

  test('a clock-in of the person that arrives while the erasure commits is refused (403): no time record escapes the restriction', async () => {
    const employee = await seedEmployee(service());
    const subject: PrivacySubject = { kind: 'employee', id: employee.employeeId, userId: null, email: null };
    const clockIn = await writeDuringErasure(subject, () => request(service().url).post('/api/v2/timerecord/clock-in').set(employee.auth).send({ source: 'App', deviceId: 'phone-1' }).then((res) => res));
    expect(clockIn.status).toBe(403);
    expect(await sql(service(), `select id from time_records where employee_id = $1 and restricted_at is null`, [employee.employeeId])).toEqual([]);
  });

  test('a clock-out of the person that arrives while the erasure commits is refused (403 EMPLOYEE_DELETED): no device id is written back into the restricted record', async () => {
    const employee = await seedEmployee(service());
    await insertRecord(service(), employee.employeeId, '2026-11-27T08:00:00Z', null);
    const subject: PrivacySubject = { kind: 'employee', id: employee.employeeId, userId: null, email: null };
    const clockOut = await writeDuringErasure(subject, () => request(service().url).post('/api/v2/timerecord/clock-out').set(employee.auth).send({ source: 'App', deviceId: 'phone-2' }).then((res) => res));
    expect([clockOut.status, clockOut.body.code]).toEqual([403, 'EMPLOYEE_DELETED']);
    expect(await sql(service(), `select clock_out_at, clock_out_device_id, restricted_at is not null as restricted from time_records where employee_id = $1`, [employee.employeeId])).toEqual([
      { clock_out_at: null, clock_out_device_id: null, restricted: true },
    ]);
  });

  test('an incident raised about the person while the erasure commits is not raised: none outlives the erasure', async () => {
    const { id, subject } = await employeeWithRecords();
    const [next] = await sql<{ id: number }>(service(), `select nextval('incidents_id_seq')::int as id`);
    const raised = await writeDuringErasure(subject, () =>
      recordIncident(
        service().deps,
        { id: next!.id, employeeId: id, employeeUserId: null, kind: 'ABSENCE', description: `No clock-in of ${id}`, source: null, deviceId: null, timeRecordId: null, day: '2026-11-26', proposedEndAt: null },
        null,
      ),
    );
    expect(raised).toBe(false);
    expect(await sql(service(), `select id from incidents where employee_id = $1`, [id])).toEqual([]);
  });

  test('the export holds the incidents with their thread and every daily time record, field by field', async () => {
    const { id, incidentId, subject } = await employeeWithRecords();
    await employeeWithRecords();
    const [incidents, timeRecords] = await inTransaction((ctx) => Promise.all(providers().slice(0, 2).map((provider) => provider.export(ctx))), subject);
    expect(incidents?.data).toEqual({
      incidents: [
        expect.objectContaining({
          id: incidentId,
          kind: 'ABSENCE',
          status: 'open',
          description: `No clock-in of ${id}`,
          day: '2026-03-11',
          createdAt: '2026-03-11T10:00:00.000Z',
          messages: [expect.objectContaining({ authorRole: 'employee', text: `I was ill (${id})`, createdAt: '2026-03-11T11:00:00.000Z' })],
          files: [],
        }),
      ],
    });
    expect(timeRecords?.data).toEqual({
      timeRecords: [
        expect.objectContaining({ clockInAt: '2026-03-09T08:00:00.000Z', clockOutAt: '2026-03-09T15:00:00.000Z', clockInDeviceId: null, restrictedAt: null }),
        expect.objectContaining({ clockInAt: '2026-03-10T08:00:00.000Z', clockOutAt: '2026-03-10T14:00:00.000Z', clockInDeviceId: 'phone-1', restrictedAt: null }),
      ],
    });
  });

  test('erasure deletes the incidents and their threads, keeps the time records restricted 4 years after the last day (devices forgotten), blanks the replica; a second erasure erases nothing more', async () => {
    const { id, subject } = await employeeWithRecords();
    const other = await employeeWithRecords();
    const erase = () => inTransaction((ctx) => Promise.all(providers().map((provider) => provider.erase(ctx))), subject);
    const kept = { what: 'daily time records (2)', legalBasis: expect.stringContaining('34.9'), until: '2030-03-11' };
    expect(await erase()).toEqual([
      { erased: [{ what: 'incidents', count: 1 }, { what: 'incident messages', count: 1 }, { what: 'incident files', count: 0 }], kept: [] },
      { erased: [{ what: 'devices of the daily time records', count: 1 }], kept: [kept] },
      { erased: [{ what: 'employee record (replica)', count: 1 }], kept: [], identifiers: expect.arrayContaining([expect.any(String)]) },
    ]);
    expect(await sql(service(), `select id from incidents where employee_id = $1`, [id])).toEqual([]);
    expect(await sql(service(), `select id from incident_messages where body like $1`, [`%(${id})`])).toEqual([]);
    expect(await sql(service(), `select clock_in_device_id, restricted_at is not null as restricted from time_records where employee_id = $1`, [id])).toEqual([
      { clock_in_device_id: null, restricted: true },
      { clock_in_device_id: null, restricted: true },
    ]);
    expect(await sql(service(), `select name, deleted from employees where id = $1`, [id])).toEqual([{ name: null, deleted: true }]);
    expect(await sql(service(), `select count(*)::int as n from incidents where employee_id = $1`, [other.id])).toEqual([{ n: 1 }]);
    expect(await erase()).toEqual([{ erased: [], kept: [] }, { erased: [], kept: [kept] }, { erased: [], kept: [] }]);
  });

  test('kept time records are restricted: an admin\'s history of the erased employee shows none, and the check flags no record of theirs left open', async () => {
    const { id, subject } = await employeeWithRecords();
    await insertRecord(service(), id, '2026-03-12T08:00:00Z', null);
    const history = () => request(service().url).get('/api/v2/timerecord/history').query({ employeeId: id, from: '2026-03-01', to: '2026-03-31' }).set(adminAuth);
    expect((await history()).body.data.length).toBeGreaterThan(0);
    await inTransaction((ctx) => Promise.all(providers().map((provider) => provider.erase(ctx))), subject);
    const restricted = await history();
    expect(restricted.status).toBe(200);
    expect(restricted.body.data).toEqual([]);
    await runScheduledCheck(service().deps, { now: new Date('2026-03-14T10:00:00Z') });
    expect(await sql(service(), `select kind from incidents where employee_id = $1`, [id])).toEqual([]);
  });

  test('kept time records are deleted by the housekeeping on the day the erasure listed as until, not a day before; records not kept stay', async () => {
    const { id, subject } = await employeeWithRecords();
    const other = await employeeWithRecords();
    // The file's other tests erase employees with records of the same days: what they kept goes first, so the counts below are this employee's.
    await purgeKeptTimeRecords(service().deps, { now: new Date('2030-03-11T12:00:00Z') });
    const [, outcome] = await inTransaction((ctx) => Promise.all(providers().map((provider) => provider.erase(ctx))), subject);
    expect(outcome!.kept).toEqual([expect.objectContaining({ until: '2030-03-11' })]);
    const count = async (employeeId: number) => (await sql<{ n: number }>(service(), `select count(*)::int as n from time_records where employee_id = $1`, [employeeId]))[0]!.n;
    expect(await purgeKeptTimeRecords(service().deps, { now: new Date('2030-03-10T12:00:00Z') })).toEqual({ timeRecords: 0 });
    expect(await count(id)).toBe(2);
    expect(await purgeKeptTimeRecords(service().deps, { now: new Date('2030-03-11T12:00:00Z') })).toEqual({ timeRecords: 2 });
    expect([await count(id), await count(other.id)]).toEqual([0, 2]);
    expect(await purgeKeptTimeRecords(service().deps, { now: new Date('2030-03-11T12:00:00Z') })).toEqual({ timeRecords: 0 });
  });

  test('the service logger redacts every field its providers declare personal', () => {
    expect(incidentsService.personalFields).toEqual(personalFieldNames(providers()));
    expect(INCIDENTS_PERSONAL_FIELDS).toEqual(expect.arrayContaining(['clockInAt', 'text', 'description', 'email']));
  });
});
