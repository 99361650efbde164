import { Readable } from 'node:stream';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { PayslipBatch } from '@academy/contracts';
import { publishBatch } from '../../src/batches/publish-batch.ts';
import { resumeInterruptedReads } from '../../src/batches/resume-interrupted-reads.ts';
import { adminAuth, batchWhenRead, makePdf, outboxEvents, PNG, seedEmployee, sql, storedFiles, usePayslips, type PayslipsService, type TestEmployee } from '../support.ts';

const fieldsOf = (extra: Record<string, string> = {}) => ({ periodStart: '2026-02-01', periodEnd: '2026-02-28', label: 'Nómina febrero', matchBy: 'taxId', ...extra });

function postBatch(service: PayslipsService, pdf: Buffer, fields: Record<string, string> = fieldsOf(), contentType = 'application/pdf') {
  const req = request(service.url).post('/api/v2/payslips/batches').set(adminAuth);
  for (const [name, value] of Object.entries(fields)) req.field(name, value);
  return req.attach('file', pdf, { filename: 'febrero.pdf', contentType });
}

const page = (employee: TestEmployee, text = 'Nómina') => `${text} de ${employee.employeeId}. NIF: ${employee.taxId}. Líquido a percibir: 1.234,56 €`;
const runsOf = (batch: PayslipBatch) => batch.matches.flatMap((match) => match.payslips.map((run) => [match.employeeId, run.fromPage, run.toPage]));

async function readyBatch(service: PayslipsService, pages: string[], fields?: Record<string, string>): Promise<PayslipBatch> {
  const res = await postBatch(service, await makePdf(pages), fields);
  expect(res.status).toBe(202);
  const batch = await batchWhenRead(service, res.body.data.id);
  expect(batch.status).toBe('ready');
  return batch;
}

