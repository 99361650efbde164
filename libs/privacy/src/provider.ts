import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Locale, PrivacyKept, PrivacySubject, PrivacySubjectKind } from '@academy/contracts';

/**
 * What kind of personal data a record holds (GDPR art. 30's categories, as the academy uses them):
 * the export's README names them, and `special` marks what art. 9 protects (health in an absence's reason).
 */
export const PERSONAL_DATA_CATEGORIES = ['identity', 'contact', 'credentials', 'employment', 'payroll', 'working-time', 'academic', 'attendance', 'communications', 'devices', 'preferences', 'files', 'special'] as const;
export type PersonalDataCategory = (typeof PERSONAL_DATA_CATEGORIES)[number];

/** One field of a record. `personal`: it identifies the person or says something about them (the logger redacts it). */
export interface PersonalField {
  personal: boolean;
  description: string;
}

/**
 * One record kind a provider holds (Moodle's `metadata_provider`: `add_database_table`): where it
 * lives, what it is for, its fields. The field names are those the record has in JSON (the export,
 * events, logs: camelCase), so the logger's redaction list can be built from them (`personalFieldNames`).
 */
export interface PersonalDataDeclaration {
  /** The table (or store) it lives in: `incidents`, `incident_files`, `employees (replica)`. */
  record: string;
  /** What it is and why it is held, in one sentence (for the export's README and the register of processing). */
  purpose: string;
  category: PersonalDataCategory;
  fields: Readonly<Record<string, PersonalField>>;
  /** How long it is kept when nobody asks (e.g. "4 years after the month it belongs to"). */
  retention?: string;
}

/** What a provider is given, for either request. */
export interface ProviderContext {
  /** In the transaction of the answer: every provider of the service, the answer's row and its outbox event commit together. */
  em: EntityManager;
  subject: PrivacySubject;
  requestId: string;
  /** The service's clock at the answer: an erasure's `until` dates are counted from it. */
  now: Date;
  /** The person's language (for what a provider writes in words, if anything). */
  locale: Locale;
}

/** A file of the export: streamed into the encrypted part when the provider answers (decrypt on the way if stored encrypted). */
export interface ExportFile {
  /** The file's name inside the feature's folder of the ZIP (`incident-12/message-40-scan.pdf`); `/` makes subfolders; no `..`. */
  name: string;
  mediaType: string;
  open(): Promise<Readable>;
}

/** An access request's answer of one provider: `null` when it holds nothing about the person. */
export type ExportAnswer = null | {
  /** Everything held about the person, as JSON (ids, dates as ISO strings): written to `<service>/<feature>.json`. */
  data: unknown;
  files?: readonly ExportFile[];
};

/** An erasure's answer of one provider: both empty means it held nothing. */
export interface EraseAnswer {
  /** What was erased or anonymized, with how many records. */
  erased: readonly { what: string; count: number }[];
  /** What a law requires keeping: restricted from now on, removed on `until`. */
  kept: readonly PrivacyKept[];
  /**
   * Values that identified the person here before the erasure (their full name, tax id…; never
   * published): the service's published events and stored replies naming one are forgotten too.
   */
  identifiers?: readonly string[];
}

/**
 * A feature's part of the person's data (Moodle's privacy provider): it declares what it holds and
 * exports or erases it. A service registers one per feature with `subscribePrivacy`.
 *
 * Both calls run in the answer's transaction and may run more than once (a retried attempt, a
 * redelivery before the commit): `erase` must be idempotent (erasing what is already erased
 * erases nothing more), `export` must not change anything.
 */
export interface PrivacyProvider {
  /** The feature's name (`time-records`, `incidents`, `payslips`): the answer's `<service>.<feature>`, and its JSON's name in the ZIP. */
  feature: string;
  /** The kinds of person it may hold data about; it is not asked about the others. */
  subjects: readonly PrivacySubjectKind[];
  declares: readonly PersonalDataDeclaration[];
  export(ctx: ProviderContext): Promise<ExportAnswer>;
  erase(ctx: ProviderContext): Promise<EraseAnswer>;
}

/** The field names declared personal by `providers` (sorted, once each): what the logger must redact. */
export function personalFieldNames(providers: readonly PrivacyProvider[]): string[] {
  const names = new Set<string>();
  for (const provider of providers) for (const record of provider.declares) for (const [name, field] of Object.entries(record.fields)) if (field.personal) names.add(name);
  return [...names].sort();
}

const FEATURE = /^[a-z][a-z0-9-]{0,49}$/;

/** Refuses a provider set that would write an ambiguous part: two features of one name, a name that is not a plain slug. */
export function checkProviders(providers: readonly PrivacyProvider[]): void {
  const seen = new Set<string>();
  for (const provider of providers) {
    if (!FEATURE.test(provider.feature)) throw new Error(`privacy provider "${provider.feature}": a feature is lower-case letters, digits and "-"`);
    if (seen.has(provider.feature)) throw new Error(`privacy provider "${provider.feature}" is registered twice`);
    if (provider.subjects.length === 0) throw new Error(`privacy provider "${provider.feature}" names no subject kind`);
    seen.add(provider.feature);
  }
}
