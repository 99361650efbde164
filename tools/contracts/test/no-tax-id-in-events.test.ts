// Nothing personal on the bus beyond what is needed (issue 35): no event schema carries a tax id (a
// DNI, NIE or any other national id) but for the dated exceptions below, each of which says when it
// goes, and fails here once it has outstayed that.
import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { consumedVersions, eventDataSchema, eventParties, eventSchemas, eventTypeVersions, eventVersions, publishedVersions, type EventType } from '@academy/contracts';
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
 * None at present. The last one, `employee.upserted` version 2 (the tax id itself, published beside
 * version 3 by academic@1.3.0 only: the consumers' 1.2.0 pods read version 2 only) went before
 * academic@1.4.0, its `goneBy`, as every consumer's 1.3.0 reads version 3: no app stamps or reads
 * version 2, and its `taxId`, marked `onlyInVersions: [2]`, is left in the schema for contracts:check alone.
 */
const EXCEPTIONS: Exception[] = [];
/** `a.b.c` compared numerically: negative when `a` is older. */
const compareVersions = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/**
 * The paths of the fields named like a tax id anywhere in a JSON Schema (objects, arrays, unions).
 * Given the versions on the bus, a field marked `onlyInVersions` (zod `.meta`) none of which is on
 * the bus is left out: no envelope anyone stamps or reads carries it.
 */
export function taxIdFields(schema: unknown, path = 'data', versionsOnBus?: readonly number[]): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  for (const [name, child] of Object.entries((node.properties as Record<string, unknown> | undefined) ?? {})) {
    const only = (child as { onlyInVersions?: unknown } | null)?.onlyInVersions;
    if (versionsOnBus && Array.isArray(only) && !only.some((version) => versionsOnBus.includes(version as number))) continue;
    const at = `${path}.${name}`;
    if (isTaxIdName(name)) found.push(at);
    found.push(...taxIdFields(child, at, versionsOnBus));
  }
  if (node.items) found.push(...taxIdFields(node.items, `${path}[]`, versionsOnBus));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of (node[key] as unknown[] | undefined) ?? []) found.push(...taxIdFields(branch, path, versionsOnBus));
  if (node.additionalProperties && typeof node.additionalProperties === 'object') found.push(...taxIdFields(node.additionalProperties, `${path}.*`, versionsOnBus));
  return [...new Set(found)];
}

const excepted = (type: string, field: string) => EXCEPTIONS.some((exception) => exception.type === type && exception.field === field);

describe('no event schema carries a tax id', () => {
  test('no field of any event type is named like a tax id, but for the dated exceptions', () => {
    const found = (Object.keys(eventSchemas) as EventType[]).flatMap((type) => taxIdFields(eventDataSchema(type), 'data', eventTypeVersions(type)).map((field) => `${type} ${field}`));
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

  test('a field of an old version only is left out while that version is off the bus, and found again once any app stamps or reads it', () => {
    const schema = z.toJSONSchema(z.object({ taxId: z.string().optional().meta({ onlyInVersions: [2] }), taxIdDigest: z.string() }));
    expect(taxIdFields(schema, 'data', [1, 3])).toEqual([]);
    expect(taxIdFields(schema, 'data', [2, 3])).toEqual(['data.taxId']);
    expect(taxIdFields(schema)).toEqual(['data.taxId']);
  });

  test('each dated exception (none at present) has not outstayed: its version is published beside a newer one, and the release it must be gone by is not cut yet', () => {
    for (const exception of EXCEPTIONS) {
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
    }
  });

  test('employee.upserted version 2 (the tax id) is gone: no app publishes or reads it, every consumer\'s last release reads version 3, and a version 3 with a tax id is invalid', () => {
    expect(taxIdFields(eventDataSchema('employee.upserted'))).toEqual(['data.taxId']);
    expect(eventTypeVersions('employee.upserted')).toEqual([1, 3]);
    expect(eventSchemas['employee.upserted'].safeParse({ id: 1, userId: null, name: 'Ana', email: null, active: true, taxId: '12345678Z', payrollCode: null }).success).toBe(false);
    const { publishers, consumers } = eventParties('employee.upserted');
    for (const app of publishers) expect({ app, versions: publishedVersions(app, 'employee.upserted') }).toEqual({ app, versions: [3] });
    expect(consumedVersions('employee.upserted')).not.toContain(2);
    const records = readRecords();
    for (const app of consumers) expect({ app, reads: readSnapshot(app, records[app]).contracts.events.consumes['employee.upserted']?.versions }).toEqual({ app, reads: expect.arrayContaining([3]) });
  });
});
