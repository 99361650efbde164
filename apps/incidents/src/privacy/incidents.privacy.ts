import { removeFiles, type FileStorage } from '@academy/files';
import { personalFieldNames, type PersonalDataDeclaration, type PrivacyProvider } from '@academy/privacy';
import { employeeReplicaPrivacy } from '@academy/replicas';
import { deleteEmployeeIncidents, employeeIncidentFiles, employeeIncidents, employeeTimeRecords, restrictEmployeeTimeRecords } from './privacy.store.ts';

const field = (personal: boolean, description: string) => ({ personal, description });

/** Why daily time records outlive an erasure. */
export const TIME_RECORDS_LEGAL_BASIS = 'Estatuto de los Trabajadores art. 34.9: the daily working time register is kept 4 years';
export const TIME_RECORDS_RETENTION_YEARS = 4;

const INCIDENTS_DECLARATIONS: readonly PersonalDataDeclaration[] = [
  {
    record: 'incidents',
    purpose: 'Anomalies of the working time register (a clock-in while one is open, an absence, a late clock-in) raised about an employee.',
    category: 'working-time',
    retention: 'While they work here; erased on request.',
    fields: { kind: field(false, 'the rule that raised it'), description: field(true, 'what happened'), deviceId: field(true, 'the device they clocked with'), day: field(false, 'the day it concerns') },
  },
  {
    record: 'incident_messages, incident_files',
    purpose: 'The conversation of each incident between the employee and the administrators, and the files attached to it (a doctor\'s note).',
    category: 'communications',
    retention: 'As its incident.',
    fields: { text: field(true, 'a message'), fileName: field(true, 'an attached file\'s name'), file: field(true, 'an attached file (possibly health data)') },
  },
];

const TIME_RECORDS_DECLARATIONS: readonly PersonalDataDeclaration[] = [
  {
    record: 'time_records',
    purpose: 'The daily register of when each employee starts and ends work (Estatuto de los Trabajadores art. 34.9).',
    category: 'working-time',
    retention: '4 years (Estatuto de los Trabajadores art. 34.9).',
    fields: { clockInAt: field(true, 'when they started'), clockOutAt: field(true, 'when they ended'), clockInDeviceId: field(true, 'the device they clocked in with'), clockOutDeviceId: field(true, 'the device they clocked out with') },
  },
];

/** The day `years` after `day` (`YYYY-MM-DD`) and one more: the first day it is no longer kept. */
function removedOn(day: string, years: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year + years, month - 1, date + 1)).toISOString().slice(0, 10);
}

/**
 * Incidents' part: the incidents about an employee with their threads and attached files (exported
 * as stored), erased on request, files too; and the daily time records, exported and, on erasure,
 * kept 4 years after the latest day restricted (no history, report or scheduled check shows them; the
 * devices they were clocked with forgotten).
 */
export function incidentsPrivacy(deps: { storage: FileStorage; timeZone: string }): PrivacyProvider[] {
  const incidents: PrivacyProvider = {
    feature: 'incidents',
    subjects: ['employee'],
    declares: INCIDENTS_DECLARATIONS,
    async export({ em, subject }) {
      const [rows, files] = [await employeeIncidents(em, subject.id), await employeeIncidentFiles(em, subject.id)];
      if (!rows.length) return null;
      const fileName = (file: (typeof files)[number]) => `incident-${file.incidentId}/${file.id}-${file.fileName.replace(/[/\\]/g, '_')}`;
      return {
        data: { incidents: rows.map((incident) => ({ ...incident, files: files.filter((file) => file.incidentId === incident.id).map(({ storageKey: _key, ...file }) => ({ ...file, file: fileName({ ...file, storageKey: '' }) })) })) },
        files: files.map((file) => ({
          name: fileName(file),
          mediaType: file.contentType,
          open: async () => {
            const stream = await deps.storage.open(file.storageKey);
            if (!stream) throw new Error(`the file ${file.id} of incident ${file.incidentId} is missing`);
            return stream;
          },
        })),
      };
    },
    async erase({ em, subject }) {
      const { incidents: count, messages, storageKeys } = await deleteEmployeeIncidents(em, subject.id);
      // The rows that name the files are gone first: a rolled-back attempt leaves rows whose files are missing, and its retry deletes them.
      await removeFiles(deps.storage, storageKeys);
      return { erased: count ? [{ what: 'incidents', count }, { what: 'incident messages', count: messages }, { what: 'incident files', count: storageKeys.length }] : [], kept: [] };
    },
  };

  const timeRecords: PrivacyProvider = {
    feature: 'time-records',
    subjects: ['employee'],
    declares: TIME_RECORDS_DECLARATIONS,
    async export({ em, subject }) {
      const records = await employeeTimeRecords(em, subject.id);
      return records.length ? { data: { timeRecords: records } } : null;
    },
    async erase({ em, subject, now }) {
      const { count, devicesForgotten, lastDay } = await restrictEmployeeTimeRecords(em, subject.id, now, deps.timeZone);
      if (!count || !lastDay) return { erased: [], kept: [] };
      return {
        erased: devicesForgotten ? [{ what: 'devices of the daily time records', count: devicesForgotten }] : [],
        kept: [{ what: `daily time records (${count})`, legalBasis: TIME_RECORDS_LEGAL_BASIS, until: removedOn(lastDay, TIME_RECORDS_RETENTION_YEARS) }],
      };
    },
  };

  return [incidents, timeRecords, employeeReplicaPrivacy];
}

/** The field names the providers declare personal, for the service's logger (the declarations are static; a test holds this equal to `personalFieldNames(incidentsPrivacy(…))`). */
export const INCIDENTS_PERSONAL_FIELDS: readonly string[] = [
  ...new Set([
    ...personalFieldNames([employeeReplicaPrivacy]),
    ...[...INCIDENTS_DECLARATIONS, ...TIME_RECORDS_DECLARATIONS].flatMap((record) => Object.entries(record.fields).flatMap(([name, declared]) => (declared.personal ? [name] : []))),
  ]),
].sort();
