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
  /** The publisher's release that must no longer carry it: the old version goes in the code of that release. */
  goneBy: { app: 'academic'; version: string };
  why: string;
}

/**
 * `employee.upserted` version 2 carries the tax id; version 3 (issue 35) carries its keyed digest.
 * academic@1.3.0 publishes both (a new version beside the old one for one release: the consumers'
 * 1.2.0 pods read version 2 only). Every consumer's 1.3.0 reads version 3, so version 2 (its `taxId`,
 * `alsoPublishes` and `readableOlderVersions` entries, the replicas' version 2 path) goes in academic's
 * next release: this check fails once academic@1.4.0 is released with it.
 */
const EXCEPTIONS: Exception[] = [
  { type: 'employee.upserted', field: 'data.taxId', version: 2, since: '2026-11-27', goneBy: { app: 'academic', version: '1.4.0' }, why: 'hours-bank, incidents and payslips 1.2.0 read version 2 only' },
];

/** `a.b.c` compared numerically: negative when `a` is older. */
const compareVersions = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

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

  test.each(EXCEPTIONS)('the exception of $type $field (since $since) has not outstayed: its version $version is published beside a newer one, and the release it must be gone by is not cut yet', (exception) => {
    expect(taxIdFields(eventDataSchema(exception.type))).toContain(exception.field);
    expect(eventVersions[exception.type]).toBeGreaterThan(exception.version);
    const { publishers, consumers } = eventParties(exception.type);
    for (const app of publishers) expect({ app, versions: publishedVersions(app, exception.type) }).toEqual({ app, versions: expect.arrayContaining([exception.version, eventVersions[exception.type]]) });
    // One release with both versions, then the old one (and this exception) goes: the release named in goneBy must not carry it.
    const records = readRecords();
    const released = records[exception.goneBy.app].version;
    expect({ [exception.goneBy.app]: released, outstayed: compareVersions(released, exception.goneBy.version) >= 0 }).toEqual({ [exception.goneBy.app]: released, outstayed: false });
    // Once every consumer's last release reads a newer version, the old one may go (the next release of the publisher).
    const readers = consumers.filter((app) => ((readSnapshot(app, records[app]).contracts.events.consumes[exception.type]?.versions as number[] | undefined) ?? []).some((version) => version > exception.version));
    expect(readers.length).toBeGreaterThan(0);
  });
});
