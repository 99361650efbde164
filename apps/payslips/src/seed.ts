// Demo payslips, run by `npm start` after academic's seed (idempotent): each employee with a tax id
// gets a payslip for each of the last three months, uploaded through the running service (so they
// are stored encrypted and announced like any other), and the demo combined PDF of the batch flow
// is written next to the files (one page per employee with their tax id, and one naming nobody).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { createTokenSigner, loadKeyRing } from '@academy/auth';
import { withServiceOrm } from '@academy/service';
import { readConfig, type Config } from './config.ts';
import { dayIn } from './shared/dates.ts';
import { Sql } from './shared/db.ts';
import { demoTaxId, taxIdDigest } from '@academy/contracts';
import { demoEmployees, payslipCount } from './seed.store.ts';
import { payslipsService } from './service.ts';

const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];


export interface DemoPeriod {
  periodStart: string;
  periodEnd: string;
  label: string;
}

/** The `count` whole months before `today`'s month, newest first. */
export function lastMonths(today: string, count: number): DemoPeriod[] {
  const [year, month] = today.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const first = new Date(Date.UTC(year, month - 2 - i, 1));
    const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
    return {
      periodStart: first.toISOString().slice(0, 10),
      periodEnd: last.toISOString().slice(0, 10),
      label: `Nómina ${MONTHS[first.getUTCMonth()]} ${first.getUTCFullYear()}`,
    };
  });
}

/** A payslip-looking PDF: one page per entry, each naming its employee's tax id (or nobody). */
export async function demoPdf(pages: { employee: DemoEmployee | null; period: DemoPeriod }[]): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, info: { Title: 'Nóminas', CreationDate: new Date('2026-01-01T00:00:00Z') } });
  for (const { employee, period } of pages) {
    doc.addPage({ size: 'A4', margin: 56 });
    doc.fontSize(18).text('Academia Demo S.L.', { continued: false }).fontSize(10).text('CIF B00000000 · Calle Mayor 12, Madrid').moveDown(1.5);
    if (!employee) {
      doc.fontSize(14).text(`Resumen de la empresa — ${period.label}`).moveDown().fontSize(11).text('Totales de la remesa, sin datos de ningún trabajador.');
      continue;
    }
    doc.fontSize(14).text(period.label).moveDown(0.5);
    doc.fontSize(11).text(`Trabajador: ${employee.name}`).text(`NIF: ${employee.taxId}`).text(`Periodo: ${period.periodStart} a ${period.periodEnd}`).moveDown();
    doc.text('Salario base ............................ 1.650,00 €').text('Complementos ............................   240,00 €').text('Retenciones IRPF y SS ...................  -402,30 €');
    doc.moveDown().fontSize(12).text('Líquido a percibir ...................... 1.487,70 €');
  }
  doc.end();
  return buffer(doc);
}

/** An employee of the demo and the tax id its pages print. */
export interface DemoEmployee {
  id: number;
  name: string;
  taxId: string;
}

/** The demo's tax ids are `demoTaxId(n)` for small n (academic's seed gives teacherN demoTaxId(N)). */
const DEMO_TAX_IDS = 10_000;

/**
 * The replica's employees whose tax id is a demo one: the replica keeps digests only, so the demo's
 * ids are digested under the service's key and looked up.
 */
async function teachersOf(sql: Sql, taxIdDigestKey: string, waitMs: number): Promise<DemoEmployee[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    // The employees arrive from academic's seed through the broker.
    const rows = await demoEmployees(sql.query);
    if (rows.length || Date.now() > deadline) {
      const demoIds = new Map(Array.from({ length: DEMO_TAX_IDS }, (_, n) => [taxIdDigest(demoTaxId(n), taxIdDigestKey), demoTaxId(n)]));
      return rows.flatMap((row) => {
        const taxId = demoIds.get(row.taxIdDigest);
        return taxId ? [{ id: row.id, name: row.name, taxId }] : [];
      });
    }
    await delay(500);
  }
}

/** Writes the demo combined PDF and, the first time, uploads each employee's payslips of the last three months. */
export async function seedDemoPayslips(config: Config, options: { now: Date; serviceUrl: string; waitMs?: number; demoFile?: string }): Promise<{ employees: number; uploaded: number; demoPdf: string }> {
  return withServiceOrm(payslipsService, config, async (orm) => {
    const sql = new Sql(orm.em);
    const employees = await teachersOf(sql, config.TAX_ID_DIGEST_KEY, options.waitMs ?? 60_000);
    const periods = lastMonths(dayIn(options.now, config.ACADEMY_TIME_ZONE), 3);
    const demoFile = options.demoFile ?? path.resolve(config.FILES_DIR, '..', 'demo-batch.pdf');
    mkdirSync(path.dirname(demoFile), { recursive: true });
    const lastMonth = periods[0]!;
    const samples = [...employees.map((employee) => ({ employee, period: lastMonth })), { employee: null, period: lastMonth }];
    writeFileSync(demoFile, await demoPdf(samples));

    if ((await payslipCount(sql.query)) > 0) return { employees: employees.length, uploaded: 0, demoPdf: demoFile };
    const signer = createTokenSigner(loadKeyRing(config.JWT_KEYS_DIR, config.JWT_KEY_IDS, config.JWT_KEY_IDS[0]), { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE });
    const authorization = `Bearer ${signer.sign({ sub: '1', role: 'admin' }, 300)}`;
    let uploaded = 0;
    // The oldest month is left out: the demo batch of the README brings the latest one.
    for (const period of periods.slice(1)) {
      for (const employee of employees) {
        const form = new FormData();
        form.set('employeeId', String(employee.id));
        form.set('periodStart', period.periodStart);
        form.set('periodEnd', period.periodEnd);
        form.set('issuedOn', period.periodEnd);
        form.set('label', period.label);
        form.set('file', new Blob([new Uint8Array(await demoPdf([{ employee, period }]))], { type: 'application/pdf' }), 'nomina.pdf');
        const res = await fetch(`${options.serviceUrl}/api/v2/payslips`, { method: 'POST', headers: { authorization }, body: form });
        if (res.status !== 201) throw new Error(`uploading a demo payslip answered ${res.status}: ${await res.text()}`);
        uploaded++;
      }
    }
    return { employees: employees.length, uploaded, demoPdf: demoFile };
  });
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const config = readConfig();
  // The running service's URL: the first argument, or this machine's PORT.
  const result = await seedDemoPayslips(config, { now: new Date(), serviceUrl: process.argv[2] ?? `http://127.0.0.1:${config.PORT}` });
  console.log(`Demo payslips: ${result.uploaded} uploaded for ${result.employees} employees; combined demo PDF in ${path.relative(process.cwd(), result.demoPdf)}`);
}
