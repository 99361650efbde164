import { defineEntity, p } from '@mikro-orm/postgresql';
import { BATCH_STATUSES, PAYSLIP_MATCH_BY } from '@academy/contracts';

/** The month's combined PDF: read and matched in the background, then published as payslips. */
export const PayslipBatch = defineEntity({
  name: 'PayslipBatch',
  tableName: 'payslip_batches',
  properties: {
    id: p.integer().primary().autoincrement(),
    status: p.enum(BATCH_STATUSES),
    failureReason: p.text().nullable(),
    label: p.string().length(120),
    periodStart: p.date(),
    periodEnd: p.date(),
    issuedOn: p.date(),
    matchBy: p.enum(PAYSLIP_MATCH_BY),
    pageCount: p.integer(),
    sizeBytes: p.integer(),
    /** The combined PDF, encrypted; removed once published or discarded. */
    storageKey: p.string().length(64).nullable(),
    createdAt: p.datetime(),
    createdByUserId: p.integer().nullable(),
    /** When the current read started: a read older than BATCH_READ_TIMEOUT_MS was interrupted and is started again. */
    readStartedAt: p.datetime().nullable(),
    readAt: p.datetime().nullable(),
    publishedAt: p.datetime().nullable(),
    discardedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['status', 'readStartedAt'] }],
});

/** One page of a batch: who it names, who it was assigned to by hand, and the payslip it became. */
export const PayslipBatchPage = defineEntity({
  name: 'PayslipBatchPage',
  tableName: 'payslip_batch_pages',
  properties: {
    batchId: p.integer().primary(),
    page: p.integer().primary(),
    /** Employees whose identifier the page names (none, one, or several). */
    candidateIds: p.json<number[]>(),
    /** The start of the page's text, for an administrator fixing an unmatched page (never logged). */
    excerpt: p.text(),
    assignedEmployeeId: p.integer().nullable(),
    payslipId: p.integer().nullable(),
    /** The employee's visible payslip this page's run already is (the same file): shown in the preview, left out at publish. */
    duplicateOfPayslipId: p.integer().nullable(),
  },
});
