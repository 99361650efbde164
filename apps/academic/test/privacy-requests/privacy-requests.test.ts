import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import { hashPassword } from '@academy/auth';
import { fixedClock } from '@academy/kit';
import { uniqueQueueName, waitFor } from '@academy/testing';
import { useService } from '@academy/testing/harness';
import type { RunningService } from '@academy/service';
import { flagOverdueParts } from '../../src/privacy-requests/flag-overdue-parts.ts';
import { auditOverdueParts, recordAnswer } from '../../src/privacy-requests/privacy-requests.store.ts';
import type { AcademicContext } from '../../src/shared/academic-context.ts';
import { admin, fixtures, startAcademic, user } from '../support.ts';

const PATH = '/api/v2/privacy-requests';
const clock = fixedClock('2026-11-27T10:00:00Z');
const filesDirs: string[] = [];

/** Academic alone (its own providers) or waiting for services that never answer here. */
function useAcademicWithPrivacy(services: string) {
  const service = useService(() => {
    const dir = mkdtempSync(path.join(tmpdir(), 'academic-privacy-'));
    filesDirs.push(dir);
    return startAcademic(
      // The settings' transforms are parsed once by the config; tests give the parsed values.
      { PRIVACY_QUEUE: uniqueQueueName('academic.privacy'), PRIVACY_REQUESTS_QUEUE: uniqueQueueName('academic.privacy-requests'), PRIVACY_FILES_DIR: dir, PRIVACY_SERVICES: services.split(',') },
      { clock },
    );
  });
  return { service, f: fixtures(service) };
}

afterAll(() => {
  for (const dir of filesDirs) rmSync(dir, { recursive: true, force: true });
});

type Detail = { id: number; requestId: string; status: string; waitingFor: string[]; parts: { service: string; status: string; features: { feature: string; status: string; erased: unknown[]; kept: unknown[]; entries: number }[] }[]; audit: { action: string; byUserId: number | null }[] };

const completed = async (service: RunningService, id: number): Promise<Detail> =>
  waitFor(
    `request ${id} completed`,
    async () => {
      const res = await request(service.url).get(`${PATH}/${id}`).set(admin);
      return res.body.status !== 'open' ? (res.body as Detail) : undefined;
    },
    20_000,
    100,
  );

