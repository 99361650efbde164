import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import PDFDocument from 'pdfkit';
import request from 'supertest';
import { DEV_TAX_ID_DIGEST_KEY, demoTaxId, taxIdDigest, type PayslipBatch } from '@academy/contracts';
import { fixedClock, type SettableClock } from '@academy/kit';
import type { RunningService } from '@academy/service';
import { bearer, uniqueQueueName, waitFor } from '@academy/testing';
import { serviceTestConfig, startTestService, stopTestService, useService } from '@academy/testing/harness';
import { ConfigSchema, type Config } from '../src/config.ts';
import { payslipsService } from '../src/service.ts';
import type { PayslipsContext } from '../src/shared/payslips-context.ts';

export type PayslipsService = RunningService<Config, PayslipsContext> & { clock: SettableClock };

/** The service's defaults with the test servers, a fresh database, its own queue and files folder; no scheduled runs. */
export async function payslipsTestConfig(overrides: Partial<Config> = {}): Promise<Config> {
  return {
    ...ConfigSchema.parse({}),
    ...(await serviceTestConfig(payslipsService, 'payslips')),
    REPLICAS_QUEUE: uniqueQueueName('payslips.replicas'),
    PRIVACY_QUEUE: uniqueQueueName('payslips.privacy'),
    FILES_DIR: mkdtempSync(path.join(os.tmpdir(), 'payslips-files-')),
    PRIVACY_FILES_DIR: mkdtempSync(path.join(os.tmpdir(), 'payslips-privacy-')),
    HOUSEKEEPING_INTERVAL_MS: 0,
    // A worker's first start (its PDF libraries loaded) takes seconds on a busy test machine: above the service's 8 s.
    PDF_CHECK_TIMEOUT_MS: 60_000,
    ...overrides,
  };
}

/** The service on a clock pinned at 2026-03-10 10:00 UTC (never the real time), which tests move. */
export async function startPayslips(overrides: Partial<Config> = {}): Promise<PayslipsService> {
  const clock = fixedClock('2026-03-10T10:00:00.000Z');
  const service = await startTestService(payslipsService, await payslipsTestConfig(overrides), { clock });
  return Object.assign(service, { clock });
}

/** Stops the service and removes its database, files and queues; `keepDatabase` when another instance still uses them. */
export const stopPayslips = (service: PayslipsService, options: { keepDatabase?: boolean } = {}) => stopTestService(service, options);

/** Starts the service before the tests of the enclosing `describe` and stops it after them. */
export const usePayslips = (overrides: Partial<Config> = {}) => useService(() => startPayslips(overrides));

export async function sql<T = Record<string, unknown>>(service: PayslipsService, text: string, params: unknown[] = []): Promise<T[]> {
  return service.deps.sql.query<T>(text, params);
}

let nextId = 1000;
/** A fresh id, so each test works on its own employee. */
export const freshId = () => nextId++;

export interface TestEmployee {
  employeeId: number;
  userId: number;
  taxId: string;
  auth: Record<string, string>;
}

/** An employee in the replica (active unless told) with a login and a valid tax id of its own. */
export async function seedEmployee(
  service: PayslipsService,
  options: { id?: number; active?: boolean; name?: string; payrollCode?: string; taxId?: string | null } = {},
): Promise<TestEmployee> {
  const id = options.id ?? freshId();
  const userId = id + 50_000;
  const taxId = options.taxId === undefined ? demoTaxId(id) : options.taxId;
  await sql(
    service,
    `insert into employees (id, user_id, name, email, tax_id_digest, payroll_code, active, deleted, source_version) values ($1, $2, $3, $4, $5, $6, $7, false, now())`,
    [id, userId, options.name ?? `Employee ${id}`, `employee${id}@academy.test`, taxId && taxIdDigest(taxId, DEV_TAX_ID_DIGEST_KEY), options.payrollCode ?? null, options.active ?? true],
  );
  return { employeeId: id, userId, taxId: taxId ?? '', auth: bearer({ role: 'user', sub: String(userId), employeeId: id }) };
}

export const adminAuth = bearer({ role: 'admin', sub: '1' });

/** A PDF with one page per text (pdfkit), optionally password-protected; `{ image: true }` pages have no text layer. */
export async function makePdf(pages: (string | { image: true })[], options: { userPassword?: string; compress?: boolean } = {}): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, userPassword: options.userPassword, compress: options.compress ?? true, info: { CreationDate: new Date('2026-01-01T00:00:00Z') } });
  for (const page of pages) {
    doc.addPage();
    if (typeof page === 'string') doc.fontSize(14).text(page);
    else doc.rect(50, 50, 200, 100).fill('#888');
  }
  doc.end();
  return buffer(doc);
}

export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let unique = 0;
/** A distinct one-page payslip PDF (distinct bytes, so not a duplicate). */
export const payslipPdf = (text = 'Nómina') => makePdf([`${text} #${++unique}`]);

export interface UploadInput {
  employeeId?: number | string;
  periodStart?: string;
  periodEnd?: string;
  issuedOn?: string;
  label?: string;
  [field: string]: string | number | undefined;
}

/** POST /api/v2/payslips as multipart, the file last (as browsers send it). */
export function upload(service: PayslipsService, fields: UploadInput, file: Buffer | null, fileOptions: { filename?: string; contentType?: string } = {}, auth: Record<string, string> = adminAuth) {
  const req = request(service.url).post('/api/v2/payslips').set(auth);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) req.field(name, String(value));
  if (file) req.attach('file', file, { filename: fileOptions.filename ?? 'nomina.pdf', contentType: fileOptions.contentType ?? 'application/pdf' });
  return req;
}

export const monthOf = (employeeId: number, month = '2026-02') => ({
  employeeId,
  periodStart: `${month}-01`,
  periodEnd: `${month}-${month.endsWith('02') ? '28' : '30'}`,
  label: `Nómina ${month}`,
});

/** Files in the storage folder (encrypted), at any depth. */
export function storedFiles(service: PayslipsService): string[] {
  const root = service.ctx.config.FILES_DIR;
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Events of the outbox, oldest first. */
export async function outboxEvents(service: PayslipsService, type?: string) {
  const rows = await sql<{ type: string; envelope: { data: Record<string, unknown> } }>(service, `select type, envelope from outbox where ($1::text is null or type = $1) order by id`, [type ?? null]);
  return rows.map((row) => ({ type: row.type, data: row.envelope.data }));
}

/** Waits until the batch has left `reading`, and answers it. */
export async function batchWhenRead(service: PayslipsService, batchId: number) {
  return waitFor(
    `batch ${batchId} read`,
    async () => {
      const batch = (await request(service.url).get(`/api/v2/payslips/batches/${batchId}`).set(adminAuth)).body.data as PayslipBatch;
      return batch.status !== 'reading' && batch;
    },
    20_000,
  );
}
