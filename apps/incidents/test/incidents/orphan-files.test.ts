import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { seedEmployee, sql, useIncidents, type IncidentsService } from '../support.ts';

// Issue 35: an attachment stored for a message that is then not written (its transaction fails, or
// the incident is not the poster's) is removed, never left on disk with no row naming it.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

function storedFiles(service: IncidentsService): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)])) : [];
  return walk(service.ctx.config.FILES_DIR);
}

describe('an incident attachment whose message is not written is removed', () => {
  const service = useIncidents();
  const api = () => request(service().url);

  async function employeeWithIncident() {
    const employee = await seedEmployee(service());
    const res = await api().post('/api/v2/timerecord/clock-out').set(employee.auth).send({ source: 'App' });
    expect(res.status).toBe(409);
    return { ...employee, incidentId: res.body.details.incidentId as number };
  }
  const post = (incidentId: number, auth: Record<string, string>) =>
    api().post(`/api/v2/incident/${incidentId}/thread`).set(auth).field('message', 'My sheet').attach('files', PDF, { filename: 'sheet.pdf', contentType: 'application/pdf' });

  test('a message with a file whose commit fails (no Idempotency-Key) is a 500 with no message and no stored file; the same post then succeeds and keeps its file', async () => {
    const { auth, incidentId } = await employeeWithIncident();
    await sql(
      service(),
      `create function fail_orphan_${incidentId}() returns trigger language plpgsql as $$
       begin if new.incident_id = ${incidentId} then raise exception 'injected fault at commit'; end if; return new; end $$`,
    );
    await sql(service(), `create constraint trigger fail_orphan_${incidentId} after insert on incident_files deferrable initially deferred for each row execute function fail_orphan_${incidentId}()`);
    const before = storedFiles(service()).length;
    const failed = await post(incidentId, auth);
    await sql(service(), `drop trigger fail_orphan_${incidentId} on incident_files`);
    expect(failed.status).toBe(500);
    expect(await sql(service(), 'select id from incident_messages where incident_id = $1', [incidentId])).toEqual([]);
    expect(storedFiles(service())).toHaveLength(before);
    expect((await post(incidentId, auth)).status).toBe(201);
    expect(storedFiles(service())).toHaveLength(before + 1);
  });

  test("a file posted to another employee's incident is a 404 and is not kept", async () => {
    const { incidentId } = await employeeWithIncident();
    const intruder = await seedEmployee(service());
    const before = storedFiles(service()).length;
    const refused = await post(incidentId, intruder.auth);
    expect(refused.status).toBe(404);
    expect(storedFiles(service())).toHaveLength(before);
  });
});
