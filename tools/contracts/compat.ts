// Breaking changes between an app's released contracts and the working tree's. The rules are the
// issue's (issue 30), after oasdiff's for HTTP (github.com/oasdiff/oasdiff, BREAKING-CHANGES.md:
// a request accepts at least what it accepted, a response gives at least what it gave) and the same
// JSON-Schema comparison for event payloads. Each break names the app, the route or event, the
// field and who depends on it.
import type { AppName, EventType } from '@academy/contracts';
import { ROUTE_DEPENDENTS, eventDependents, type AppContract, type JsonSchema, type RouteContract } from './contracts.ts';

export interface Break {
  app: AppName;
  /** `GET /api/v2/…` or `event block.approved`. */
  where: string;
  /** `request body name`, `response 200 items[].grade`, `data.teacher.email`, … (empty for the route or event itself). */
  field: string;
  rule: string;
  dependents: string;
}

export const formatBreak = (b: Break) => `${b.app}: ${b.where}${b.field ? ` ${b.field}` : ''}: ${b.rule}; depended on by ${b.dependents}`;

// --- JSON Schema, as the contracts hold it -------------------------------------------------------

interface Shape {
  types: Set<string>;
  /** Allowed values, when every branch lists them (`enum`, `const`). */
  values: Set<string> | null;
  properties: Record<string, JsonSchema>;
  required: Set<string>;
  items: JsonSchema | null;
}

function shapeOf(schema: JsonSchema): Shape {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches?.length) {
    const shapes = branches.map(shapeOf);
    const objects = shapes.filter((shape) => shape.types.has('object'));
    const arrays = shapes.filter((shape) => shape.items);
    return {
      types: new Set(shapes.flatMap((shape) => [...shape.types])),
      values: shapes.every((shape) => shape.values || (shape.types.size === 1 && shape.types.has('null')))
        ? new Set(shapes.flatMap((shape) => [...(shape.values ?? ['null'])]))
        : null,
      properties: Object.assign({}, ...objects.map((shape) => shape.properties)),
      required: new Set(objects.length === 1 ? objects[0].required : []),
      items: arrays[0]?.items ?? null,
    };
  }
  const allOf = schema.allOf as JsonSchema[] | undefined;
  if (allOf?.length) return shapeOf(Object.assign({}, ...allOf, { allOf: undefined }) as JsonSchema);
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? (schema.enum as unknown[]) : null;
  let types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (!types.length && values) types = [...new Set(values.map((value) => (value === null ? 'null' : typeof value)))];
  if (!types.length && schema.properties) types = ['object'];
  if (schema.nullable === true) types = [...types, 'null'];
  return {
    types: new Set(types.length ? types : ['any']),
    values: values ? new Set(values.map((value) => JSON.stringify(value))) : null,
    properties: (schema.properties as Record<string, JsonSchema> | undefined) ?? {},
    required: new Set((schema.required as string[] | undefined) ?? []),
    items: (schema.items as JsonSchema | undefined) ?? null,
  };
}

/** `integer` is a `number`; `any` accepts everything. */
const accepts = (types: Set<string>, type: string) => types.has('any') || types.has(type) || (type === 'integer' && types.has('number'));
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
const show = (values: Iterable<string>) => [...values].join(', ');

export interface SchemaBreak {
  field: string;
  rule: string;
}

/**
 * What the new schema `reads` refuses of what the old one accepted (a request, a consumer's
 * payload): a required field added (or an optional one made required), a type narrowed, an enum
 * narrowed.
 */