describe('POST /api/v2/payslips/batches and GET /api/v2/payslips/batches/:id', () => {
  const service = usePayslips({ BATCH_MAX_PAGES: 20 });

  test('pages in mixed order are matched by tax id: an employee over two consecutive pages is one payslip; a page naming no one and one naming two are listed', async () => {
    const [ana, luis, eva] = [await seedEmployee(service(), { name: 'Ana' }), await seedEmployee(service(), { name: 'Luis' }), await seedEmployee(service(), { name: 'Eva' })];
    const pdf = await makePdf([
      page(luis),
      page(ana, 'Página 1'),
      page(ana, 'Página 2'),
      'Resumen de la empresa: nadie con NIF 12345678A (letra incorrecta)',
      `${page(eva)} y también ${luis.taxId}`,
      page(eva),
      page(luis, 'Paga extra'),
    ]);
    const res = await postBatch(service(), pdf);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'reading', pageCount: 7, label: 'Nómina febrero', periodStart: '2026-02-01', periodEnd: '2026-02-28', issuedOn: '2026-03-10', matchBy: 'taxId' });
    const batch = await batchWhenRead(service(), res.body.data.id);
    expect(batch.status).toBe('ready');
    expect(runsOf(batch)).toEqual([
      [luis.employeeId, 1, 1],
      [luis.employeeId, 7, 7],
      [ana.employeeId, 2, 3],
      [eva.employeeId, 6, 6],
    ]);
    expect(batch.matches.map((m) => m.employeeName)).toEqual(['Luis', 'Ana', 'Eva']);
    expect(batch.unmatchedPages).toEqual([{ page: 4, excerpt: 'Resumen de la empresa: nadie con NIF 12345678A (letra incorrecta)' }]);
    expect(batch.ambiguousPages).toEqual([{ page: 5, employeeIds: [luis.employeeId, eva.employeeId].sort((a, b) => a - b) }]);
  });

  test('matching by payroll code finds the codes of active employees only', async () => {
    const ana = await seedEmployee(service(), { payrollCode: 'E-0042' });
    const gone = await seedEmployee(service(), { payrollCode: 'E-0043', active: false });
    const batch = await readyBatch(service(), [`Empleado E-0042 febrero`, `Empleado e-0043`, 'Código E-00421 (otro)'], fieldsOf({ matchBy: 'payrollCode' }));
    expect(runsOf(batch)).toEqual([[ana.employeeId, 1, 1]]);
    expect(batch.unmatchedPages.map((p) => p.page)).toEqual([2, 3]);
    expect(gone.employeeId).toBeGreaterThan(0);
  });

  test.each([
    { what: 'a PDF without a text layer', pdf: () => makePdf([{ image: true }, { image: true }]), status: 422, code: 'SCANNED_PDF' },
    { what: 'a password-protected PDF', pdf: () => makePdf(['x'], { userPassword: 'secret' }), status: 422, code: 'PDF_ENCRYPTED' },
    { what: 'a PDF over BATCH_MAX_PAGES', pdf: () => makePdf(Array.from({ length: 21 }, (_, i) => `page ${i}`)), status: 422, code: 'TOO_MANY_PAGES' },
    { what: 'a PNG sent as a PDF', pdf: async () => PNG, status: 415, code: 'FILE_TYPE_NOT_ALLOWED' },
  ])('$what is refused ($status $code), keeping nothing', async ({ pdf, status, code }) => {
    const before = { batches: (await sql(service(), `select id from payslip_batches`)).length, files: storedFiles(service()).length };
    const res = await postBatch(service(), await pdf());
    expect([res.status, res.body.code]).toEqual([status, code]);
    if (code === 'SCANNED_PDF') expect(res.body.message).toMatch(/scanned PDFs cannot be matched/i);
    expect((await sql(service(), `select id from payslip_batches`)).length).toBe(before.batches);
    expect(storedFiles(service()).length).toBe(before.files);
  });

  test.each([
    [{ periodEnd: '2026-01-31' }, 'periodEnd'],
    [{ matchBy: 'email' }, 'matchBy'],
    [{ periodStart: '2026-2-1' }, 'periodStart'],
    [{ label: '' }, 'label'],
  ])('fields %j are 400 naming %s', async (change, field) => {
    const res = await postBatch(service(), await makePdf(['x']), fieldsOf(change));
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  test('GET of an unknown batch is 404, of a malformed id 400; an employee may not see batches (403)', async () => {
    expect((await request(service().url).get('/api/v2/payslips/batches/99999').set(adminAuth)).status).toBe(404);
    expect((await request(service().url).get('/api/v2/payslips/batches/1e3').set(adminAuth)).status).toBe(400);
    const ana = await seedEmployee(service());
    expect((await request(service().url).get('/api/v2/payslips/batches/1').set(ana.auth)).status).toBe(403);
  });
});

