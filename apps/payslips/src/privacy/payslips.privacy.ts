import type { FileStorage } from '@academy/files';
import { personalFieldNames, type PersonalDataDeclaration, type PrivacyProvider } from '@academy/privacy';
import { employeeReplicaPrivacy } from '@academy/replicas';
import { addYears } from '../shared/dates.ts';
import { employeePayslips, restrictEmployeePayslips } from './privacy.store.ts';

const field = (personal: boolean, description: string) => ({ personal, description });

/** Why payslips outlive an erasure (the purge's `PAYSLIP_RETENTION_YEARS`). */
export const PAYSLIPS_LEGAL_BASIS = 'Ley General Tributaria art. 66 and LISOS art. 21: payroll records are kept 4 years';

export const PAYSLIPS_DECLARATIONS: readonly PersonalDataDeclaration[] = [
  {
    record: 'payslips (and their PDF files, encrypted at rest)',
    purpose: "Each month's payslip of an employee, its corrections and deletions, and when they first downloaded it (the receipt).",
    category: 'payroll',
    retention: 'While visible; deleted, corrected or restricted ones 4 years after their period ends (PAYSLIP_RETENTION_YEARS).',
    fields: {
      employeeId: field(false, 'the employee'),
      label: field(false, 'the payslip name, such as "Nómina octubre"'),
      periodStart: field(false, 'first day of the period'),
      periodEnd: field(false, 'last day of the period'),
      file: field(true, 'the payslip itself (salary, deductions, bank account)'),
      firstViewedAt: field(true, 'when they first downloaded it'),
      deleteReason: field(true, 'why an administrator deleted it'),
    },
  },
];

/** The day after `day` (`YYYY-MM-DD`). */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Payslips' part of a personal data request. The export is every payslip row held about the
 * employee (visible, corrected, deleted or restricted) with its view log, and each PDF decrypted.
 * An erasure keeps them (a law requires it), restricted from then on: never listed, downloaded,
 * corrected or announced again, and purged with the hidden ones once `retentionYears` after the
 * latest period has passed (the day listed as `until`).
 */
export function payslipsPrivacy(deps: { storage: FileStorage; retentionYears: number }): PrivacyProvider {
  return {
    feature: 'payslips',
    subjects: ['employee'],
    declares: PAYSLIPS_DECLARATIONS,
    async export({ em, subject }) {
      const payslips = await employeePayslips(em, subject.id);
      if (!payslips.length) return null;
      return {
        data: { payslips: payslips.map(({ storageKey: _key, ...payslip }) => ({ ...payslip, file: `payslip-${payslip.id}-${payslip.periodStart}.pdf` })) },
        files: payslips.map((payslip) => ({
          name: `payslip-${payslip.id}-${payslip.periodStart}.pdf`,
          mediaType: 'application/pdf',
          open: async () => {
            const stream = await deps.storage.open(payslip.storageKey);
            if (!stream) throw new Error(`the file of payslip ${payslip.id} is missing`);
            return stream;
          },
        })),
      };
    },
    async erase({ em, subject, now }) {
      const { count, lastPeriodEnd } = await restrictEmployeePayslips(em, subject.id, now);
      if (!count || !lastPeriodEnd) return { erased: [], kept: [] };
      return { erased: [], kept: [{ what: `payslips (${count} ${count === 1 ? 'file' : 'files'})`, legalBasis: PAYSLIPS_LEGAL_BASIS, until: dayAfter(addYears(lastPeriodEnd, deps.retentionYears)) }] };
    },
  };
}

/** Every provider of the service: its payslips and its employees replica. */
export const payslipsProviders = (deps: { storage: FileStorage; retentionYears: number }): PrivacyProvider[] => [payslipsPrivacy(deps), employeeReplicaPrivacy];

/**
 * The field names the providers declare personal, for the service's logger (known before its
 * storage exists: the declarations are static); a test holds it equal to `personalFieldNames(payslipsProviders(…))`.
 */
export const PAYSLIPS_PERSONAL_FIELDS: readonly string[] = [
  ...new Set([
    ...personalFieldNames([employeeReplicaPrivacy]),
    ...PAYSLIPS_DECLARATIONS.flatMap((record) => Object.entries(record.fields).flatMap(([name, declared]) => (declared.personal ? [name] : []))),
  ]),
].sort();
