// The system the console's Playwright tests run against, started as `npm run test:system` starts it
// (tools/system/harness.ts: every service and the gateway as processes, the demo seed, maildev),
// with the console built first and served by the gateway at `/`. Run by playwright.config.ts's
// global setup as a child process: writes what the tests need to the file named by its argument,
// then holds the system until SIGTERM.
import { writeFileSync } from 'node:fs';
import { ensureInfra, stopInfra } from '@academy/infra';
import { buildConsole } from '../dev/console.ts';
import { DEMO, startTestSystem, type TestSystem } from '../system/harness.ts';
import { eventually, login } from '../system/client.ts';
import { demoPdf } from '../../apps/payslips/src/seed.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: node tools/console/system.ts <file to write the addresses to>');

buildConsole();
// The test PostgreSQL and Redis, as test:system's global setup has them (started here when nothing runs them, stopped with the system).
const infra = await ensureInfra('test', (line) => process.stderr.write(`[test infra] ${line}\n`), ['postgres', 'redis']);
const system = await startTestSystem({ name: 'console', redisDb: 12, log: (line) => process.stderr.write(`[console system] ${line}\n`) });
await publishPayslips(system);
writeFileSync(out, JSON.stringify({ gateway: system.gateway, mailApi: system.mail.api, pid: process.pid }));
process.stderr.write(`[console system] up: ${system.gateway}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await system.stop();
  if (infra.started.length) await stopInfra('test', infra.started);
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

/** Last month's payslip for each demo teacher, uploaded and published by the admin as a combined PDF (the test system runs academic's seed only). */
async function publishPayslips(system: TestSystem): Promise<void> {
  const admin = await login(system.gateway, DEMO.admin);
  // The replica keeps only the tax id's digest (employee.upserted version 3): the ids come from academic, the wait is for the replica.
  await eventually('the six teachers in the payslips replica', async () => {
    const rows = await system.sql<{ id: number }>('payslips', 'select id from employees where id <= 6 and tax_id_digest is not null');
    return rows.length === 6 ? rows : undefined;
  }, 60_000);
  const employees = await system.sql<{ id: number; name: string; taxId: string }>('academic', `select id, name || ' ' || lastname as name, tax_id as "taxId" from employees where id <= 6 order by id`);
  const period = { periodStart: '2026-01-01', periodEnd: '2026-01-31', label: 'Nómina enero 2026' };
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...period, matchBy: 'taxId' })) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(await demoPdf(employees.map((employee) => ({ employee, period }))))], { type: 'application/pdf' }), 'nominas.pdf');
  const headers = { authorization: `Bearer ${admin.accessToken}` };
  const uploaded = await fetch(`${system.gateway}/api/v2/payslips/batches`, { method: 'POST', headers, body: form });
  if (uploaded.status !== 202) throw new Error(`payslips upload: ${uploaded.status} ${await uploaded.text()}`);
  const batchId = ((await uploaded.json()) as { data: { id: number } }).data.id;
  await eventually('the payslips batch read', async () => {
    const batch = (await (await fetch(`${system.gateway}/api/v2/payslips/batches/${batchId}`, { headers })).json()) as { data: { status: string } };
    return batch.data.status === 'reading' ? undefined : batch;
  }, 60_000);
  const published = await fetch(`${system.gateway}/api/v2/payslips/batches/${batchId}/publish`, { method: 'POST', headers });
  if (published.status !== 200) throw new Error(`payslips publish: ${published.status} ${await published.text()}`);
}
