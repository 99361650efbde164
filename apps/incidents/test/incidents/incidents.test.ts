import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { IncidentDetail, IncidentPage, ThreadsResponse } from '@academy/contracts';
import { clockFrom } from '@academy/kit';
import { adminAuth, outboxEvents, seedEmployee, sql, useIncidents, type IncidentsService } from '../support.ts';

const base = '/api/v2/incident';

/** A minimal valid PNG (1×1) and a PDF header: the allow-list checks content, not only the declared type. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Every file under the storage folder. */
function storedFiles(service: IncidentsService): string[] {
  const root = service.ctx.config.FILES_DIR;
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
  return walk(root);
}

/** The service's clock starts here (a Wednesday morning), whatever the hour of the run: "today" is this day. */
const PINNED = '2027-01-06T10:00:00Z';

describe('incident endpoints', () => {
  const service = useIncidents({}, { clock: clockFrom(PINNED) });
  const api = () => request(service().url);

  /** An employee with one incident (a clock-out without clock-in). */
  async function employeeWithIncident() {
    const employee = await seedEmployee(service());
    const res = await api().post('/api/v2/timerecord/clock-out').set(employee.auth).send({ source: 'App', deviceId: 'phone' });
    expect(res.status).toBe(409);
    return { ...employee, incidentId: res.body.details.incidentId as number };
  }
  const eventsOf = async (incidentId: number) => (await outboxEvents(service())).filter((event) => event.data.incidentId === incidentId);
  const messageRows = (incidentId: number) => sql(service(), 'select * from incident_messages where incident_id = $1', [incidentId]);

  describe('GET /api/v2/incident/:id', () => {
    test('the employee reads their incident with its kind, severity, source, device, files and messages', async () => {
      const { employeeId, auth, incidentId } = await employeeWithIncident();
      const res = await api().get(`${base}/${incidentId}`).set(auth);
      expect(res.status).toBe(200);
      const detail = IncidentDetail.parse(res.body.data);
      expect(detail).toMatchObject({ id: incidentId, employeeId, employeeName: `Employee ${employeeId}`, kind: 'CLOCK_OUT_WITHOUT_OPEN', severity: 'medium', status: 'open', source: 'App', deviceId: 'phone', messages: [], files: [] });
    });

    test("another employee's incident is a 404 that shows none of its data; an admin reads it", async () => {
      const { incidentId } = await employeeWithIncident();
      const stranger = await seedEmployee(service());
      const res = await api().get(`${base}/${incidentId}`).set(stranger.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'INCIDENT_NOT_FOUND', message: 'Incident not found', requestId: expect.any(String) });
      expect((await api().get(`${base}/${incidentId}/threads`).set(stranger.auth)).status).toBe(404);
      expect((await api().get(`${base}/${incidentId}`).set(adminAuth)).status).toBe(200);
    });

    test.each(['0', '-1', 'abc', '1.5', '99999999999'])('id %s is a 400', async (id) => {
      const res = await api().get(`${base}/${id}`).set(adminAuth);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    });

    test('a missing incident is a 404', async () => {
      expect((await api().get(`${base}/2000000000`).set(adminAuth)).status).toBe(404);
    });
  });

  describe('GET /api/v2/incident/my and GET /api/v2/incident/ (admin)', () => {
    test('my lists only my incidents, filtered by status and paginated', async () => {
      const { auth, incidentId, employeeId } = await employeeWithIncident();
      await api().post('/api/v2/timerecord/clock-in').set(auth).send({ source: 'Web' }).expect(201);
      const second = await api().post('/api/v2/timerecord/clock-in').set(auth).send({ source: 'Web' });
      const res = await api().get(`${base}/my?status=open&limit=1`).set(auth);
      expect(res.status).toBe(200);
      const page = IncidentPage.parse(res.body);
      expect(page.meta).toEqual({ totalItems: 2, totalPages: 2, currentPage: 1, pageSize: 1 });
      expect(page.data.map((item) => item.id)).toEqual([second.body.details.incidentId]);
      const all = await api().get(`${base}/my`).set(auth);
      expect(all.body.data.map((item: { id: number }) => item.id)).toEqual([second.body.details.incidentId, incidentId]);
      expect(all.body.data.every((item: { employeeId: number }) => item.employeeId === employeeId)).toBe(true);
      expect((await api().get(`${base}/my?status=closed`).set(auth)).body.data).toEqual([]);
    });

    test.each([['status=whatever'], ['page=0'], ['limit=1000'], ['color=red']])('my?%s is a 400', async (query) => {
      const { auth } = await seedEmployee(service());
      const res = await api().get(`${base}/my?${query}`).set(auth);
      expect(res.status).toBe(400);
    });

    test('the admin list filters by status, employee, kind and dates, most severe first, {data, meta}', async () => {
      const a = await employeeWithIncident();
      await api().post('/api/v2/timerecord/clock-in').set(a.auth).send({ source: 'Web' }).expect(201);
      const whileOpen = await api().post('/api/v2/timerecord/clock-in').set(a.auth).send({ source: 'Web' });
      // A high-severity one, written as the scheduled check would.
      await sql(
        service(),
        `insert into incidents (employee_id, kind, severity, status, description, day, created_at, updated_at) values ($1, 'ABSENCE', 'high', 'open', 'No clock-in', '2026-01-05', $2, $2)`,
        [a.employeeId, service().ctx.clock.now()],
      );
      const res = await api().get(`${base}/?employeeId=${a.employeeId}`).set(adminAuth);
      expect(res.status).toBe(200);
      const page = IncidentPage.parse(res.body);
      expect(page.data.map((item) => item.kind)).toEqual(['ABSENCE', 'CLOCK_IN_WHILE_OPEN', 'CLOCK_OUT_WITHOUT_OPEN']);
      expect(page.meta.totalItems).toBe(3);
      const byKind = await api().get(`${base}/?employeeId=${a.employeeId}&kind=CLOCK_IN_WHILE_OPEN`).set(adminAuth);
      expect(byKind.body.data.map((item: { id: number }) => item.id)).toEqual([whileOpen.body.details.incidentId]);
      const today = PINNED.slice(0, 10);
      expect((await api().get(`${base}/?employeeId=${a.employeeId}&from=${today}&to=${today}`).set(adminAuth)).body.meta.totalItems).toBe(3);
      expect((await api().get(`${base}/?employeeId=${a.employeeId}&to=2020-01-01`).set(adminAuth)).body.meta.totalItems).toBe(0);
      expect((await api().get(`${base}/?employeeId=${a.employeeId}&status=closed`).set(adminAuth)).body.data).toEqual([]);
      expect((await api().get(`${base}/?status=whatever`).set(adminAuth)).status).toBe(400);
      expect((await api().get(`${base}/?from=0000-01-01`).set(adminAuth)).status).toBe(400);
      expect((await api().get(`${base}/`).set(a.auth)).status).toBe(403);
    });
  });

  describe('POST /api/v2/incident/:id/thread and /admin-thread', () => {
    test('the employee replies: the read right after shows it (detail, threads, my-list) and one incident.updated event', async () => {
      const { auth, userId, incidentId } = await employeeWithIncident();
      // Warm the cache first, so the reads below prove the invalidation.
      await api().get(`${base}/${incidentId}`).set(auth).expect(200);
      await api().get(`${base}/${incidentId}/threads`).set(auth).expect(200);
      await api().get(`${base}/my`).set(auth).expect(200);
      const res = await api().post(`${base}/${incidentId}/thread`).set(auth).send({ message: 'I forgot to clock in at 8:00' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ authorRole: 'employee', authorUserId: userId, message: 'I forgot to clock in at 8:00', files: [] });

      const detail = await api().get(`${base}/${incidentId}`).set(auth);
      expect(detail.body.data.messages.map((message: { message: string }) => message.message)).toEqual(['I forgot to clock in at 8:00']);
      const threads = ThreadsResponse.parse((await api().get(`${base}/${incidentId}/threads`).set(auth)).body);
      expect(threads.data).toHaveLength(1);
      const my = await api().get(`${base}/my`).set(auth);
      expect(my.body.data.find((item: { id: number }) => item.id === incidentId).messageCount).toBe(1);

      const events = await eventsOf(incidentId);
      expect(events.map((event) => [event.type, event.data.change])).toEqual([
        ['incident.created', 'created'],
        ['incident.updated', 'employee_message'],
      ]);
      expect(events[1]!.data).toMatchObject({ employeeUserId: userId, byUserId: userId, status: 'open', fileCount: 0 });
    });

    test('an admin writes on admin-thread: the employee sees it, and the event names the admin and the employee', async () => {
      const { auth, userId, incidentId } = await employeeWithIncident();
      await api().get(`${base}/${incidentId}/threads`).set(auth).expect(200);
      const res = await api().post(`${base}/${incidentId}/admin-thread`).set(adminAuth).send({ message: 'Please send the shift sheet' });
      expect(res.status).toBe(201);
      const threads = await api().get(`${base}/${incidentId}/threads`).set(auth);
      expect(threads.body.data.map((message: { authorRole: string }) => message.authorRole)).toEqual(['admin']);
      const [, updated] = await eventsOf(incidentId);
      expect(updated!.data).toMatchObject({ change: 'admin_message', byUserId: 1, employeeUserId: userId });
      expect((await api().post(`${base}/${incidentId}/admin-thread`).set(auth).send({ message: 'x' })).status).toBe(403);
      expect((await api().post(`${base}/${incidentId}/thread`).set(adminAuth).send({ message: 'x' })).status).toBe(403);
    });

    test('HTML in a message is stored and returned as plain text', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      const html = '<script>alert(1)</script><b>late</b>';
      await api().post(`${base}/${incidentId}/thread`).set(auth).send({ message: html }).expect(201);
      const detail = await api().get(`${base}/${incidentId}`).set(auth);
      expect(detail.headers['content-type']).toMatch(/^application\/json/);
      expect(detail.body.data.messages[0].message).toBe(html);
    });

    test.each([
      ['an empty message', 400, { message: '' }],
      ['a blank message', 400, { message: '   ' }],
      ['no message', 400, {}],
      ['a message over 5000 characters', 400, { message: 'x'.repeat(5001) }],
      ['a 1 MB message', 413, { message: 'x'.repeat(1024 * 1024) }],
      ['a NUL character', 400, { message: 'a\u0000b' }],
      ['a number', 400, { message: 42 }],
    ])('%s is a %i and writes nothing', async (_label, status, body) => {
      const { auth, incidentId } = await employeeWithIncident();
      const res = await api().post(`${base}/${incidentId}/thread`).set(auth).send(body);
      expect(res.status).toBe(status);
      expect(await messageRows(incidentId)).toEqual([]);
      expect(await eventsOf(incidentId)).toHaveLength(1);
    });

    test("writing on another employee's incident is a 404 that writes nothing", async () => {
      const { incidentId } = await employeeWithIncident();
      const stranger = await seedEmployee(service());
      const res = await api().post(`${base}/${incidentId}/thread`).set(stranger.auth).send({ message: 'hello' });
      expect(res.status).toBe(404);
      expect(await messageRows(incidentId)).toEqual([]);
    });
  });

  describe('admin close and delete', () => {
    test('close: the reads right after show it closed, my?status=open drops it, no more messages, one event', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      await api().get(`${base}/${incidentId}`).set(auth).expect(200);
      await api().get(`${base}/my?status=open`).set(auth).expect(200);
      const res = await api().post(`${base}/${incidentId}/close`).set(adminAuth).send({ message: 'Fixed the record' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: incidentId, status: 'closed', closedAt: expect.any(String) });
      const detail = await api().get(`${base}/${incidentId}`).set(auth);
      expect(detail.body.data.status).toBe('closed');
      expect(detail.body.data.messages.map((m: { message: string }) => m.message)).toEqual(['Fixed the record']);
      expect((await api().get(`${base}/my?status=open`).set(auth)).body.data.map((item: { id: number }) => item.id)).not.toContain(incidentId);
      expect((await api().post(`${base}/${incidentId}/thread`).set(auth).send({ message: 'but…' })).status).toBe(409);
      expect((await api().post(`${base}/${incidentId}/close`).set(adminAuth).send({})).status).toBe(409);
      expect((await api().post(`${base}/${incidentId}/close`).set(auth).send({})).status).toBe(403);
      const events = await eventsOf(incidentId);
      expect(events.map((event) => event.data.change)).toEqual(['created', 'status_changed']);
      expect(events[1]!.data.status).toBe('closed');
    });

    test('delete: the reads right after are 404, my-list drops it, one event; deleting again is a 404', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      await api().get(`${base}/${incidentId}`).set(auth).expect(200);
      await api().get(`${base}/my`).set(auth).expect(200);
      expect((await api().delete(`${base}/${incidentId}`).set(auth)).status).toBe(403);
      const res = await api().delete(`${base}/${incidentId}`).set(adminAuth);
      expect(res.status).toBe(200);
      expect((await api().get(`${base}/${incidentId}`).set(auth)).status).toBe(404);
      expect((await api().get(`${base}/${incidentId}/threads`).set(adminAuth)).status).toBe(404);
      expect((await api().get(`${base}/my`).set(auth)).body.data.map((item: { id: number }) => item.id)).not.toContain(incidentId);
      expect((await api().delete(`${base}/${incidentId}`).set(adminAuth)).status).toBe(404);
      expect((await eventsOf(incidentId)).map((event) => event.data.change)).toEqual(['created', 'deleted']);
    });
  });

  describe('files', () => {
    test('a message with files: listed in the detail, downloadable by the employee and admins, 404 for others; one event with fileCount', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      const res = await api()
        .post(`${base}/${incidentId}/thread`)
        .set(auth)
        .field('message', 'My sheet and a photo')
        .attach('files', PDF, { filename: 'sheet.pdf', contentType: 'application/pdf' })
        .attach('files', PNG, { filename: '../../photo.png', contentType: 'image/png' });
      expect(res.status).toBe(201);
      expect(res.body.data.files.map((file: { fileName: string; sizeBytes: number }) => [file.fileName, file.sizeBytes])).toEqual([
        ['sheet.pdf', PDF.length],
        ['photo.png', PNG.length],
      ]);
      const detail = await api().get(`${base}/${incidentId}`).set(auth);
      expect(detail.body.data.files).toHaveLength(2);
      const png = detail.body.data.files[1];
      const download = await api().get(png.url).set(auth).buffer(true).parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
      expect(download.status).toBe(200);
      expect(download.headers['content-type']).toBe('image/png');
      expect(download.headers['content-disposition']).toContain('attachment');
      expect(Buffer.compare(download.body as Buffer, PNG)).toBe(0);
      expect((await api().get(png.url).set(adminAuth)).status).toBe(200);
      const stranger = await seedEmployee(service());
      expect((await api().get(png.url).set(stranger.auth)).status).toBe(404);
      expect((await api().get(`${base}/${incidentId}/files/999999`).set(auth)).status).toBe(404);
      const [, updated] = await eventsOf(incidentId);
      expect(updated!.data).toMatchObject({ change: 'employee_message', fileCount: 2 });
    });

    test('a 20 MB file is a 413 FILE_TOO_LARGE: no message, no file row, nothing left on disk', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      const before = storedFiles(service()).length;
      const big = Buffer.concat([PDF, Buffer.alloc(20 * 1024 * 1024)]);
      const res = await api().post(`${base}/${incidentId}/thread`).set(auth).field('message', 'big').attach('files', big, { filename: 'big.pdf', contentType: 'application/pdf' });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('FILE_TOO_LARGE');
      expect(await messageRows(incidentId)).toEqual([]);
      expect(await sql(service(), 'select * from incident_files where incident_id = $1', [incidentId])).toEqual([]);
      expect(storedFiles(service())).toHaveLength(before);
    });

    test.each([
      ['a type outside the allow-list', Buffer.from('hello'), 'text/plain', 'notes.txt'],
      ['content that is not the declared type', Buffer.from('MZ this is an exe'), 'image/png', 'fake.png'],
    ])('%s is a 415 that writes nothing', async (_label, content, contentType, filename) => {
      const { auth, incidentId } = await employeeWithIncident();
      const before = storedFiles(service()).length;
      const res = await api().post(`${base}/${incidentId}/thread`).set(auth).field('message', 'see file').attach('files', content, { filename, contentType });
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('FILE_TYPE_NOT_ALLOWED');
      expect(await messageRows(incidentId)).toEqual([]);
      expect(storedFiles(service())).toHaveLength(before);
    });

    test('more than 5 files is a 413 TOO_MANY_FILES; a multipart without a message is a 400; both write nothing', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      let post = api().post(`${base}/${incidentId}/thread`).set(auth).field('message', 'many');
      for (let i = 0; i < 6; i++) post = post.attach('files', PNG, { filename: `p${i}.png`, contentType: 'image/png' });
      const many = await post;
      expect(many.status).toBe(413);
      expect(many.body.code).toBe('TOO_MANY_FILES');
      const noMessage = await api().post(`${base}/${incidentId}/thread`).set(auth).attach('files', PNG, { filename: 'p.png', contentType: 'image/png' });
      expect(noMessage.status).toBe(400);
      expect(await messageRows(incidentId)).toEqual([]);
    });

    test('a client that goes away mid-upload leaves no file and no message behind', async () => {
      const { auth, incidentId } = await employeeWithIncident();
      const before = storedFiles(service()).length;
      const boundary = 'upload-boundary';
      const req = http.request(`${service().url}${base}/${incidentId}/thread`, {
        method: 'POST',
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(5_000_000) },
      });
      req.on('error', () => undefined);
      req.write(`--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4\n`);
      req.write(Buffer.alloc(256 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 300));
      req.destroy();
      let left = -1;
      for (let i = 0; i < 50 && left !== before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = storedFiles(service()).length;
      }
      expect(left).toBe(before);
      expect(await messageRows(incidentId)).toEqual([]);
      expect((await api().get(`${base}/${incidentId}`).set(auth)).status).toBe(200);
    });

    test("files on another employee's incident are refused (404) before anything is stored", async () => {
      const { incidentId } = await employeeWithIncident();
      const stranger = await seedEmployee(service());
      const before = storedFiles(service()).length;
      const res = await api().post(`${base}/${incidentId}/thread`).set(stranger.auth).field('message', 'x').attach('files', PNG, { filename: 'p.png', contentType: 'image/png' });
      expect(res.status).toBe(404);
      expect(storedFiles(service())).toHaveLength(before);
    });
  });
});