function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(buffer, { lazyEntries: true }, (error: Error | null, zip: ZipFile) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const binary = (res: request.Response, callback: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
};

describe('POST /api/v2/privacy-requests (academic answering alone)', () => {
  const { service, f } = useAcademicWithPrivacy('academic');

  async function studentWithRecords() {
    const [guardian] = await f.query<{ id: number }>(`insert into guardians (name, lastname, email, phone, created_at, updated_at) values ('Gema', 'Ruiz', 'gema@example.com', '600000000', now(), now()) returning id`);
    const studentId = await f.student('Lucía', 'Ruiz');
    await f.query(`update students set email = 'lucia@example.com', guardian_id = ? where id = ?`, [guardian!.id, studentId]);
    const subjectId = await f.subject();
    const [block] = await f.query<{ id: number }>(`insert into blocks (subject_id, name, position) values (?, 'Block 1', 1) returning id`, [subjectId]);
    const [studentBlock] = await f.query<{ id: number }>(
      `insert into student_blocks (student_id, block_id, status, grade, closed_at, approved_at, created_at, updated_at) values (?, ?, 'closed', 8.5, now(), now(), now(), now()) returning id`,
      [studentId, block!.id],
    );
    await f.query(`insert into student_block_messages (student_block_id, author_user_id, author_role, kind, body, created_at) values (?, 1, 'teacher', 'message', 'Lucía did well', now())`, [studentBlock!.id]);
    const centerId = await f.center();
    const eventId = await f.event({ subjectId, centerId });
    await f.query(`insert into attendance_marks (event_id, student_id, status, minutes_late, remark, marked_by_user_id, marked_at) values (?, ?, 'L', 10, 'missed the bus', 1, now())`, [eventId, studentId]);
    return { studentId, guardianId: guardian!.id, studentBlockId: studentBlock!.id, eventId };
  }

  test('when a teacher asks, then 403; an unknown person 404; a malformed body 400; nothing is opened', async () => {
    const studentId = await f.student();
    expect((await request(service().url).post(PATH).set(user).send({ kind: 'access', subject: { kind: 'student', id: studentId } })).status).toBe(403);
    const unknown = await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'employee', id: 999999 } });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'EMPLOYEE_NOT_FOUND']);
    expect((await request(service().url).post(PATH).set(admin).send({ kind: 'copy', subject: { kind: 'student', id: studentId } })).status).toBe(400);
    expect((await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'student', id: -1 } })).status).toBe(400);
    expect((await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'student', id: studentId }, extra: 1 })).status).toBe(400);
    expect((await request(service().url).get(`${PATH}/not-a-uuid`).set(admin)).status).toBe(400);
    expect((await request(service().url).get(`${PATH}/999999`).set(admin)).status).toBe(404);
    expect(await f.query(`select * from privacy_requests where (subject_kind = 'student' and subject_id = ?) or subject_id = 999999`, [studentId])).toEqual([]);
  });

  test('when an admin asks for a student\'s data, then academic answers its part and the ZIP holds it field by field, with a README in Spanish', async () => {
    const { studentId, studentBlockId, eventId, guardianId } = await studentWithRecords();
    const opened = await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'student', id: studentId } });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ kind: 'access', subject: { kind: 'student', id: studentId }, status: 'open', openedAt: '2026-11-27T10:00:00.000Z', deadline: '2026-12-27T10:00:00.000Z', openedByUserId: 1, waitingFor: ['academic'] });
    const [event] = await f.query<{ envelope: { data: Record<string, unknown> } }>(`select envelope from outbox where type = 'privacy.request.opened' and envelope->'data'->>'requestId' = ?`, [opened.body.requestId]);
    expect(event!.envelope.data).toEqual({ requestId: opened.body.requestId, kind: 'access', subject: { kind: 'student', id: studentId, userId: null, email: 'lucia@example.com' }, locale: 'es', openedAt: '2026-11-27T10:00:00.000Z', deadline: '2026-12-27T10:00:00.000Z' });

    const done = await completed(service(), opened.body.id);
    expect(done).toMatchObject({ status: 'completed', waitingFor: [] });
    expect(done.parts).toEqual([
      expect.objectContaining({
        service: 'academic',
        status: 'done',
        features: [
          { feature: 'academic.students', status: 'done', erased: [], kept: [], entries: 1 },
          { feature: 'academic.blocks', status: 'done', erased: [], kept: [], entries: 1 },
          { feature: 'academic.attendance', status: 'done', erased: [], kept: [], entries: 1 },
        ],
      }),
    ]);

    const zip = await request(service().url).get(`${PATH}/${opened.body.id}/export`).set(admin).buffer(true).parse(binary);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = await unzip(zip.body as Buffer);
    expect([...files.keys()]).toEqual(['README.txt', 'academic/students.json', 'academic/blocks.json', 'academic/attendance.json']);
    const readme = files.get('README.txt')!.toString();
    expect(readme).toContain('Copia de sus datos personales');
    expect(readme).toContain('academic/students.json');
    const students = JSON.parse(files.get('academic/students.json')!.toString());
    expect(students).toMatchObject({ student: { id: studentId, name: 'Lucía', lastname: 'Ruiz', email: 'lucia@example.com', guardianId }, login: null, registrations: [] });
    const blocks = JSON.parse(files.get('academic/blocks.json')!.toString());
    expect(blocks.blocks).toEqual([expect.objectContaining({ id: studentBlockId, blockName: 'Block 1', status: 'closed', grade: 8.5, closedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) })]);
    // Instants as the API and the other services' parts write them (UTC, `Z`).
    expect(students.student.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(blocks.threadMessages).toEqual([expect.objectContaining({ studentBlockId, authorRole: 'teacher', body: 'Lucía did well' })]);
    const attendance = JSON.parse(files.get('academic/attendance.json')!.toString());
    expect(attendance.marks).toEqual([expect.objectContaining({ eventId, status: 'L', minutesLate: 10, remark: 'missed the bus' })]);

    const audited = await request(service().url).get(`${PATH}/${opened.body.id}`).set(admin);
    expect(audited.body.audit.map((entry: { action: string; byUserId: number | null }) => [entry.action, entry.byUserId])).toEqual(
      expect.arrayContaining([
        ['opened', 1],
        ['answered by academic', null],
        ['completed', null],
        ['downloaded', 1],
        ['viewed', 1],
      ]),
    );
    // A teacher may not download it.
    expect((await request(service().url).get(`${PATH}/${opened.body.id}/export`).set(user)).status).toBe(403);
  });

  test('when an employee with a login is erased, then their record is anonymized, their login refused, and a new request answers that erasure', async () => {
    const employeeId = await f.employee('Ana');
    const [login] = await f.query<{ id: number }>(
      `insert into users (email, password_hash, role, employee_id, active, created_at, updated_at) values ('ana.erase@academy.test', ?, 'user', ?, true, now(), now()) returning id`,
      [await hashPassword('ana-pass'), employeeId],
    );
    await f.query(`update employees set user_id = ?, email = 'ana.erase@academy.test', tax_id = '12345678Z' where id = ?`, [login!.id, employeeId]);
    const signedIn = await request(service().url).post('/api/v2/auth/login').send({ email: 'ana.erase@academy.test', password: 'ana-pass' });
    expect(signedIn.status).toBe(200);

    const opened = await request(service().url).post(PATH).set(admin).send({ kind: 'erasure', subject: { kind: 'employee', id: employeeId } });
    expect(opened.status).toBe(201);
    const done = await completed(service(), opened.body.id);
    expect(done.parts[0]!.features).toEqual([
      { feature: 'academic.employees', status: 'done', erased: [{ what: 'employee record (anonymized)', count: 1 }, { what: 'login (disabled, sessions ended)', count: 1 }], kept: [], entries: 0 },
    ]);
    expect(await f.query(`select name, email, tax_id, active, erased_at is not null as erased from employees where id = ?`, [employeeId])).toEqual([{ name: 'Erased', email: null, tax_id: null, active: false, erased: true }]);
    expect((await request(service().url).post('/api/v2/auth/login').send({ email: 'ana.erase@academy.test', password: 'ana-pass' })).status).toBe(401);
    expect((await request(service().url).post('/api/v2/auth/refresh').send({ refreshToken: signedIn.body.refreshToken })).status).toBe(401);
    const [deleted] = await f.query(`select 1 from outbox where type = 'employee.deleted' and (envelope->'data'->>'id')::int = ?`, [employeeId]);
    expect(deleted).toBeDefined();

    const again = await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'employee', id: employeeId } });
    expect([again.status, again.body.id, again.body.kind]).toEqual([200, opened.body.id, 'erasure']);
    expect((await request(service().url).get(`${PATH}/${opened.body.id}/export`).set(admin)).status).toBe(409);
  });

  test("when a student is erased, then the thread and remarks go, the marks and attendance are kept with their basis and date, and the guardian is unlinked", async () => {
    const { studentId, eventId } = await studentWithRecords();
    const opened = await request(service().url).post(PATH).set(admin).send({ kind: 'erasure', subject: { kind: 'student', id: studentId } });
    const done = await completed(service(), opened.body.id);
    const basis = 'Expediente académico (Ley Orgánica 2/2006 de Educación, disposición adicional 23.ª)';
    expect(done.parts[0]!.features).toEqual([
      { feature: 'academic.students', status: 'done', erased: [{ what: 'student record (anonymized, withdrawn, guardian unlinked)', count: 1 }, { what: 'login (disabled, sessions ended)', count: 0 }], kept: [], entries: 0 },
      { feature: 'academic.blocks', status: 'done', erased: [{ what: 'block thread messages', count: 1 }], kept: [{ what: 'blocks and marks (1)', legalBasis: basis, until: '2031-11-27' }], entries: 0 },
      { feature: 'academic.attendance', status: 'done', erased: [{ what: 'attendance remarks', count: 1 }], kept: [{ what: 'attendance marks (1)', legalBasis: basis, until: '2031-11-27' }], entries: 0 },
    ]);
    expect(await f.query(`select name, email, status, guardian_id from students where id = ?`, [studentId])).toEqual([{ name: 'Erased', email: null, status: 'withdrawn', guardian_id: null }]);
    expect(await f.query(`select status, remark from attendance_marks where student_id = ? and event_id = ?`, [studentId, eventId])).toEqual([{ status: 'L', remark: null }]);
  });
});

