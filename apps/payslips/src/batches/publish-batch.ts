import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Actor } from '@academy/auth';
import type { PayslipBatch } from '@academy/contracts';
import { removeFiles } from '@academy/files';
import { afterCommit, onRollback } from '@academy/service';
import { activeEmployees } from '../shared/employees.store.ts';
import type { PayslipsContext } from '../shared/payslips-context.ts';
import { publishPayslip } from '../shared/publish-payslip.ts';
import { visiblePayslipsByFile } from '../shared/published-payslips.store.ts';
import { batchChanging, batchNotFound, batchNotReady, nothingToPublish } from './batches.errors.ts';
import { batchPages, batchView, findBatch, clearDuplicates, linkPages, markDuplicate, markPublished } from './batches.store.ts';
import { pageRuns, type PageRun } from './page-runs.ts';

/**
 * Admin: every run of pages matched to an active employee becomes a payslip. The runs are split
 * into PDFs in a worker and stored first; then the payslips, their `payslip.published` events and
 * the batch's new state commit in one transaction, under the batch's row lock: of concurrent
 * publishes one commits, the others find it published, remove their files and answer the same.
 * A run whose file already is a visible payslip of its employee (the combined PDF uploaded again) is
 * left out, its pages marked with that payslip (`duplicateOfPayslipId`), instead of refusing the batch.
 * A published batch is answered as it is (idempotent); its combined PDF is removed once published.
 * The runs are read again under the lock, their employees share-locked: a page assigned or an employee
 * deactivated since the split (committed in between) makes it start over from the new runs.
 */
export async function publishBatch(ctx: PayslipsContext, input: { batchId: number }, actor: Actor): Promise<PayslipBatch> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const published = await publishOnce(ctx, input, actor);
    if (published !== CHANGED) return published;
  }
  throw batchChanging();
}

/** The batch's runs changed between the split and the lock: nothing was written. */
const CHANGED = Symbol('changed');

const sameRuns = (a: readonly PageRun[], b: readonly PageRun[]) =>
  a.length === b.length && a.every((run, index) => run.employeeId === b[index]!.employeeId && run.fromPage === b[index]!.fromPage && run.toPage === b[index]!.toPage);

async function publishOnce(ctx: PayslipsContext, input: { batchId: number }, actor: Actor): Promise<PayslipBatch | typeof CHANGED> {
  const batch = await findBatch(ctx.sql.query, input.batchId);
  if (!batch) throw batchNotFound();
  if (batch.status === 'published') return (await batchView(ctx.sql.query, input.batchId))!;
  if (batch.status !== 'ready' || !batch.storageKey) throw batchNotReady(batch.status);

  const matched = pageRuns(await batchPages(ctx.sql.query, input.batchId));
  const employees = await activeEmployees(ctx.sql.query, [...new Set(matched.map((run) => run.employeeId))]);
  const runs = matched.filter((run) => employees.has(run.employeeId));
  if (!runs.length) throw nothingToPublish();

  const source = await ctx.storage.open(batch.storageKey).then((stream) => (stream ? buffer(stream) : null));
  if (!source) {
    // A concurrent publish (this instance or another) committed since the first read, and removed the
    // combined PDF once committed: the batch is published, answered as it is, like any later publish.
    const current = await batchView(ctx.sql.query, input.batchId);
    if (current?.status === 'published') return current;
    throw batchNotReady('missing its file');
  }
  const files = (await ctx.pdf.split({ pdf: source, runs })).map((file) => {
    const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
  const existing = await visiblePayslipsByFile(ctx.sql.query, runs.map((run, index) => ({ employeeId: run.employeeId, sha256: files[index]!.sha256 })));
  const duplicateOf = runs.map((run, index) => existing.get(`${run.employeeId}:${files[index]!.sha256}`) ?? null);
  const fresh = runs.flatMap((run, index) => (duplicateOf[index] === null ? [{ run, ...files[index]! }] : []));
  const stored = await Promise.all(
    fresh.map(async ({ bytes, sha256 }) => {
      const { key } = await ctx.storage.save(Readable.from([bytes]));
      return { storageKey: key, sizeBytes: bytes.length, sha256 };
    }),
  );

  let published: boolean | typeof CHANGED = false;
  try {
    published = await ctx.sql.transaction(async (query) => {
      const locked = await findBatch(query, input.batchId, { lock: true });
      if (locked?.status !== 'ready') return false;
      // What an assign or a deactivation committed since the first read: those runs are not the ones split.
      const current = pageRuns(await batchPages(query, input.batchId));
      const active = await activeEmployees(query, [...new Set(current.map((run) => run.employeeId))], { lock: 'share' });
      if (!sameRuns(current.filter((run) => active.has(run.employeeId)), runs)) return CHANGED;
      const at = ctx.clock.now();
      await clearDuplicates(query, input.batchId);
      for (const [index, run] of runs.entries()) if (duplicateOf[index] !== null) await markDuplicate(query, input.batchId, run, duplicateOf[index]);
      for (const [index, { run }] of fresh.entries()) {
        const payslip = { label: batch.label, periodStart: batch.periodStart, periodEnd: batch.periodEnd, issuedOn: batch.issuedOn, ...stored[index]!, supersedesId: null, batchId: input.batchId, createdByUserId: actor.userId, createdAt: at };
        const id = await publishPayslip(query, payslip, active.get(run.employeeId)!, actor.correlationId);
        await linkPages(query, input.batchId, run, id);
      }
      await markPublished(query, input.batchId, at);
      return true;
    });
  } finally {
    if (published !== true) await removeFiles(ctx.storage, stored.map((file) => file.storageKey));
  }
  if (published === CHANGED) return CHANGED;
  if (published) {
    // Under an Idempotency-Key the request's own commit comes later: what it stored goes if that rolls back,
    // and the combined PDF only once it is committed.
    onRollback(() => removeFiles(ctx.storage, stored.map((file) => file.storageKey)));
    const source = batch.storageKey;
    await afterCommit(async () => {
      ctx.relay.nudge();
      await ctx.storage.remove(source).catch(() => undefined);
    });
    return (await batchView(ctx.sql.query, input.batchId))!;
  }
  const current = (await batchView(ctx.sql.query, input.batchId))!;
  if (current.status !== 'published') throw batchNotReady(current.status);
  return current;
}