export function readBreaks(before: JsonSchema, after: JsonSchema, path = ''): SchemaBreak[] {
  const old = shapeOf(before);
  const now = shapeOf(after);
  const out: SchemaBreak[] = [];
  const lost = [...old.types].filter((type) => !accepts(now.types, type));
  if (lost.length) out.push({ field: path, rule: `type narrowed: ${show(old.types)} → ${show(now.types)} (${show(lost)} no longer accepted)` });
  if (now.values) {
    const dropped = old.values ? [...old.values].filter((value) => !now.values?.has(value)) : null;
    if (dropped === null && !lost.length) out.push({ field: path, rule: `enum narrowed: any value → ${show(now.values)}` });
    else if (dropped?.length) out.push({ field: path, rule: `enum narrowed: ${show(dropped)} no longer accepted` });
  }
  for (const key of now.required) {
    if (!old.required.has(key)) out.push({ field: join(path, key), rule: key in old.properties ? 'made required' : 'required field added' });
  }
  for (const [key, schema] of Object.entries(now.properties)) if (old.properties[key]) out.push(...readBreaks(old.properties[key], schema, join(path, key)));
  if (old.items && now.items) out.push(...readBreaks(old.items, now.items, `${path}[]`));
  return out;
}

/**
 * What the new schema `writes` that a reader of the old one would not expect (a response, a
 * published payload): a field removed (or renamed), a required field made optional, made
 * nullable, its type changed.
 */
export function writeBreaks(before: JsonSchema, after: JsonSchema, path = '', options: { enums?: boolean } = {}): SchemaBreak[] {
  const old = shapeOf(before);
  const now = shapeOf(after);
  const out: SchemaBreak[] = [];
  const added = [...now.types].filter((type) => !accepts(old.types, type));
  if (added.length === 1 && added[0] === 'null') out.push({ field: path, rule: 'made nullable' });
  else if (added.length) out.push({ field: path, rule: `type changed: ${show(old.types)} → ${show(now.types)}` });
  // An event's reader validates with the old schema: a value outside its enum is refused (parked in its DLQ).
  if (options.enums && old.values) {
    const fresh = now.values ? [...now.values].filter((value) => !old.values?.has(value) && value !== 'null') : ['any value'];
    if (fresh.length) out.push({ field: path, rule: `enum widened: ${show(fresh)} refused by readers of the old schema` });
  }
  for (const key of Object.keys(old.properties)) {
    if (!(key in now.properties)) out.push({ field: join(path, key), rule: 'removed (or renamed)' });
    else if (old.required.has(key) && !now.required.has(key)) out.push({ field: join(path, key), rule: 'made optional (was always present)' });
  }
  for (const [key, schema] of Object.entries(now.properties)) if (old.properties[key]) out.push(...writeBreaks(old.properties[key], schema, join(path, key), options));
  if (old.items && now.items) out.push(...writeBreaks(old.items, now.items, `${path}[]`, options));
  return out;
}

// --- HTTP -----------------------------------------------------------------------------------------

export function routeBreaks(before: RouteContract, after: RouteContract): SchemaBreak[] {
  const out: SchemaBreak[] = [];
  const key = (p: { name: string; in: string }) => `${p.in} ${p.name}`;
  const oldParams = new Map(before.parameters.map((p) => [key(p), p]));
  for (const parameter of after.parameters) {
    const old = oldParams.get(key(parameter));
    const field = `${parameter.in} parameter ${parameter.name}`;
    if (parameter.required && !old) out.push({ field, rule: 'required parameter added' });
    else if (parameter.required && !old?.required) out.push({ field, rule: 'parameter made required' });
    if (old) out.push(...readBreaks(old.schema, parameter.schema).map((b) => ({ field: b.field ? `${field} ${b.field}` : field, rule: b.rule })));
  }
  if (after.requestBody) {
    if (after.requestBody.required && !before.requestBody?.required) out.push({ field: 'request body', rule: before.requestBody ? 'made required' : 'required request body added' });
    for (const [type, schema] of Object.entries(before.requestBody?.content ?? {})) {
      const now = after.requestBody.content[type];
      if (!now) out.push({ field: `request body (${type})`, rule: 'media type no longer accepted' });
      else out.push(...readBreaks(schema, now).map((b) => ({ field: `request body${b.field ? ` ${b.field}` : ''}`, rule: b.rule })));
    }
  }
  for (const [status, content] of Object.entries(before.responses)) {
    const now = after.responses[status];
    if (!now) {
      if (status.startsWith('2')) out.push({ field: `response ${status}`, rule: 'success status removed' });
      continue;
    }
    for (const [type, schema] of Object.entries(content)) {
      if (!now[type]) out.push({ field: `response ${status} (${type})`, rule: 'body no longer given in this media type' });
      else out.push(...writeBreaks(schema, now[type]).map((b) => ({ field: `response ${status}${b.field ? ` ${b.field}` : ''}`, rule: b.rule })));
    }
  }
  return out;
}

