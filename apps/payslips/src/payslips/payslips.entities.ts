import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * One payslip: its file (encrypted in the storage, named by `storageKey`, never by the uploaded
 * name) and its life. A deleted or superseded payslip is hidden from its employee and kept, file
 * and audit (who, when, why), until the retention period after its period ends; then purged.
 */
export const Payslip = defineEntity({
  name: 'Payslip',
  tableName: 'payslips',
  properties: {
    id: p.integer().primary().autoincrement(),
    employeeId: p.integer(),
    label: p.string().length(120),
    periodStart: p.date(),
    periodEnd: p.date(),
    issuedOn: p.date(),
    sizeBytes: p.integer(),
    /** SHA-256 of the PDF: the same file twice among an employee's visible payslips is refused. */
    sha256: p.string().length(64),
    storageKey: p.string().length(64),
    batchId: p.integer().nullable(),
    /** The payslip this one corrects. */
    supersedesId: p.integer().nullable(),
    supersededById: p.integer().nullable(),
    supersededAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    createdByUserId: p.integer().nullable(),
    /** The first download by its employee: the receipt. */
    firstViewedAt: p.datetime().nullable(),
    deletedAt: p.datetime().nullable(),
    deletedByUserId: p.integer().nullable(),
    deleteReason: p.text().nullable(),
    /** Set when its employee's data was erased on request: kept for the law only, shown nowhere, purged with the hidden ones. */
    restrictedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['employeeId', 'periodStart'] }, { properties: ['periodStart'] }, { properties: ['batchId'] }],
  uniques: [
    {
      name: 'payslips_employee_id_sha256_unique',
      expression: 'create unique index "payslips_employee_id_sha256_unique" on "payslips" ("employee_id", "sha256") where "deleted_at" is null and "superseded_by_id" is null',
    },
  ],
});
