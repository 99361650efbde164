import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { clockFrom } from '@academy/kit';
import { openApiResponseValidator } from '@academy/testing/openapi';
import { adminAuth, outboxEvents, seedEmployee, sql, useIncidents, type IncidentsService } from './support.ts';

const clockIn = '/api/v2/timerecord/clock-in';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Every file under the storage folder. */
function storedFiles(service: IncidentsService): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
  return walk(service.ctx.config.FILES_DIR);
}

describe('Idempotency-Key on the incidents service', () => {
  const service = useIncidents({}, { clock: clockFrom('2027-01-06T08:00:00Z') });
  const api = () => request(service().url);
  const validator = openApiResponseValidator();

  const count = async (text: string, params: unknown[]) => (await sql<{ n: number }>(service(), text, params))[0]!.n;
  const recordsOf = (employeeId: number) => count('select count(*)::int as n from time_records where employee_id = $1', [employeeId]);
  const incidentsOf = (employeeId: number) => count('select count(*)::int as n from incidents where employee_id = $1', [employeeId]);
  const keysNamed = (key: string) => count('select count(*)::int as n from idempotency_keys where key = $1', [key]);

  describe('POST /api/v2/timerecord/clock-in', () => {
    test('a retry after the first commit answers the same 201, replayed: no second record, no CLOCK_IN_WHILE_OPEN incident', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      const first = await api().post(clockIn).set(auth).set('Idempotency-Key', 'in-retry').send({ source: 'App', deviceId: 'phone' });
      const again = await api().post(clockIn).set(auth).set('Idempotency-Key', 'in-retry').send({ source: 'App', deviceId: 'phone' });

      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await recordsOf(employeeId)).toBe(1);
      expect(await incidentsOf(employeeId)).toBe(0);
      expect((await outboxEvents(service(), 'incident.created')).filter((event) => event.data.employeeId === employeeId)).toHaveLength(0);
    });

    test('20 concurrent clock-ins with one key run once: one record, no incident, the others replayed or 409 Retry-After 1', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      const answers = await Promise.all(Array.from({ length: 20 }, () => api().post(clockIn).set(auth).set('Idempotency-Key', 'in-race').send({ source: 'Web' })));

      expect(answers.filter((res) => res.status === 201 && res.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      for (const res of answers.filter((answer) => answer.status !== 201)) {
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
        expect(res.headers['retry-after']).toBe('1');
        expect(validator.departures('post', '/api/v2/timerecord/clock-in', res)).toEqual([]);
      }
      expect(await recordsOf(employeeId)).toBe(1);
      expect(await incidentsOf(employeeId)).toBe(0);
    });

    test('the same key with another body is 422 naming the key, and records nothing more', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      await api().post(clockIn).set(auth).set('Idempotency-Key', 'in-other').send({ source: 'Web' }).expect(201);
      const res = await api().post(clockIn).set(auth).set('Idempotency-Key', 'in-other').send({ source: 'App' });

      expect(res.status).toBe(422);
      expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(res.body.message).toMatch(/Idempotency-Key/);
      expect(validator.departures('post', '/api/v2/timerecord/clock-in', res)).toEqual([]);
      expect(await recordsOf(employeeId)).toBe(1);
      expect(await incidentsOf(employeeId)).toBe(0);
    });

    test("another employee's equal key is their own: their clock-in runs", async () => {
      const first = await seedEmployee(service());
      const second = await seedEmployee(service());
      await api().post(clockIn).set(first.auth).set('Idempotency-Key', 'in-shared').send({ source: 'Web' }).expect(201);
      const res = await api().post(clockIn).set(second.auth).set('Idempotency-Key', 'in-shared').send({ source: 'Web' });

      expect(res.status).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(res.body.data.employeeId).toBe(second.employeeId);
      expect(await recordsOf(second.employeeId)).toBe(1);
    });

    test('a clock-in whose transaction rolls back (a 5xx) leaves no key and no record, and its retry runs', async () => {
      const { employeeId, auth } = await seedEmployee(service());
      await sql(
        service(),
        `create function fail_clock_${employeeId}() returns trigger language plpgsql as $$
         begin if new.employee_id = ${employeeId} then raise exception 'injected fault'; end if; return new; end $$`,
      );
      await sql(service(), `create trigger fail_clock_${employeeId} before insert on time_records for each row execute function fail_clock_${employeeId}()`);
      const failed = await api().post(clockIn).set(auth).set('Idempotency-Key', 'in-rollback').send({ source: 'Web' });
      expect(failed.status).toBe(500);
      expect(await keysNamed('in-rollback')).toBe(0);
      expect(await recordsOf(employeeId)).toBe(0);

      await sql(service(), `drop trigger fail_clock_${employeeId} on time_records`);
      const retried = await api().post(clockIn).set(auth).set('Idempotency-Key', 'in-rollback').send({ source: 'Web' });
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await recordsOf(employeeId)).toBe(1);
    });
  });

  describe('POST /api/v2/incident/:id/thread', () => {
    /** An employee with one incident (a clock-out without clock-in). */
    async function employeeWithIncident() {
      const employee = await seedEmployee(service());
      const res = await api().post('/api/v2/timerecord/clock-out').set(employee.auth).send({ source: 'App' });
      expect(res.status).toBe(409);
      return { ...employee, incidentId: res.body.details.incidentId as number };
    }

    test('a keyed message answers itself although the detail was cached, and the next read shows it (invalidated after the commit)', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      // Cached before the write.
      expect((await api().get(`/api/v2/incident/${incidentId}`).set(auth)).body.data.messages).toEqual([]);
      const posted = await api().post(`/api/v2/incident/${incidentId}/thread`).set(auth).set('Idempotency-Key', 'msg-1').send({ message: 'I forgot to clock in' });
      expect(posted.status).toBe(201);
      expect(posted.body.data.message).toBe('I forgot to clock in');

      const replayed = await api().post(`/api/v2/incident/${incidentId}/thread`).set(auth).set('Idempotency-Key', 'msg-1').send({ message: 'I forgot to clock in' });
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      const detail = await api().get(`/api/v2/incident/${incidentId}`).set(adminAuth);
      expect(detail.body.data.messages.map((message: { message: string }) => message.message)).toEqual(['I forgot to clock in']);
    });

    test('a keyed message with a file whose commit fails leaves no key, no message and no stored file', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      // Checked at commit, after the message's own statements succeeded: the whole keyed write rolls back.
      await sql(
        service(),
        `create function fail_message_${incidentId}() returns trigger language plpgsql as $$
         begin if new.incident_id = ${incidentId} then raise exception 'injected fault at commit'; end if; return new; end $$`,
      );
      await sql(
        service(),
        `create constraint trigger fail_message_${incidentId} after insert on incident_messages deferrable initially deferred
         for each row execute function fail_message_${incidentId}()`,
      );
      const before = storedFiles(service()).length;
      const res = await api()
        .post(`/api/v2/incident/${incidentId}/thread`)
        .set(auth)
        .set('Idempotency-Key', 'msg-rollback')
        .field('message', 'My sheet')
        .attach('files', PDF, { filename: 'sheet.pdf', contentType: 'application/pdf' });
      await sql(service(), `drop trigger fail_message_${incidentId} on incident_messages`);

      expect(res.status).toBe(500);
      expect(await keysNamed('msg-rollback')).toBe(0);
      expect(await count('select count(*)::int as n from incident_messages where incident_id = $1', [incidentId])).toBe(0);
      expect(storedFiles(service())).toHaveLength(before);
    });
  });
});
