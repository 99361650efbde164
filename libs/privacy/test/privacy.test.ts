import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import express from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createEnvelope, parseEnvelope, type EventData, type PrivacySubject } from '@academy/contracts';
import { createOrm } from '@academy/db';
import { diskStorage, encryptedStorage, type FileStorage } from '@academy/files';
import { createLogger, fixedClock } from '@academy/kit';
import { createBroker, messagingEntities, type Broker } from '@academy/messaging';
import { createTestDatabase, deleteTestQueues, dropTestDatabase, testUrls, uniqueName, uniqueQueueName, waitFor } from '@academy/testing';
import { PART_PATH, personalFieldNames, privacyEntities, privacyPartRoutes, privacyRequestHandler, readRemotePart, subscribePrivacy, sweepExpiredParts, type PrivacyProvider, type PrivacySubscription } from '../src/index.ts';

const API_KEY = 'test-privacy-api-key-0123456789';
const clock = fixedClock('2026-11-27T10:00:00Z');
const exchange = uniqueName('academy.events.test');
const queue = uniqueQueueName('test.privacy');
const employee: PrivacySubject = { kind: 'employee', id: 7, userId: 70, email: 'ana@example.com' };
const pdf = randomBytes(200_000);

let url: string;
let orm: MikroORM;
let broker: Broker;
let subscription: PrivacySubscription;
let storage: FileStorage;
let filesDir: string;
let baseUrl: string;
let server: Server;
/** Calls per provider and a switch to make one fail, by test. */
const calls: Record<string, number> = {};
const failures = { notes: 0, always: false, auditExport: false };

const sql = (text: string, params: unknown[] = []) => orm.em.fork().getConnection().execute(text, params, 'all');

const notes: PrivacyProvider = {
  feature: 'notes',
  subjects: ['employee'],
  declares: [{ record: 'notes', purpose: 'Notes about an employee.', category: 'employment', fields: { text: { personal: true, description: 'the note' }, employeeId: { personal: false, description: 'whose' }, email: { personal: true, description: 'copy of their address' } } }],
  async export({ em, subject }) {
    calls.notesExport = (calls.notesExport ?? 0) + 1;
    if (failures.always || failures.notes > 0) {
      failures.notes -= 1;
      throw new Error('notes store unavailable');
    }
    const rows = await em.getConnection().execute<{ id: number; text: string }[]>('select id, text from notes where employee_id = ? order by id', [subject.id], 'all', em.getTransactionContext());
    if (rows.length === 0) return null;
    return { data: { notes: rows }, files: [{ name: 'scans/contract.pdf', mediaType: 'application/pdf', open: async () => Readable.from([pdf]) }] };
  },
  async erase({ em, subject, now }) {
    calls.notesErase = (calls.notesErase ?? 0) + 1;
    if (failures.always) throw new Error('notes store unavailable');
    const erased = await em.getConnection().execute<{ id: number }[]>('delete from notes where employee_id = ? returning id', [subject.id], 'all', em.getTransactionContext());
    const kept = await em.getConnection().execute<{ n: string }[]>('select count(*) as n from kept_records where employee_id = ?', [subject.id], 'all', em.getTransactionContext());
    await em.getConnection().execute('update kept_records set restricted_at = coalesce(restricted_at, ?) where employee_id = ?', [now, subject.id], 'run', em.getTransactionContext());
    return {
      erased: [{ what: 'notes', count: erased.length }],
      kept: Number(kept[0]!.n) > 0 ? [{ what: 'time records', legalBasis: 'Estatuto de los Trabajadores art. 34.9', until: '2030-11-27' }] : [],
    };
  },
};

/** Asked about students only: never run for an employee. */
const marks: PrivacyProvider = {
  feature: 'marks',
  subjects: ['student'],
  declares: [{ record: 'marks', purpose: 'Marks.', category: 'academic', fields: { grade: { personal: true, description: 'a mark' } } }],
  async export() {
    calls.marks = (calls.marks ?? 0) + 1;
    return { data: [] };
  },
  async erase() {
    calls.marks = (calls.marks ?? 0) + 1;
    return { erased: [], kept: [] };
  },
};