describe('assign, publish and discard a batch', () => {
  const service = usePayslips();
  const publish = (id: number) => request(service().url).post(`/api/v2/payslips/batches/${id}/publish`).set(adminAuth);
  const assign = (id: number, pageNumber: number | string, employeeId: unknown) =>
    request(service().url).post(`/api/v2/payslips/batches/${id}/pages/${pageNumber}/assign`).set(adminAuth).send({ employeeId });

  test('a page is assigned by hand; publish makes one payslip per run with its event, in one go; a second publish changes nothing', async () => {
    const [ana, luis] = [await seedEmployee(service()), await seedEmployee(service())];
    const batch = await readyBatch(service(), [page(ana), 'página sin nombre', page(luis), `${page(ana)} ${luis.taxId}`]);
    const assigned = await assign(batch.id, 2, ana.employeeId);
    expect(assigned.status).toBe(200);
    expect(runsOf(assigned.body.data)).toEqual([
      [ana.employeeId, 1, 2],
      [luis.employeeId, 3, 3],
    ]);
    expect((await assign(batch.id, 4, luis.employeeId)).status).toBe(200);
    const res = await publish(batch.id);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('published');
    const runs = res.body.data.matches.flatMap((m: PayslipBatch['matches'][number]) => m.payslips);
    expect(runs).toHaveLength(2);
    expect(runs.every((run: { payslipId: number | null }) => run.payslipId !== null)).toBe(true);
    const luisPayslips = await request(service().url).get('/api/v2/payslips/my').set(luis.auth);
    expect(luisPayslips.body.data.map((p: { label: string; periodStart: string; issuedOn: string }) => [p.label, p.periodStart, p.issuedOn])).toEqual([['Nómina febrero', '2026-02-01', '2026-03-10']]);
    const file = await request(service().url).get(`/api/v2/payslips/${luisPayslips.body.data[0].id}/file`).set(luis.auth).buffer(true);
    expect(file.status).toBe(200);
    const events = (await outboxEvents(service(), 'payslip.published')).filter((e) => e.data.batchId === batch.id);
    expect(events.map((e) => e.data.employeeId).sort()).toEqual([ana.employeeId, luis.employeeId].sort());
    const again = await publish(batch.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
    expect((await outboxEvents(service(), 'payslip.published')).filter((e) => e.data.batchId === batch.id)).toHaveLength(2);
    expect(await sql(service(), `select storage_key from payslip_batches where id = $1 and storage_key is null`, [batch.id])).toHaveLength(1);
  });

  test('the combined PDF uploaded again: its preview names the pages already published (page, employee, payslip); publish leaves them out and keeps the new ones', async () => {
    const [ana, luis, eva] = [await seedEmployee(service()), await seedEmployee(service()), await seedEmployee(service())];
    const pages = [page(ana), page(ana, 'Hoja 2'), page(luis)];
    const first = await readyBatch(service(), pages);
    const published = await publish(first.id);
    expect(published.status).toBe(200);
    const payslipOf = (batch: PayslipBatch, employeeId: number) => batch.matches.find((match) => match.employeeId === employeeId)!.payslips[0]!;
    const [anaPayslip, luisPayslip] = [payslipOf(published.body.data, ana.employeeId).payslipId, payslipOf(published.body.data, luis.employeeId).payslipId];

    const again = await readyBatch(service(), [...pages, page(eva)]);
    expect(again.matches.map((match) => [match.employeeId, match.payslips])).toEqual([
      [ana.employeeId, [{ fromPage: 1, toPage: 2, payslipId: null, duplicateOfPayslipId: anaPayslip }]],
      [luis.employeeId, [{ fromPage: 3, toPage: 3, payslipId: null, duplicateOfPayslipId: luisPayslip }]],
      [eva.employeeId, [{ fromPage: 4, toPage: 4, payslipId: null, duplicateOfPayslipId: null }]],
    ]);
    const res = await publish(again.id);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('published');
    expect(payslipOf(res.body.data, ana.employeeId)).toEqual({ fromPage: 1, toPage: 2, payslipId: null, duplicateOfPayslipId: anaPayslip });
    expect(payslipOf(res.body.data, eva.employeeId)).toEqual({ fromPage: 4, toPage: 4, payslipId: expect.any(Number), duplicateOfPayslipId: null });
    expect(await sql(service(), `select employee_id as "employeeId" from payslips where batch_id = $1`, [again.id])).toEqual([{ employeeId: eva.employeeId }]);
    expect((await outboxEvents(service(), 'payslip.published')).filter((e) => e.data.batchId === again.id).map((e) => e.data.employeeId)).toEqual([eva.employeeId]);
    // No file stored for the runs left out: every file is a payslip's or an unpublished batch's.
    const keys = await sql<{ key: string }>(service(), `select storage_key as key from payslips union all select storage_key from payslip_batches where storage_key is not null`);
    expect(storedFiles(service()).filter((file) => !keys.some(({ key }) => file.endsWith(key)))).toEqual([]);
  });

  test('concurrent publishes of one batch: one set of payslips and events, every answer the same published batch', async () => {
    const employees = [await seedEmployee(service()), await seedEmployee(service()), await seedEmployee(service())];
    const batch = await readyBatch(service(), employees.map((e) => page(e)));
    const answers = await Promise.all(Array.from({ length: 5 }, () => publish(batch.id)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    expect(await sql(service(), `select id from payslips where batch_id = $1`, [batch.id])).toHaveLength(3);
    expect((await outboxEvents(service(), 'payslip.published')).filter((e) => e.data.batchId === batch.id)).toHaveLength(3);
    const keys = (await sql<{ k: string }>(service(), `select storage_key as k from payslips`)).map((r) => r.k);
    const batchKeys = (await sql<{ k: string }>(service(), `select storage_key as k from payslip_batches where storage_key is not null`)).map((r) => r.k);
    expect(storedFiles(service()).filter((f) => ![...keys, ...batchKeys].some((k) => f.endsWith(k)))).toEqual([]);
  });

  test('a publish that finds the combined PDF gone because another publish committed meanwhile answers the published batch (200)', async () => {
    const employees = [await seedEmployee(service()), await seedEmployee(service())];
    const batch = await readyBatch(service(), employees.map((e) => page(e)));
    const deps = service().deps;
    const admin: Parameters<typeof publishBatch>[2] = { userId: 1, role: 'admin', employeeId: null, correlationId: 'test-race' };
    // Between this publish's first read (the batch ready) and its opening of the PDF, another publish
    // runs to its end: it commits and removes the combined PDF (as an instance next door would).
    let other: PayslipBatch | undefined;
    const racing = {
      ...deps,
      storage: {
        ...deps.storage,
        open: async (key: string) => {
          other ??= await publishBatch(deps, { batchId: batch.id }, admin);
          return deps.storage.open(key);
        },
      },
    } as typeof deps;
    const answer = await publishBatch(racing, { batchId: batch.id }, admin);
    expect(other?.status).toBe('published');
    expect(answer.status).toBe('published');
    expect(answer).toEqual(other);
    expect(await sql(service(), `select id from payslips where batch_id = $1`, [batch.id])).toHaveLength(2);
  });

  /** The service's context whose PDF split first runs `meanwhile` (once): something committed between a publish's first read and its lock. */
  function splittingAfter(meanwhile: () => Promise<void>) {
    const deps = service().deps;
    let ran = false;
    const pdf = Object.assign(Object.create(deps.pdf) as typeof deps.pdf, {
      split: async (task: Parameters<typeof deps.pdf.split>[0]) => {
        if (!ran) {
          ran = true;
          await meanwhile();
        }
        return deps.pdf.split(task);
      },
    });
    return { ...deps, pdf } as typeof deps;
  }
  const admin: Parameters<typeof publishBatch>[2] = { userId: 1, role: 'admin', employeeId: null, correlationId: 'test-race' };

  test('a page assigned while a publish splits the PDF is published with it (the publish starts over from the runs as assigned)', async () => {
    const [ana, luis] = [await seedEmployee(service()), await seedEmployee(service())];
    const batch = await readyBatch(service(), [page(ana), 'página sin nombre', page(luis)]);
    const racing = splittingAfter(async () => {
      expect((await assign(batch.id, 2, ana.employeeId)).status).toBe(200);
    });
    const answer = await publishBatch(racing, { batchId: batch.id }, admin);
    expect(answer.status).toBe('published');
    expect(runsOf(answer)).toEqual([
      [ana.employeeId, 1, 2],
      [luis.employeeId, 3, 3],
    ]);
    expect(answer.unmatchedPages).toEqual([]);
    // Page 2 is in ana's payslip, not left out of every payslip.
    const pages = await sql<{ page: number; employeeId: number }>(
      service(),
      `select bp.page, p.employee_id as "employeeId" from payslip_batch_pages bp left join payslips p on p.id = bp.payslip_id where bp.batch_id = $1 order by bp.page`,
      [batch.id],
    );
    expect(pages).toEqual([
      { page: 1, employeeId: ana.employeeId },
      { page: 2, employeeId: ana.employeeId },
      { page: 3, employeeId: luis.employeeId },
    ]);
  });

  test('an employee deactivated while a publish splits the PDF gets no payslip from it', async () => {
    const [ana, luis] = [await seedEmployee(service()), await seedEmployee(service())];
    const batch = await readyBatch(service(), [page(ana), page(luis)]);
    const racing = splittingAfter(async () => {
      await sql(service(), `update employees set active = false where id = $1`, [ana.employeeId]);
    });
    const answer = await publishBatch(racing, { batchId: batch.id }, admin);
    expect(answer.status).toBe('published');
    expect(await sql(service(), `select employee_id as "employeeId" from payslips where batch_id = $1`, [batch.id])).toEqual([{ employeeId: luis.employeeId }]);
    expect((await outboxEvents(service(), 'payslip.published')).filter((e) => e.data.batchId === batch.id).map((e) => e.data.employeeId)).toEqual([luis.employeeId]);
  });

  test('a batch still reading cannot be published or assigned (409); a failed one neither', async () => {
    const [reading] = await sql<{ id: number }>(
      service(),
      `insert into payslip_batches (status, label, period_start, period_end, issued_on, match_by, page_count, size_bytes, storage_key, created_at, read_started_at)
       values ('reading', 'x', '2026-02-01', '2026-02-28', '2026-03-01', 'taxId', 3, 100, null, now(), now()) returning id`,
    );
    const res = await publish(reading!.id);
    expect([res.status, res.body.code]).toEqual([409, 'BATCH_NOT_READY']);
    expect((await assign(reading!.id, 1, 5)).status).toBe(409);
    await sql(service(), `update payslip_batches set status = 'failed', failure_reason = 'The PDF could not be read' where id = $1`, [reading!.id]);
    expect((await publish(reading!.id)).status).toBe(409);
    expect(await sql(service(), `select id from payslips where batch_id = $1`, [reading!.id])).toEqual([]);
  });

  test('an assign to a page outside the batch is 422, to an unknown employee 404, with a bad body or page 400; nothing changes', async () => {
    const ana = await seedEmployee(service());
    const batch = await readyBatch(service(), [page(ana), 'nadie']);
    expect([(await assign(batch.id, 3, ana.employeeId)).status, (await assign(batch.id, 3, ana.employeeId)).body.code]).toEqual([422, 'PAGE_OUT_OF_RANGE']);
    expect((await assign(batch.id, 2, 99_999)).body.code).toBe('EMPLOYEE_NOT_FOUND');
    expect((await assign(batch.id, 0, ana.employeeId)).status).toBe(400);
    expect((await assign(batch.id, '02', ana.employeeId)).status).toBe(400);
    expect((await assign(batch.id, 2, '5')).status).toBe(400);
    const shown = (await request(service().url).get(`/api/v2/payslips/batches/${batch.id}`).set(adminAuth)).body.data;
    expect(shown.unmatchedPages.map((p: { page: number }) => p.page)).toEqual([2]);
  });

  test('a batch with nothing matched cannot be published (409 NOTHING_TO_PUBLISH)', async () => {
    const batch = await readyBatch(service(), ['nadie aquí']);
    expect((await publish(batch.id)).body.code).toBe('NOTHING_TO_PUBLISH');
  });

  test('discard drops an unpublished batch with its file; a published one is 409; discarding twice answers the same', async () => {
    const ana = await seedEmployee(service());
    const batch = await readyBatch(service(), [page(ana)]);
    const [{ k }] = (await sql<{ k: string }>(service(), `select storage_key as k from payslip_batches where id = $1`, [batch.id])) as [{ k: string }];
    const res = await request(service().url).delete(`/api/v2/payslips/batches/${batch.id}`).set(adminAuth);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'discarded', matches: [], unmatchedPages: [] });
    expect(storedFiles(service()).some((f) => f.endsWith(k))).toBe(false);
    expect((await request(service().url).delete(`/api/v2/payslips/batches/${batch.id}`).set(adminAuth)).status).toBe(200);
    expect((await publish(batch.id)).status).toBe(409);
    const published = await readyBatch(service(), [page(ana, 'Otra')]);
    expect((await publish(published.id)).status).toBe(200);
    expect((await request(service().url).delete(`/api/v2/payslips/batches/${published.id}`).set(adminAuth)).body.code).toBe('BATCH_PUBLISHED');
  });
});

describe('reads off the request path', () => {
  const service = usePayslips({ BATCH_READ_TIMEOUT_MS: 60_000 });

  test('while a 150-page batch is read in the worker threads, the service answers other requests', async () => {
    const ana = await seedEmployee(service());
    const res = await postBatch(service(), await makePdf(Array.from({ length: 150 }, (_, i) => `${page(ana)} — página ${i + 1}`)));
    expect(res.status).toBe(202);
    const started = performance.now();
    const mine = await request(service().url).get('/api/v2/payslips/my').set(ana.auth);
    const answeredInMs = performance.now() - started;
    const status = (await request(service().url).get(`/api/v2/payslips/batches/${res.body.data.id}`).set(adminAuth)).body.data.status;
    expect(mine.status).toBe(200);
    expect({ status, fast: answeredInMs < 500 }).toEqual({ status: 'reading', fast: true });
    const batch = await batchWhenRead(service(), res.body.data.id);
    expect(runsOf(batch)).toEqual([[ana.employeeId, 1, 150]]);
  });

  test('a read interrupted by a stopped instance is resumed once its timeout has passed', async () => {
    const ana = await seedEmployee(service());
    const { key } = await service().deps.storage.save(Readable.from([await makePdf([page(ana)])]));
    const [row] = await sql<{ id: number }>(
      service(),
      `insert into payslip_batches (status, label, period_start, period_end, issued_on, match_by, page_count, size_bytes, storage_key, created_at, read_started_at)
       values ('reading', 'x', '2026-02-01', '2026-02-28', '2026-03-01', 'taxId', 1, 100, $1, $2, $2) returning id`,
      [key, new Date('2026-03-10T09:59:30.000Z')],
    );
    expect(await resumeInterruptedReads(service().deps, {})).toBe(0);
    service().clock.set('2026-03-10T10:00:31.000Z');
    expect(await resumeInterruptedReads(service().deps, {})).toBe(1);
    const batch = await batchWhenRead(service(), row!.id);
    expect(runsOf(batch)).toEqual([[ana.employeeId, 1, 1]]);
  });
});

describe('with an Idempotency-Key', () => {
  const service = usePayslips();

  test('a keyed batch upload is read once its transaction commits; a keyed publish retried is replayed, with one payslip and one event', async () => {
    const ana = await seedEmployee(service());
    const req = request(service().url).post('/api/v2/payslips/batches').set(adminAuth).set('idempotency-key', 'batch-upload-1');
    for (const [name, value] of Object.entries(fieldsOf())) req.field(name, value);
    const res = await req.attach('file', await makePdf([page(ana)]), { filename: 'b.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(202);
    const batch = await batchWhenRead(service(), res.body.data.id);
    expect(runsOf(batch)).toEqual([[ana.employeeId, 1, 1]]);
    const publish = () => request(service().url).post(`/api/v2/payslips/batches/${batch.id}/publish`).set(adminAuth).set('idempotency-key', 'publish-1');
    const first = await publish();
    const again = await publish();
    expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([200, 200, 'true']);
    expect(await sql(service(), `select id from payslips where batch_id = $1`, [batch.id])).toHaveLength(1);
    expect((await outboxEvents(service(), 'payslip.published')).filter((e) => e.data.batchId === batch.id)).toHaveLength(1);
    const file = await request(service().url).get(`/api/v2/payslips/${first.body.data.matches[0].payslips[0].payslipId}/file`).set(ana.auth);
    expect(file.status).toBe(200);
  });
});