describe('a request another service has not answered', () => {
  const { service, f } = useAcademicWithPrivacy('academic,payslips');

  test('when payslips has not answered, then the request stays open waiting for it, a second request for the person is 409, and the export is 409', async () => {
    const employeeId = await f.employee('Berta');
    const first = await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'employee', id: employeeId } });
    expect(first.status).toBe(201);
    const second = await request(service().url).post(PATH).set(admin).send({ kind: 'erasure', subject: { kind: 'employee', id: employeeId } });
    expect([second.status, second.body.code]).toEqual([409, 'PRIVACY_REQUEST_RUNNING']);
    const waiting = await waitFor(
      'academic answered',
      async () => {
        const res = await request(service().url).get(`${PATH}/${first.body.id}`).set(admin);
        return res.body.parts.find((part: { service: string; status: string }) => part.service === 'academic' && part.status !== 'pending') ? res.body : undefined;
      },
      20_000,
      100,
    );
    expect(waiting).toMatchObject({ status: 'open', waitingFor: ['payslips'] });
    const list = await request(service().url).get(PATH).set(admin);
    expect(list.body.data.find((item: { id: string }) => item.id === first.body.id)).toMatchObject({ status: 'open', waitingFor: ['payslips'] });
    const download = await request(service().url).get(`${PATH}/${first.body.id}/export`).set(admin);
    expect([download.status, download.body.code]).toEqual([409, 'EXPORT_NOT_READY']);
  });

  test('when payslips has not answered a day after the request opened, then the request names it once in its audit (not academic, which answered) and keeps waiting for it', async () => {
    const ctx = () => service().deps as AcademicContext;
    const employeeId = await f.employee('Celia');
    const opened = await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'employee', id: employeeId } });
    expect(opened.status).toBe(201);
    await waitFor('academic answered', async () => ((await request(service().url).get(`${PATH}/${opened.body.id}`).set(admin)).body.waitingFor.length === 1 ? true : undefined), 20_000, 100);
    const named = (at: string) => flagOverdueParts(ctx(), { now: new Date(at) }).then((parts) => parts.filter((part) => part.id === opened.body.id).map((part) => part.service));
    expect(await named('2026-11-28T09:59:59Z')).toEqual([]);
    expect(await named('2026-11-28T10:00:00Z')).toEqual(['payslips']);
    expect(await named('2026-11-29T10:00:00Z')).toEqual([]);
    const detail = (await request(service().url).get(`${PATH}/${opened.body.id}`).set(admin)).body;
    expect(detail).toMatchObject({ status: 'open', waitingFor: ['payslips'] });
    expect(detail.audit.filter((entry: { action: string }) => entry.action.startsWith('not answered'))).toEqual([
      { action: 'not answered by payslips', byUserId: null, at: '2026-11-28T10:00:00.000Z', detail: 'waiting since 2026-11-27T10:00:00Z' },
    ]);
  });
});