/** Writes a row, so a later failure shows whether the attempt rolled back. */
const audit: PrivacyProvider = {
  feature: 'audit',
  subjects: ['employee'],
  declares: [],
  async export() {
    if (failures.auditExport) throw new Error('audit store unavailable');
    return null;
  },
  async erase({ em, subject }) {
    await em.getConnection().execute('insert into erase_log (employee_id) values (?)', [subject.id], 'run', em.getTransactionContext());
    return { erased: [{ what: 'erase log', count: 0 }], kept: [] };
  },
};

beforeAll(async () => {
  url = await createTestDatabase('privacy');
  orm = await createOrm({ clientUrl: url, entities: [...privacyEntities, ...messagingEntities], migrations: [] });
  await orm.schema.create();
  await sql('create table notes (id serial primary key, employee_id int not null, text text not null)');
  await sql('create table kept_records (id serial primary key, employee_id int not null, restricted_at timestamptz)');
  await sql('create table erase_log (id serial primary key, employee_id int not null)');
  // As libs/service's, for the erasure's forgetting of stored replies.
  await sql('create table idempotency_keys (scope varchar(600) not null, key varchar(255) not null, body text not null, primary key (scope, key))');
  filesDir = await mkdtemp(path.join(tmpdir(), 'privacy-parts-'));
  storage = encryptedStorage(diskStorage(filesDir), { currentKeyId: 'k1', keys: new Map([['k1', randomBytes(32)]]) });
  broker = createBroker({ url: testUrls.rabbitmq, service: 'privacy-test', logger: createLogger('privacy-test', 'silent'), exchange });
  await broker.start();
  subscription = await subscribePrivacy(
    { broker, orm, clock, logger: createLogger('privacy-test', 'silent') },
    { service: 'incidents', queue, providers: [notes, marks, audit], storage, sweepEveryMs: 0, consume: { retryDelaysMs: [100] } },
  );
  const app = express();
  app.use(PART_PATH, privacyPartRoutes({ orm, storage, apiKey: API_KEY, clock }));
  server = app.listen(0);
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await subscription?.stop();
  await broker?.close();
  await orm?.close();
  await dropTestDatabase(url);
  await deleteTestQueues(exchange, [queue], [100]);
  await rm(filesDir, { recursive: true, force: true });
});

function request(kind: 'access' | 'erasure', subject: PrivacySubject = employee, requestId: string = randomUUID()) {
  const data: EventData<'privacy.request.opened'> = { requestId, kind, subject, locale: 'es', openedAt: clock.now().toISOString(), deadline: '2026-12-27T10:00:00.000Z' };
  return createEnvelope('privacy.request.opened', data, { source: 'academic' });
}

