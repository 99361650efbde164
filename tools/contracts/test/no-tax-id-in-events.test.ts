// Nothing personal on the bus beyond what is needed (issue 35): no event schema carries a tax id (a
// DNI, NIE or any other national id) but for the dated exceptions below, each of which says when it
// goes, and fails here once it has outstayed that.
import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { eventDataSchema, eventParties, eventSchemas, eventVersions, publishedVersions, type EventType } from '@academy/contracts';
import { readRecords, readSnapshot } from '../records.ts';

/** Field names that are a tax or national id, compared lower-case without `_`, `-` or spaces. */
const TAX_ID_NAMES = new Set(['taxid', 'taxnumber', 'taxidentifier', 'nif', 'dni', 'nie', 'cif', 'vatid', 'vatnumber', 'ssn', 'nss', 'naf', 'socialsecuritynumber', 'nationalid', 'passport', 'passportnumber']);
const isTaxIdName = (name: string) => TAX_ID_NAMES.has(name.toLowerCase().replace(/[\s_-]/g, ''));

interface Exception {
  type: EventType;
  field: string;
  /** The old version that carries it, published beside the current one while released consumers read it. */
  version: number;
  /** When it was allowed. */
  since: string;
  why: string;
}

/**
 * `employee.upserted` version 2 carries the tax id; version 3 (issue 35) carries its keyed digest.
 * Academic publishes both until every released consumer reads version 3: drop version 2 (its
 * `taxId`, `alsoPublishes` and `readableOlderVersions` entries) at the release after 1.2.0.
 */
const EXCEPTIONS: Exception[] = [
  { type: 'employee.upserted', field: 'data.taxId', version: 2, since: '2026-11-27', why: 'hours-bank, incidents and payslips 1.2.0 read version 2 only' },
];

/** The paths of the fields named like a tax id anywhere in a JSON Schema (objects, arrays, unions). */
export function taxIdFields(schema: unknown, path = 'data'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  for (const [name, child] of Object.entries((node.properties as Record<string, unknown> | undefined) ?? {})) {
    const at = `${path}.${name}`;
    if (isTaxIdName(name)) found.push(at);
    found.push(...taxIdFields(child, at));
  }
  if (node.items) found.push(...taxIdFields(node.items, `${path}[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of (node[key] as unknown[] | undefined) ?? []) found.push(...taxIdFields(branch, path));
  if (node.additionalProperties && typeof node.additionalProperties === 'object') found.push(...taxIdFields(node.additionalProperties, `${path}.*`));
  return [...new Set(found)];
}

const excepted = (type: string, field: string) => EXCEPTIONS.some((exception) => exception.type === type && exception.field === field);

describe('no event schema carries a tax id', () => {
  test('no field of any event type is named like a tax id, but for the dated exceptions', () => {
    const found = (Object.keys(eventSchemas) as EventType[]).flatMap((type) => taxIdFields(eventDataSchema(type)).map((field) => `${type} ${field}`));
    expect(found.filter((entry) => !excepted(entry.split(' ')[0]!, entry.split(' ')[1]!))).toEqual([]);
  });

  test('the check finds a tax id however deep or named (nested, in an array, in a union, snake case, a NIE)', () => {
    const schema = z.object({
      employee: z.object({ NIF: z.string() }),
      people: z.array(z.object({ tax_id: z.string().nullable() })),
      either: z.union([z.object({ nie: z.string() }), z.object({ name: z.string() })]),
      taxIdDigest: z.string(),
    });
    expect(taxIdFields(z.toJSONSchema(schema)).sort()).toEqual(['data.either.nie', 'data.employee.NIF', 'data.people[].tax_id']);
  });

  test.each(EXCEPTIONS)('the exception of $type $field (since $since) is still needed: its version $version is published beside a newer one, and a released consumer reads no newer one', (exception) => {
    expect(taxIdFields(eventDataSchema(exception.type))).toContain(exception.field);
    expect(eventVersions[exception.type]).toBeGreaterThan(exception.version);
    const { publishers, consumers } = eventParties(exception.type);
    for (const app of publishers) expect({ app, versions: publishedVersions(app, exception.type) }).toEqual({ app, versions: expect.arrayContaining([exception.version, eventVersions[exception.type]]) });
    // Once every consumer's last release reads a newer version, the old one (and this exception) must go.
    const records = readRecords();
    const stillOld = consumers.filter((app) => {
      const reads = (readSnapshot(app, records[app]).contracts.events.consumes[exception.type]?.versions as number[] | undefined) ?? [];
      return !reads.some((version) => version > exception.version);
    });
    expect({ releasedConsumersReadingOnlyTheOldVersion: stillOld.map((app) => `${app}@${records[app].version}`) }).not.toEqual({ releasedConsumersReadingOnlyTheOldVersion: [] });
  });
});
