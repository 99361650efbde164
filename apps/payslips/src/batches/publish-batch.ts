import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { PayslipBatch } from '@academy/contracts';
import { removeFiles } from '@academy/files';
import { afterCommit, onRollback } from '@academy/service';
import type { Actor } from '../shared/actor.ts';
import { recordPayslipEvent } from '../shared/events.ts';
import type { Payslips } from '../shared/payslips-context.ts';
import type { PayslipEmployee } from '../shared/employees.ts';
import { insertPayslip } from '../payslips/payslips.store.ts';
import { batchNotFound, batchNotReady, nothingToPublish } from './batches.errors.ts';
import { batchPages, findBatch, showBatch } from './batches.store.ts';
import { pageRuns } from './page-runs.ts';

/**
 * Admin: every run of pages matched to an active employee becomes a payslip. The runs are split
 * into PDFs in a worker and stored first; then the payslips, their `payslip.published` events and
 * the batch's new state commit in one transaction, under the batch's row lock: of concurrent
 * publishes one commits, the others find it published, remove their files and answer the same.
 * A published batch is answered as it is (idempotent); its combined PDF is removed once published.
 */
export async function publishBatch(payslips: Payslips, actor: Actor, batchId: number): Promise<PayslipBatch> {
  const { sql, storage, pdf, relay, now } = payslips;
  const batch = await findBatch(sql.query, batchId);
  if (!batch) throw batchNotFound();
  if (batch.status === 'published') return (await showBatch(sql.query, batchId))!;
  if (batch.status !== 'ready' || !batch.storageKey) throw batchNotReady(batch.status);

  const employees = new Map(
    (
      await sql.query<PayslipEmployee>(
        `select id, user_id as "userId", coalesce(name, 'Employee ' || id) as name, email from employees where id in (
           select coalesce(assigned_employee_id, (candidate_ids->>0)::int) from payslip_batch_pages where batch_id = $1) and active and not deleted`,
        [batchId],
      )
    ).map((employee) => [employee.id, employee]),
  );
  const runs = pageRuns(await batchPages(sql.query, batchId)).filter((run) => employees.has(run.employeeId));
  if (!runs.length) throw nothingToPublish();

  const source = await storage.open(batch.storageKey).then((stream) => (stream ? buffer(stream) : null));
  if (!source) throw batchNotReady('missing its file');
  const files = await pdf.split({ pdf: source, runs });
  const stored = await Promise.all(
    files.map(async (file) => {
      const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
      const { key } = await storage.save(Readable.from([bytes]));
      return { storageKey: key, sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    }),
  );

  let published = false;
  try {
    published = await sql.transaction(async (query) => {
      const locked = await findBatch(query, batchId, { lock: true });
      if (locked?.status !== 'ready') return false;
      const at = now();
      for (const [index, run] of runs.entries()) {
        const payslip = { label: batch.label, periodStart: batch.periodStart, periodEnd: batch.periodEnd, issuedOn: batch.issuedOn, supersedesId: null, batchId };
        const employee = employees.get(run.employeeId)!;
        const id = await insertPayslip(query, { ...payslip, ...stored[index]!, employeeId: employee.id, createdByUserId: actor.userId, createdAt: at });
        await query(`update payslip_batch_pages set payslip_id = $4 where batch_id = $1 and page between $2 and $3`, [batchId, run.fromPage, run.toPage, id]);
        await recordPayslipEvent(query, { ...payslip, id }, employee, { correlationId: actor.correlationId, now: at });
      }
      await query(`update payslip_batches set status = 'published', published_at = $2, storage_key = null where id = $1`, [batchId, at]);
      return true;
    });
  } finally {
    if (!published) await removeFiles(storage, stored.map((file) => file.storageKey));
  }
  if (published) {
    // Under an Idempotency-Key the request's own commit comes later: what it stored goes if that rolls back,
    // and the combined PDF only once it is committed.
    onRollback(() => removeFiles(storage, stored.map((file) => file.storageKey)));
    const source = batch.storageKey;
    await afterCommit(async () => {
      relay.nudge();
      await storage.remove(source).catch(() => undefined);
    });
    return (await showBatch(sql.query, batchId))!;
  }
  const current = (await showBatch(sql.query, batchId))!;
  if (current.status !== 'published') throw batchNotReady(current.status);
  return current;
}