describe('two instances checking for overdue parts at the same moment', () => {
  const { service, f } = useAcademicWithPrivacy('academic,payslips');

  test('when one instance has named payslips and not committed yet while another runs the check, then the request names payslips once', async () => {
    const ctx = () => service().deps as AcademicContext;
    const employeeId = await f.employee('Elvira');
    const opened = await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'employee', id: employeeId } });
    expect(opened.status).toBe(201);
    await waitFor('academic answered', async () => ((await request(service().url).get(`${PATH}/${opened.body.id}`).set(admin)).body.waitingFor.length === 1 ? true : undefined), 20_000, 100);
    const now = new Date('2026-11-28T10:00:00Z');
    const openedBefore = new Date(now.getTime() - ctx().config.PRIVACY_OVERDUE_AFTER_MS);

    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstNamed!: () => void;
    const firstHasNamed = new Promise<void>((resolve) => (firstNamed = resolve));
    const first = ctx().orm.em.fork().transactional(async (em) => {
      await auditOverdueParts(em as never, openedBefore, now);
      firstNamed();
      await firstMayCommit;
    });
    await firstHasNamed;
    const second = flagOverdueParts(ctx(), { now });
    // The second either waits for the first's commit or (unserialized) names payslips at once.
    await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 300))]);
    commitFirst();
    await Promise.all([first, second]);

    const detail = (await request(service().url).get(`${PATH}/${opened.body.id}`).set(admin)).body;
    expect(detail.audit.filter((entry: { action: string }) => entry.action.startsWith('not answered')).map((entry: { action: string }) => entry.action)).toEqual(['not answered by payslips']);
  });
});

