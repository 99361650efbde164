import type { PrivacyProvider } from '@academy/privacy';
import { employeeReplicaPrivacy } from '@academy/replicas';
import { deleteEmployeeBanks, employeeBanks } from './privacy.store.ts';

const field = (personal: boolean, description: string) => ({ personal, description });

/**
 * The hours bank's part of a personal data request: an employee's bank per school course and every
 * addition, edit and reversal in it. Erasure deletes them: no law asks the academy to keep a balance
 * of hours owed (the working time register it must keep is incidents' daily time records).
 */
export const hoursBankPrivacy: PrivacyProvider = {
  feature: 'hours-bank',
  subjects: ['employee'],
  declares: [
    {
      record: 'hours_banks',
      purpose: 'The hours each employee owes or is owed per school course.',
      category: 'working-time',
      retention: 'While they work here; erased on request.',
      fields: { employeeId: field(false, 'the employee'), schoolCourseId: field(false, 'the school course'), pendingMinutes: field(true, 'minutes owed'), completedMinutes: field(true, 'minutes done beyond what was owed') },
    },
    {
      record: 'hours_transactions',
      purpose: 'Each addition of pending or completed hours, its edits and reversals, with who made it and why.',
      category: 'working-time',
      retention: 'As its bank.',
      fields: {
        transactionDate: field(true, 'the day the hours belong to'),
        totalMinutes: field(true, 'minutes added'),
        reason: field(true, 'why, as written by an administrator'),
        createdBy: field(false, 'the login that recorded it'),
      },
    },
  ],
  async export({ em, subject }) {
    const banks = await employeeBanks(em, subject.id);
    return banks.length ? { data: { banks } } : null;
  },
  async erase({ em, subject }) {
    const { banks, transactions } = await deleteEmployeeBanks(em, subject.id);
    return { erased: banks ? [{ what: 'hours banks', count: banks }, { what: 'hours bank entries', count: transactions }] : [], kept: [] };
  },
};

/** Every provider of the service: its own feature and its employees replica. */
export const hoursBankProviders: readonly PrivacyProvider[] = [hoursBankPrivacy, employeeReplicaPrivacy];
