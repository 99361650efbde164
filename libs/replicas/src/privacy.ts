import type { EntityManager } from '@mikro-orm/postgresql';
import type { PrivacySubject } from '@academy/contracts';
import { run } from './handlers.ts';

/** What the provider reads of @academy/privacy's `ProviderContext` (this lib may not import that one: its services pass it in their provider lists, where it is checked). */
interface ReplicaProviderContext {
  em: EntityManager;
  subject: PrivacySubject;
  now: Date;
}

const field = (personal: boolean, description: string) => ({ personal, description });

interface ReplicaRow {
  id: number;
  userId: number | null;
  name: string | null;
  email: string | null;
  taxIdDigest: string | null;
  payrollCode: string | null;
  active: boolean;
  deleted: boolean;
}

/**
 * The employees replica's part of a personal data request, the same in every service that keeps one
 * (hours-bank, incidents, payslips): the export is the row as held; the erasure blanks every field
 * that identifies the person and leaves a tombstone (`deleted`, no login, no name, no address) whose
 * `source_version` is the erasure's time, so an older `employee.upserted` still on its way cannot
 * bring the person back. Nothing is kept. An @academy/privacy `PrivacyProvider`.
 */
export const employeeReplicaPrivacy = {
  feature: 'employee-replica',
  subjects: ['employee'] as const,
  declares: [
    {
      record: 'employees (replica of academic\'s)',
      purpose: "A copy of academic's employee record: their login, and the name and address the service's notices carry.",
      category: 'identity' as const,
      fields: {
        userId: field(false, 'their login'),
        name: field(true, 'full name'),
        email: field(true, 'e-mail address'),
        taxIdDigest: field(true, 'keyed digest of their DNI or NIE (payslips matches payslip pages with it)'),
        payrollCode: field(true, 'payroll code'),
        active: field(false, 'still works here'),
      },
    },
  ],
  async export({ em, subject }: ReplicaProviderContext) {
    const [row] = await em
      .getConnection()
      .execute<ReplicaRow[]>(
        `select id, user_id as "userId", name, email, tax_id_digest as "taxIdDigest", payroll_code as "payrollCode", active, deleted from employees where id = ?`,
        [subject.id],
        'all',
        em.getTransactionContext(),
      );
    if (!row || (row.deleted && row.name === null && row.email === null && row.userId === null)) return null;
    return { data: { employee: row } };
  },
  async erase({ em, subject, now }: ReplicaProviderContext) {
    const [row] = await em
      .getConnection()
      .execute<{ held: boolean; name: string | null; email: string | null }[]>(
        `select (user_id is not null or name is not null or email is not null or tax_id_digest is not null or payroll_code is not null) as held, name, email from employees where id = ?`,
        [subject.id],
        'all',
        em.getTransactionContext(),
      );
    await run(
      em,
      `insert into employees (id, active, deleted, source_version) values (?, false, true, ?)
       on conflict (id) do update set user_id = null, name = null, email = null, tax_id_digest = null, payroll_code = null, active = false, deleted = true,
         source_version = greatest(employees.source_version, excluded.source_version)`,
      [subject.id, now],
    );
    // The name and address it held: the service's published events and stored replies naming them go too.
    const identifiers = [row?.name, row?.email].filter((value): value is string => !!value);
    return { erased: row?.held ? [{ what: 'employee record (replica)', count: 1 }] : [], kept: [], ...(identifiers.length ? { identifiers } : {}) };
  },
};