describe('two services answering at the same moment', () => {
  const { service, f } = useAcademicWithPrivacy('academic,payslips,incidents');

  test('when payslips and incidents answer in transactions that overlap, then the last to commit completes the request (neither waits on the other\'s uncommitted part)', async () => {
    const ctx = () => service().deps as AcademicContext;
    const employeeId = await f.employee('Dolores');
    const opened = await request(service().url).post(PATH).set(admin).send({ kind: 'access', subject: { kind: 'employee', id: employeeId } });
    expect(opened.status).toBe(201);
    await waitFor('academic answered', async () => ((await request(service().url).get(`${PATH}/${opened.body.id}`).set(admin)).body.waitingFor.length === 2 ? true : undefined), 20_000, 100);
    const answer = (service: string) => ({ requestId: opened.body.requestId as string, kind: 'access' as const, service, status: 'nothing-held' as const, reason: null, attempts: 1, features: [], export: null, answeredAt: '2026-11-27T10:00:01.000Z' });
    const at = new Date('2026-11-27T10:00:01Z');

    // payslips' answer is recorded and its transaction held open; incidents answers meanwhile.
    let commitPayslips!: () => void;
    const payslipsMayCommit = new Promise<void>((resolve) => (commitPayslips = resolve));
    let payslipsRecorded!: () => void;
    const payslipsHasRecorded = new Promise<void>((resolve) => (payslipsRecorded = resolve));
    const payslips = ctx().orm.em.fork().transactional(async (em) => {
      await recordAnswer(em as never, answer('payslips'), at);
      payslipsRecorded();
      await payslipsMayCommit;
    });
    await payslipsHasRecorded;
    const incidents = ctx().orm.em.fork().transactional((em) => recordAnswer(em as never, answer('incidents'), at));
    // incidents either waits for payslips' commit or (without a lock) finishes at once: either way
    // payslips commits after incidents had its chance.
    await Promise.race([incidents, new Promise((resolve) => setTimeout(resolve, 300))]);
    commitPayslips();
    await Promise.all([payslips, incidents]);

    const detail = (await request(service().url).get(`${PATH}/${opened.body.id}`).set(admin)).body;
    expect(detail).toMatchObject({ status: 'completed', waitingFor: [] });
  });
});