// --- An app against its last release --------------------------------------------------------------

export interface Released {
  version: string;
  contracts: AppContract;
}

/**
 * Every break of `app`'s working-tree contracts against its last release, and, for events, against
 * the last releases of the apps on the far side (`released`: every app's last release): a version
 * a released consumer reads that nobody publishes any more, a version a released publisher stamps
 * that this app no longer reads.
 */
export function appBreaks(app: AppName, now: AppContract, released: Partial<Record<AppName, Released>>, current: Record<AppName, AppContract>): Break[] {
  const mine = released[app];
  const out: Break[] = [];
  const seen = new Set<string>();
  const add = (b: Break) => {
    const id = `${b.where}|${b.field}|${b.rule}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(b);
  };
  if (!mine) return out;
  const before = mine.contracts;
  for (const [route, old] of Object.entries(before.routes)) {
    const next = now.routes[route];
    if (!next) add({ app, where: route, field: '', rule: 'route removed', dependents: ROUTE_DEPENDENTS });
    else for (const b of routeBreaks(old, next)) add({ app, where: route, ...b, dependents: ROUTE_DEPENDENTS });
  }
  const others = (type: string, side: 'publishes' | 'consumes') => {
    const apps = eventDependents(app, type as EventType, side);
    return apps.length ? apps.map((other) => `${other}${released[other] ? `@${released[other].version}` : ''}`).join(', ') : 'no app yet';
  };
  for (const [type, old] of Object.entries(before.events.publishes)) {
    const next = now.events.publishes[type];
    const where = `event ${type}`;
    if (!next) continue; // no longer published: the version rule below names the consumers that still read it
    const dropped = old.versions.filter((v) => !next.versions.includes(v));
    if (dropped.length && Math.max(...next.versions) > Math.max(...old.versions))
      add({ app, where, field: '', rule: `version ${show(next.versions.map(String))} published without version ${show(dropped.map(String))} (publish both for at least one release)`, dependents: others(type, 'publishes') });
    for (const b of [...writeBreaks(old.schema, next.schema, 'data', { enums: true }), ...readBreaks(old.schema, next.schema, 'data')]) add({ app, where, ...b, dependents: others(type, 'publishes') });
  }
  for (const [type, old] of Object.entries(before.events.consumes)) {
    const next = now.events.consumes[type];
    if (!next) continue;
    for (const b of readBreaks(old.schema, next.schema, 'data')) add({ app, where: `event ${type}`, ...b, dependents: others(type, 'consumes') });
  }
  // Versions across apps: what the released consumers read must still be published by someone, and
  // what the released publishers stamp must still be read by this app.
  for (const [type] of Object.entries(before.events.publishes)) {
    const publishedNow = Object.values(current).flatMap((contract) => contract.events.publishes[type]?.versions ?? []);
    for (const [other, release] of Object.entries(released) as [AppName, Released][]) {
      const reads = release.contracts.events.consumes[type]?.versions;
      if (other === app || !reads) continue;
      if (!reads.some((v) => publishedNow.includes(v)))
        add({
          app,
          where: `event ${type}`,
          field: '',
          rule: `version ${show(reads.map(String))}, read by ${other}@${release.version}, no longer published (now: ${publishedNow.length ? show(publishedNow.map(String)) : 'none'})`,
          dependents: `${other}@${release.version}`,
        });
    }
  }
  for (const [type, next] of Object.entries(now.events.consumes)) {
    for (const [other, release] of Object.entries(released) as [AppName, Released][]) {
      const stamps = release.contracts.events.publishes[type]?.versions;
      if (other === app || !stamps) continue;
      if (!stamps.some((v) => next.versions.includes(v)))
        add({ app, where: `event ${type}`, field: '', rule: `reads version ${show(next.versions.map(String))} only, ${other}@${release.version} publishes ${show(stamps.map(String))}`, dependents: `${other}@${release.version}` });
    }
  }
  return out;
}