/** Publishes the request and answers the `privacy.part.answered` the service recorded for it (checked against its schema). */
async function answerTo(envelope: ReturnType<typeof request>) {
  await broker.publish([envelope]);
  const rows = await waitFor(
    `the answer to ${envelope.data.requestId}`,
    async () => {
      const found = (await sql(`select envelope from outbox where type = 'privacy.part.answered' and envelope->'data'->>'requestId' = ? and envelope->>'correlationId' = ?`, [envelope.data.requestId, envelope.correlationId])) as { envelope: unknown }[];
      return found.length > 0 ? found : undefined;
    },
    15_000,
    50,
  );
  expect(rows).toHaveLength(1);
  const parsed = parseEnvelope(rows[0]!.envelope);
  if (!parsed.ok || parsed.envelope.type !== 'privacy.part.answered') throw new Error(`not a valid answer: ${JSON.stringify(parsed)}`);
  return parsed.envelope.data;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('an access request', () => {
  test('when the employee has notes and a file, then the part is done and the internal route streams its JSON and the file decrypted', async () => {
    await sql(`insert into notes (employee_id, text) values (7, 'first'), (7, 'second'), (8, 'someone else')`);
    const answer = await answerTo(request('access'));
    expect(answer).toMatchObject({ service: 'incidents', kind: 'access', status: 'done', reason: null, attempts: 1, answeredAt: '2026-11-27T10:00:00.000Z' });
    expect(answer.features).toEqual([
      { feature: 'incidents.notes', status: 'done', erased: [], kept: [], entries: 2 },
      { feature: 'incidents.audit', status: 'nothing-held', erased: [], kept: [], entries: 0 },
    ]);
    expect(answer.export).toEqual({ entries: 2, sizeBytes: expect.any(Number), expiresAt: '2026-12-27T10:00:00.000Z' });

    const part = await readRemotePart(baseUrl, API_KEY, answer.requestId);
    expect(part?.entries).toEqual([
      { path: 'notes.json', mediaType: 'application/json', sizeBytes: expect.any(Number) },
      { path: 'notes/scans/contract.pdf', mediaType: 'application/pdf', sizeBytes: pdf.length },
    ]);
    expect(JSON.parse((await readAll(await part!.open(0))).toString())).toEqual({ notes: [{ id: expect.any(Number), text: 'first' }, { id: expect.any(Number), text: 'second' }] });
    expect((await readAll(await part!.open(1))).equals(pdf)).toBe(true);
    // At rest the file is encrypted: no stored file holds the PDF's bytes.
    const stored = (await readdir(filesDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const file of stored) expect((await readFile(path.join(file.parentPath, file.name))).includes(pdf.subarray(0, 64))).toBe(false);
  });

  test('when the internal route is called without the key, with a malformed id or an unknown request, then 401, 400 and 404', async () => {
    const unknown = randomUUID();
    expect((await fetch(`${baseUrl}/internal/privacy/parts/${unknown}`)).status).toBe(401);
    expect((await fetch(`${baseUrl}/internal/privacy/parts/${unknown}`, { headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
    expect((await fetch(`${baseUrl}/internal/privacy/parts/not-a-uuid`, { headers: { 'x-api-key': API_KEY } })).status).toBe(400);
    expect((await fetch(`${baseUrl}/internal/privacy/parts/${unknown}`, { headers: { 'x-api-key': API_KEY } })).status).toBe(404);
    expect(await readRemotePart(baseUrl, API_KEY, unknown)).toBeNull();
  });

  test('when no provider holds anything, then the answer is nothing-held and no part is kept', async () => {
    const answer = await answerTo(request('access', { kind: 'employee', id: 99, userId: null, email: null }));
    expect(answer).toMatchObject({ status: 'nothing-held', export: null });
    expect(answer.features.map((feature) => feature.status)).toEqual(['nothing-held', 'nothing-held']);
    expect(await readRemotePart(baseUrl, API_KEY, answer.requestId)).toBeNull();
  });

  test('when the person is a student, then only the providers asked about students run', async () => {
    const before = { marks: calls.marks ?? 0, notes: calls.notesExport ?? 0 };
    const answer = await answerTo(request('access', { kind: 'student', id: 7, userId: null, email: null }));
    expect(answer.features.map((feature) => feature.feature)).toEqual(['incidents.marks']);
    expect(calls.marks).toBe(before.marks + 1);
    expect(calls.notesExport ?? 0).toBe(before.notes);
  });

  test('when the 30 days are over, then the sweep removes the part and its files', async () => {
    await sql(`insert into notes (employee_id, text) values (11, 'to expire')`);
    const answer = await answerTo(request('access', { kind: 'employee', id: 11, userId: null, email: null }));
    const keys = (await sql('select entries from privacy_answers where request_id = ?', [answer.requestId])) as { entries: { storageKey: string }[] }[];
    expect(await sweepExpiredParts(orm, storage, new Date('2026-12-27T09:59:59Z'))).toBe(0);
    expect(await sweepExpiredParts(orm, storage, new Date('2026-12-27T10:00:00Z'))).toBeGreaterThanOrEqual(1);
    for (const { storageKey } of keys[0]!.entries) expect(await storage.open(storageKey)).toBeNull();
    expect(await readRemotePart(baseUrl, API_KEY, answer.requestId)).toBeNull();
  });
});

describe('an erasure request', () => {
  test('when the employee has notes and kept records, then the notes go, the records are restricted and listed as kept with their basis and date', async () => {
    await sql(`insert into notes (employee_id, text) values (21, 'a'), (21, 'b')`);
    await sql(`insert into kept_records (employee_id) values (21)`);
    const answer = await answerTo(request('erasure', { kind: 'employee', id: 21, userId: null, email: null }));
    expect(answer).toMatchObject({ kind: 'erasure', status: 'done', export: null });
    expect(answer.features[0]).toEqual({
      feature: 'incidents.notes',
      status: 'done',
      erased: [{ what: 'notes', count: 2 }],
      kept: [{ what: 'time records', legalBasis: 'Estatuto de los Trabajadores art. 34.9', until: '2030-11-27' }],
      entries: 0,
    });
    expect(await sql('select * from notes where employee_id = 21')).toEqual([]);
    expect(await sql(`select restricted_at = '2026-11-27T10:00:00Z' as at_now from kept_records where employee_id = 21`)).toEqual([{ at_now: true }]);
  });

  test("when the person has an earlier access request's part, then the erasure removes it and its files: no export of them outlives it", async () => {
    const person: PrivacySubject = { kind: 'employee', id: 23, userId: null, email: null };
    await sql(`insert into notes (employee_id, text) values (23, 'exported before the erasure')`);
    const access = await answerTo(request('access', person));
    const [row] = (await sql('select entries from privacy_answers where request_id = ?', [access.requestId])) as { entries: { storageKey: string }[] }[];
    expect(row!.entries).toHaveLength(2);
    expect(await readRemotePart(baseUrl, API_KEY, access.requestId)).not.toBeNull();

    await answerTo(request('erasure', person));
    expect(await readRemotePart(baseUrl, API_KEY, access.requestId)).toBeNull();
    for (const { storageKey } of row!.entries) expect(await storage.open(storageKey)).toBeNull();
    expect(await sql('select entries from privacy_answers where request_id = ?', [access.requestId])).toEqual([{ entries: null }]);
  });

  test("when the service's outbox and stored replies still name the person's e-mail, then the erasure forgets the published events and the replies, and keeps what is still to be published and what names others", async () => {
    const person: PrivacySubject = { kind: 'employee', id: 24, userId: null, email: 'Erika_24@Example.com' };
    const envelope = (email: string) => JSON.stringify({ type: 'employee.upserted', data: { id: 24, name: 'Erika', email } });
    await sql(
      `insert into outbox (event_id, type, envelope, created_at, available_at, published_at, attempts)
       values (?, 'employee.upserted', ?, now(), now(), now(), 1), (?, 'employee.upserted', ?, now(), now(), null, 0), (?, 'employee.upserted', ?, now(), now(), now(), 1), (?, 'employee.upserted', ?, now(), now(), now(), 1)`,
      [randomUUID(), envelope('erika_24@example.com'), randomUUID(), envelope('erika_24@example.com'), randomUUID(), envelope('someone@example.com'), randomUUID(), envelope('erikaX24@example.com')],
    );
    await sql(`insert into idempotency_keys (scope, key, body) values ('POST /api/v2/employees', 'k-24', ?), ('POST /api/v2/employees', 'k-other', ?)`, [envelope('ERIKA_24@example.com'), envelope('someone@example.com')]);

    await answerTo(request('erasure', person));
    const left = (await sql(`select published_at is not null as published, envelope->'data'->>'email' as email from outbox where type = 'employee.upserted' order by id`)) as { published: boolean; email: string }[];
    expect(left).toEqual([{ published: false, email: 'erika_24@example.com' }, { published: true, email: 'someone@example.com' }, { published: true, email: 'erikaX24@example.com' }]);
    expect(await sql(`select key from idempotency_keys order by key`)).toEqual([{ key: 'k-other' }]);
  });

  test('when the same request comes again under another event id, then the recorded answer is published again and the providers do not run', async () => {
    const first = request('erasure', { kind: 'employee', id: 22, userId: null, email: null });
    const answer = await answerTo(first);
    const erases = calls.notesErase;
    const again = createEnvelope('privacy.request.opened', first.data, { source: 'academic' });
    expect(await answerTo(again)).toEqual(answer);
    expect(calls.notesErase).toBe(erases);
  });
});

describe('a provider that fails', () => {
  test('when it fails twice and then works, then the third attempt answers done, counted', async () => {
    await sql(`insert into notes (employee_id, text) values (31, 'x')`);
    failures.notes = 2;
    const answer = await answerTo(request('access', { kind: 'employee', id: 31, userId: null, email: null }));
    expect(answer).toMatchObject({ status: 'done', attempts: 3 });
  });

  test('when it fails every attempt, then the answer is failed with the reason, nothing it wrote stays, and its stored files are removed', async () => {
    failures.always = true;
    const filesBefore = (await readdir(filesDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
    try {
      const answer = await answerTo(request('erasure', { kind: 'employee', id: 32, userId: null, email: null }));
      expect(answer).toMatchObject({ status: 'failed', reason: 'Error: notes store unavailable', attempts: 3, features: [], export: null });
      expect(await sql('select * from erase_log where employee_id = 32')).toEqual([]);
    } finally {
      failures.always = false;
    }
    failures.auditExport = true;
    try {
      // notes exports its JSON and its file first; audit then fails: what notes stored must go.
      const exportAnswer = await answerTo(request('access', { kind: 'employee', id: 7, userId: null, email: null }));
      expect(exportAnswer).toMatchObject({ status: 'failed', reason: 'Error: audit store unavailable' });
    } finally {
      failures.auditExport = false;
    }
    expect((await readdir(filesDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length).toBe(filesBefore);
  });
});

describe('an answer whose commit fails', () => {
  // The consumer's transaction as @academy/messaging runs it (BEGIN, the handler, COMMIT), with a deferred
  // trigger that refuses the answer's row at COMMIT, after every statement of the attempt succeeded.
  const handle = async (envelope: ReturnType<typeof request>) => {
    const handler = privacyRequestHandler({ orm, clock, logger: createLogger('privacy-test', 'silent') }, { service: 'incidents', providers: [notes, marks, audit], storage });
    const em = orm.em.fork();
    await em.begin();
    try {
      await handler(em, envelope);
      await em.commit();
    } catch (error) {
      await em.rollback().catch(() => undefined);
      throw error;
    }
  };
  const filesOnDisk = async () => new Set((await readdir(filesDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name));
  const failCommitsOf = async (employeeId: number) => {
    await sql(`create or replace function fail_answer_${employeeId}() returns trigger language plpgsql as $$
      begin if new.subject_id = ${employeeId} and new.status = 'done' then raise exception 'injected fault at commit'; end if; return new; end $$`);
    await sql(`create constraint trigger fail_answer_${employeeId} after insert or update on privacy_answers deferrable initially deferred for each row execute function fail_answer_${employeeId}()`);
    return () => sql(`drop trigger fail_answer_${employeeId} on privacy_answers`);
  };

  test('when the commit of an access part fails, then no file stays that no row names, the retry removes them before writing its own, and its part is exactly what is on disk', async () => {
    await sql(`insert into notes (employee_id, text) values (41, 'exported, then the commit fails')`);
    const before = await filesOnDisk();
    const envelope = request('access', { kind: 'employee', id: 41, userId: null, email: null });
    const undo = await failCommitsOf(41);
    await expect(handle(envelope)).rejects.toThrow('injected fault at commit');
    await undo();
    const [failed] = (await sql('select status, entries from privacy_answers where request_id = ?', [envelope.data.requestId])) as { status: string; entries: { storageKey: string }[] }[];
    const orphans = [...(await filesOnDisk())].filter((name) => !before.has(name));
    // The JSON and the scan, each named on the request's row although the answer was never committed.
    expect(orphans).toHaveLength(2);
    expect(failed!.status).toBe('answering');
    expect(failed!.entries.map((entry) => entry.storageKey).sort()).toEqual(orphans.sort());

    await handle(envelope);
    const [answered] = (await sql('select status, entries from privacy_answers where request_id = ?', [envelope.data.requestId])) as { status: string; entries: { storageKey: string }[] }[];
    expect(answered!.status).toBe('done');
    const added = [...(await filesOnDisk())].filter((name) => !before.has(name));
    expect(added.sort()).toEqual(answered!.entries.map((entry) => entry.storageKey).sort());
    expect(added.some((name) => orphans.includes(name))).toBe(false);
  });

  test('when the commit fails and no attempt comes after, then the sweep removes the files a day later, not before', async () => {
    await sql(`insert into notes (employee_id, text) values (42, 'exported, then the commit fails for good')`);
    const before = await filesOnDisk();
    const envelope = request('access', { kind: 'employee', id: 42, userId: null, email: null });
    const undo = await failCommitsOf(42);
    await expect(handle(envelope)).rejects.toThrow('injected fault at commit');
    await undo();
    expect([...(await filesOnDisk())].filter((name) => !before.has(name))).toHaveLength(2);
    await sweepExpiredParts(orm, storage, new Date(clock.now().getTime() + 86_400_000 - 1));
    expect([...(await filesOnDisk())].filter((name) => !before.has(name))).toHaveLength(2);
    await sweepExpiredParts(orm, storage, new Date(clock.now().getTime() + 86_400_000));
    expect([...(await filesOnDisk())].filter((name) => !before.has(name))).toEqual([]);
    expect(await sql('select status, entries from privacy_answers where request_id = ?', [envelope.data.requestId])).toEqual([{ status: 'answering', entries: null }]);
  });
});

describe('a sweep and a retry at the same moment', () => {
  test('when the retry answers while the sweep removes the failed attempt\'s files, then the sweep leaves the answer\'s part named (it empties only what it removed)', async () => {
    await sql(`insert into notes (employee_id, text) values (43, 'exported, the commit fails, the retry comes a day later')`);
    const envelope = request('access', { kind: 'employee', id: 43, userId: null, email: null });
    const handler = privacyRequestHandler({ orm, clock, logger: createLogger('privacy-test', 'silent') }, { service: 'incidents', providers: [notes, marks, audit], storage });
    const handle = () => orm.em.fork().transactional((em) => handler(em, envelope));
    await sql(`create or replace function fail_answer_43() returns trigger language plpgsql as $$
      begin if new.subject_id = 43 and new.status = 'done' then raise exception 'injected fault at commit'; end if; return new; end $$`);
    await sql(`create constraint trigger fail_answer_43 after insert or update on privacy_answers deferrable initially deferred for each row execute function fail_answer_43()`);
    await expect(handle()).rejects.toThrow('injected fault at commit');
    await sql(`drop trigger fail_answer_43 on privacy_answers`);

    // The sweep has read the row (the failed attempt's files) when the retry runs to its commit.
    let retried = false;
    const racing: FileStorage = {
      ...storage,
      remove: async (key) => {
        if (!retried) {
          retried = true;
          await handle();
        }
        return storage.remove(key);
      },
    };
    await sweepExpiredParts(orm, racing, new Date(clock.now().getTime() + 86_400_000));
    expect(retried).toBe(true);
    const [answered] = (await sql('select status, entries from privacy_answers where request_id = ?', [envelope.data.requestId])) as { status: string; entries: { storageKey: string }[] | null }[];
    expect(answered!.status).toBe('done');
    expect(answered!.entries).toHaveLength(2);
  });
});

test('personalFieldNames lists every field a provider declares personal, once', () => {
  expect(personalFieldNames([notes, marks, audit])).toEqual(['email', 'grade', 'text']);
});
