import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { defineEntity, p, type MikroORM } from '@mikro-orm/postgresql';
import { Sql, createOrm, dropDatabase } from '@academy/db';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AppError, BadRequestError, bodyDigested } from '@academy/kit';
import { messagingEntities, recordEvent } from '@academy/messaging';
import { bearer, testConfig } from '@academy/testing';
import type { Request } from 'express';
import { afterCommit, declareKeyInStatement, declareStreamedBody, idempotencyKeyOf, statementKeyOf, type KeyColumns, idempotencyEntities, inKeyedWrite, onRollback, requestFingerprint, startService, type BaseConfig, type RunningService, type ServiceDefinition } from '../src/index.ts';

// A service with one write of each kind: through the ORM (with its outbox event), through raw SQL
// (`Sql`, as hours-bank and incidents write), one that refuses after writing (4xx), one that fails
// after writing (5xx), and one slow enough to be repeated while it runs.
const Thing = defineEntity({
  name: 'Thing',
  tableName: 'things',
  properties: { id: p.integer().primary().autoincrement(), label: p.string() },
});

describe('Idempotency-Key on writes', () => {
  let config: BaseConfig;
  let service: RunningService;
  let orm: MikroORM;
  const effects: string[] = [];
  /** What `/when-ready` answers while not ready: a "try again" of some kind. */
  let notReady: AppError | null = null;
  const alice = bearer({ sub: '101', role: 'user' });
  const bob = bearer({ sub: '102', role: 'user' });

  beforeAll(async () => {
    config = await testConfig('t_idem');
    // The test service brings its schema itself (a service's migrations create these tables).
    const setup = await createOrm({ clientUrl: config.DATABASE_URL, entities: [Thing, ...messagingEntities, ...idempotencyEntities], migrations: [] });
    await setup.schema.create();
    await setup.close();
    const definition: ServiceDefinition = {
      name: 'svc-idem',
      entities: [Thing],
      migrations: [],
      setup: (ctx) => ({
        routes: (app) => {
          const sql = new Sql(ctx.orm.em);
          app.post('/things', async (req, res) => {
            const em = ctx.orm.em;
            const thing = em.create(Thing, { label: String(req.body.label) });
            recordEvent(em, 'employee.deleted', { id: 7 }, { source: 'svc-idem' });
            await em.flush();
            res.status(201).json({ id: thing.id, label: thing.label });
          });
          app.post('/raw', async (req, res) => {
            const [row] = await sql.transaction((query) => query<{ id: number }>('insert into things (label) values ($1) returning id', [String(req.body.label)]));
            res.status(201).json(row);
          });
          app.post('/refuse', async (req) => {
            await sql.query('insert into things (label) values ($1)', [String(req.body.label)]);
            throw new BadRequestError('NOPE', 'refused');
          });
          app.post('/fail', async (req) => {
            await sql.query('insert into things (label) values ($1)', [String(req.body.label)]);
            throw new Error('boom');
          });
          // Side effects a rollback cannot undo: held until the keyed transaction ends.
          app.post('/effects', async (req, res) => {
            const label = String(req.body.label);
            await sql.query('insert into things (label) values ($1)', [label]);
            const seenInside = inKeyedWrite();
            onRollback(() => effects.push(`rolled back ${label}`));
            await afterCommit(() => effects.push(`committed ${label}`));
            effects.push(`answered ${label}`);
            if (req.body.fail) throw new Error('boom');
            res.status(201).json({ seenInside });
          });
          // Writes whose statement records the key, written by hand as a store would (no transaction is opened).
          for (const path of ['/one', '/one-refuse', '/one-slow']) declareKeyInStatement(app, 'post', path);
          const insertOne = async (req: Request, label: string, sleepSeconds = 0) => {
            const steps = `added as (insert into things (label) select label from input returning id, label), answer as (select id, label from added)`;
            const key = statementKeyOf(req);
            if (!key) return (await sql.query<{ id: number; label: string }>(`with input as (select $1::text as label from pg_sleep($2)), ${steps} select * from answer`, [label, sleepSeconds]))[0]!;
            return key.record(async () => {
              const [row] = await sql.query<{ id: number; label: string } & KeyColumns>(
                `with idempotency_lock as (select pg_try_advisory_xact_lock(hashtextextended($1::text, 0)) as locked),
                 idempotency_stored as (
                   select k.fingerprint, k.status, k.content_type, k.body from idempotency_keys k
                   where (select locked from idempotency_lock) and k.scope = $2 and k.key = $3 and k.expires_at > $4::timestamptz
                 ),
                 idempotency_free as (select 1 from idempotency_lock where locked and not exists (select 1 from idempotency_stored)),
                 input as (select $5::text as label from idempotency_free, pg_sleep($6)),
                 ${steps},
                 idempotency_recorded as (
                   insert into idempotency_keys (scope, key, fingerprint, status, content_type, body, created_at, expires_at)
                   select $2, $3, $7, $8::int, null, row_to_json(a)::text, $4::timestamptz, $9::timestamptz from answer a, idempotency_free
                 )
                 select a.*, (select locked from idempotency_lock) as key_locked, (select row_to_json(s) from idempotency_stored s) as key_stored
                 from (values (1)) as one left join answer a on true`,
                [key.lock, key.scope, key.key, key.at, label, sleepSeconds, key.fingerprint, key.rowStatus, key.expiresAt],
              );
              return row!;
            });
          };
          app.post('/one', async (req, res) => {
            const row = await insertOne(req, String(req.body.label));
            res.status(201).json({ ...row, seenInside: inKeyedWrite() });
          });
          // Refuses from what its statement answered: the refusal is the answer a retry gets too.
          app.post('/one-refuse', async (req) => {
            const row = await insertOne(req, String(req.body.label));
            throw new BadRequestError('REFUSED_AFTER', `refused after writing ${row.label}`);
          });
          // A statement that takes 600 ms (a write held up in the database).
          app.post('/one-slow', async (req, res) => {
            res.status(201).json(await insertOne(req, String(req.body.label), 0.6));
          });
          // A streamed body (multipart, as uploads): read to its end, its digest told, then written (parseMultipart does it for uploads).
          declareStreamedBody(app, 'post', '/upload');
          app.post('/upload', async (req, res) => {
            const hash = createHash('sha256');
            for await (const chunk of req) hash.update(chunk as Buffer);
            await bodyDigested(req, hash.digest('hex'));
            const [row] = await sql.query<{ id: number }>('insert into things (label) values ($1) returning id', [String(req.query.label)]);
            res.status(201).json(row);
          });
          // Declares a multipart body it never reads.
          declareStreamedBody(app, 'post', '/upload-unread');
          app.post('/upload-unread', async (req, res) => {
            await sql.query('insert into things (label) values ($1)', [String(req.query.label)]);
            res.status(201).json({});
          });
          // Refuses with a "try again" until the test says it is ready, having written first (the refusal must leave nothing).
          app.post('/when-ready', async (req, res) => {
            await sql.query('insert into things (label) values ($1)', [String(req.body.label)]);
            if (notReady) throw notReady;
            res.status(201).json({ label: req.body.label });
          });
          app.post('/slow', async (req, res) => {
            await sql.query('insert into things (label) values ($1)', [String(req.body.label)]);
            await new Promise((resolve) => setTimeout(resolve, 400));
            res.status(201).json({ ok: true });
          });
        },
      }),
    };
    service = await startService(definition, config);
    orm = service.ctx.orm;
  });
  afterAll(async () => {
    await service.stop();
    await dropDatabase(config.DATABASE_URL);
  });

  const count = async (label: string) => {
    const [row] = await orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from things where label = ?', [label]);
    return row.n;
  };
  const outboxCount = async () => {
    const [row] = await orm.em.fork().getConnection().execute<{ n: number }[]>("select count(*)::int as n from outbox where type = 'employee.deleted'");
    return row.n;
  };
  const storedStatus = async (key: string) => {
    const rows = await orm.em.fork().getConnection().execute<{ status: number }[]>('select status from idempotency_keys where key = ?', [key]);
    return rows.map((row) => row.status);
  };
  const keys = async (key: string) => {
    const [row] = await orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from idempotency_keys where key = ?', [key]);
    return row.n;
  };

  describe('a streamed (multipart) body, fingerprinted once read', () => {
    // Framed by hand with one boundary, so that the same file is the same bytes (the route hashes them raw).
    const body = (file: string) => `--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${file}\r\n--b--\r\n`;
    const upload = (key: string, label: string, file: string) =>
      request(service.url).post(`/upload?label=${label}`).set(alice).set('Idempotency-Key', key).set('content-type', 'multipart/form-data; boundary=b').send(body(file));

    test('the same key with the same bytes is replayed, with one row', async () => {
      const first = await upload('k-up-1', 'up-same', 'x'.repeat(2000));
      const again = await upload('k-up-1', 'up-same', 'x'.repeat(2000));
      expect([first.status, again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 201, 'true', first.body]);
      expect(await count('up-same')).toBe(1);
    });

    test('the same key with another file of the same size is 422 and writes nothing', async () => {
      const first = await upload('k-up-2', 'up-other', 'x'.repeat(2000));
      const other = await upload('k-up-2', 'up-other', 'y'.repeat(2000));
      expect(first.status).toBe(201);
      expect([other.status, other.body.code, other.headers['idempotent-replayed']]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED', undefined]);
      expect(await count('up-other')).toBe(1);
    });

    test('a route that declares a multipart body and answers 2xx without reading it fails loudly (500) and keeps nothing', async () => {
      const res = await request(service.url).post('/upload-unread?label=up-unread').set(alice).set('Idempotency-Key', 'k-up-3').set('content-type', 'multipart/form-data; boundary=b').send(body('%PDF'));
      expect([res.status, await count('up-unread'), await keys('k-up-3')]).toEqual([500, 0, 0]);
    });
  });

  describe('an answer that says "try again" is not stored: the same key runs once the condition has cleared', () => {
    test.each([
      ['409 with Retry-After (not ready yet)', () => new AppError(409, 'NOT_READY', 'try again when ready', { headers: { 'Retry-After': '2' } })],
      ['429', () => new AppError(429, 'RATE_LIMITED', 'slow down', { headers: { 'Retry-After': '1' } })],
      ['503', () => new AppError(503, 'SERVICE_UNAVAILABLE', 'later')],
      ['408', () => new AppError(408, 'REQUEST_TIMEOUT', 'send it again')],
    ])('%s, then the work with the same key', async (name, refusal) => {
      const label = `ready-${name.slice(0, 3)}`;
      const key = `k-ready-${name.slice(0, 3)}`;
      notReady = refusal();
      const refused = await request(service.url).post('/when-ready').set(alice).set('Idempotency-Key', key).send({ label });
      expect([refused.status, await count(label), await keys(key)]).toEqual([refusal().status, 0, 0]);
      notReady = null;
      const done = await request(service.url).post('/when-ready').set(alice).set('Idempotency-Key', key).send({ label });
      const again = await request(service.url).post('/when-ready').set(alice).set('Idempotency-Key', key).send({ label });
      expect([done.status, done.headers['idempotent-replayed'], again.status, again.headers['idempotent-replayed'], await count(label)]).toEqual([201, undefined, 201, 'true', 1]);
    });

    test('a 409 without Retry-After (a final refusal) is still remembered', async () => {
      notReady = new AppError(409, 'CONFLICT', 'final');
      const refused = await request(service.url).post('/when-ready').set(alice).set('Idempotency-Key', 'k-final').send({ label: 'final-409' });
      notReady = null;
      const again = await request(service.url).post('/when-ready').set(alice).set('Idempotency-Key', 'k-final').send({ label: 'final-409' });
      expect([refused.status, again.status, again.headers['idempotent-replayed']]).toEqual([409, 409, 'true']);
    });
  });

  // superagent sends an array as one header line per value; its types allow arrays for Cookie only
  const twoHeaders = ['aaa', 'bbb'] as unknown as string;
  test('two Idempotency-Key headers are 400 naming the header (not the key "aaa, bbb"), and nothing is written', async () => {
    const res = await request(service.url).post('/raw').set(alice).set('Idempotency-Key', twoHeaders).send({ label: 'two-keys' });
    expect([res.status, res.body.code, res.body.message]).toEqual([400, 'INVALID_IDEMPOTENCY_KEY', 'Send one Idempotency-Key header, not several']);
    expect(await count('two-keys')).toBe(0);
  });

  test('a retry after the first commit returns the same body, replayed, with no second row or event', async () => {
    const events = await outboxCount();
    const first = await request(service.url).post('/things').set(alice).set('Idempotency-Key', 'k-orm-1').send({ label: 'orm-once' });
    const again = await request(service.url).post('/things').set(alice).set('Idempotency-Key', 'k-orm-1').send({ label: 'orm-once' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count('orm-once')).toBe(1);
    expect(await outboxCount()).toBe(events + 1);
  });

  test('raw SQL writes join the keyed transaction: a retry writes nothing', async () => {
    const first = await request(service.url).post('/raw').set(alice).set('Idempotency-Key', 'k-raw-1').send({ label: 'raw-once' });
    const again = await request(service.url).post('/raw').set(alice).set('Idempotency-Key', 'k-raw-1').send({ label: 'raw-once' });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await count('raw-once')).toBe(1);
  });

  test('without a key, each request writes', async () => {
    await request(service.url).post('/raw').set(alice).send({ label: 'no-key' }).expect(201);
    await request(service.url).post('/raw').set(alice).send({ label: 'no-key' }).expect(201);
    expect(await count('no-key')).toBe(2);
  });

  test('20 concurrent requests with one key run once: one executed, the others replayed or 409 with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => request(service.url).post('/slow').set(alice).set('Idempotency-Key', 'k-race').send({ label: 'raced' })),
    );
    const executed = answers.filter((res) => res.status === 201 && res.headers['idempotent-replayed'] === undefined);
    const busy = answers.filter((res) => res.status === 409);
    expect(executed).toHaveLength(1);
    for (const res of busy) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    expect(answers.every((res) => res.status === 409 || res.status === 201)).toBe(true);
    expect(await count('raced')).toBe(1);
  });

  // Both paths: a transaction carrying the key (`/raw`), and the key recorded in the write's own statement (`/one`).
  test.each(['/raw', '/one'])('%s: the same key with another body is 422 naming the key, and changes nothing', async (path) => {
    const [key, first, second] = [`k-other${path}`, `first-body${path}`, `second-body${path}`];
    await request(service.url).post(path).set(alice).set('Idempotency-Key', key).send({ label: first }).expect(201);
    const res = await request(service.url).post(path).set(alice).set('Idempotency-Key', key).send({ label: second });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(res.body.message).toMatch(/Idempotency-Key/);
    expect(await count(second)).toBe(0);
  });

  test.each(['/raw', '/one'])("%s: another user's equal key is their own: it writes, and does not replay the first user's answer", async (path) => {
    const [key, label] = [`k-shared${path}`, `shared${path}`];
    const first = await request(service.url).post(path).set(alice).set('Idempotency-Key', key).send({ label });
    const other = await request(service.url).post(path).set(bob).set('Idempotency-Key', key).send({ label });
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.id).not.toBe(first.body.id);
    expect(await count(label)).toBe(2);
  });

  test('a write without a signed-in user (a login) is never remembered: its answer would be credentials', async () => {
    await request(service.url).post('/raw').set('Idempotency-Key', 'k-anonymous').send({ label: 'anonymous' }).expect(201);
    const again = await request(service.url).post('/raw').set('Idempotency-Key', 'k-anonymous').send({ label: 'anonymous' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await keys('k-anonymous')).toBe(0);
    expect(await count('anonymous')).toBe(2);
  });

  test('a 4xx is remembered: the retry gets the same 4xx', async () => {
    const first = await request(service.url).post('/refuse').set(alice).set('Idempotency-Key', 'k-4xx').send({ label: 'refused' });
    const again = await request(service.url).post('/refuse').set(alice).set('Idempotency-Key', 'k-4xx').send({ label: 'refused' });
    expect(first.status).toBe(400);
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.code).toBe('NOPE');
    expect(await keys('k-4xx')).toBe(1);
  });

  test('a write that fails with a 5xx rolls back and leaves no key, so the retry runs', async () => {
    const first = await request(service.url).post('/fail').set(alice).set('Idempotency-Key', 'k-5xx').send({ label: 'failed' });
    expect(first.status).toBe(500);
    expect(await count('failed')).toBe(0);
    expect(await keys('k-5xx')).toBe(0);
    const again = await request(service.url).post('/fail').set(alice).set('Idempotency-Key', 'k-5xx').send({ label: 'failed' });
    expect(again.status).toBe(500);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  test('work after commit waits for the keyed commit, and work on rollback runs when it rolls back', async () => {
    effects.length = 0;
    const committed = await request(service.url).post('/effects').set(alice).set('Idempotency-Key', 'k-effects-1').send({ label: 'e1' });
    expect(committed.status).toBe(201);
    expect(committed.body).toEqual({ seenInside: true });
    expect(effects).toEqual(['answered e1', 'committed e1']);

    effects.length = 0;
    const failed = await request(service.url).post('/effects').set(alice).set('Idempotency-Key', 'k-effects-2').send({ label: 'e2', fail: true });
    expect(failed.status).toBe(500);
    expect(effects).toEqual(['answered e2', 'rolled back e2']);
    expect(await count('e2')).toBe(0);
  });

  test('a commit the database refuses is a 500 that keeps no key, runs the work on rollback, and gives its connection back', async () => {
    // Checked at commit (a deferred constraint), after the route's own statements succeeded.
    await orm.em.fork().execute(
      `create function refuse_at_commit() returns trigger language plpgsql as $$
       begin if new.label like 'refused-at-commit%' then raise exception 'refused at commit'; end if; return new; end $$`,
    );
    await orm.em.fork().execute(`create constraint trigger refuse_at_commit after insert on things deferrable initially deferred for each row execute function refuse_at_commit()`);
    effects.length = 0;
    // More failures than the pool has connections (DATABASE_POOL_MAX 10): a leaked connection per failure would hang the last ones.
    for (let i = 0; i < 12; i++) {
      const res = await request(service.url).post('/effects').set(alice).set('Idempotency-Key', `k-refused-${i}`).send({ label: `refused-at-commit-${i}` });
      expect(res.status).toBe(500);
      expect(await keys(`k-refused-${i}`)).toBe(0);
    }
    await orm.em.fork().execute('drop trigger refuse_at_commit on things');
    expect(effects.filter((effect) => effect.startsWith('rolled back'))).toHaveLength(12);
    expect(effects.filter((effect) => effect.startsWith('committed'))).toHaveLength(0);
    await request(service.url).post('/effects').set(alice).set('Idempotency-Key', 'k-after-refusals').send({ label: 'after-refusals' }).expect(201);
  });

  test('without a key, work after commit runs at once and work on rollback never', async () => {
    effects.length = 0;
    const res = await request(service.url).post('/effects').set(alice).send({ label: 'e3', fail: true });
    expect(res.status).toBe(500);
    expect(effects).toEqual(['committed e3', 'answered e3']);
  });

  test.each([
    ['empty', ''],
    ['over 255 characters', 'k'.repeat(256)],
    ['with a control character', 'bad\tkey'],
  ])('a key %s is 400 naming the header, and nothing is written', async (_name, key) => {
    const res = await request(service.url).post('/raw').set(alice).set('Idempotency-Key', key).send({ label: `bad-key-${_name}` });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Idempotency-Key/);
    expect(await count(`bad-key-${_name}`)).toBe(0);
  });

  describe('a write whose statement records its key (CTEs written by hand, as hours additions do)', () => {
    test('a retry answers the same body, replayed from the stored row, with no second row', async () => {
      const first = await request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-1').send({ label: 'one-once' });
      const again = await request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-1').send({ label: 'one-once' });
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      // No transaction was opened for it: the handler is not in a keyed write, and the key holds the row (status 0).
      expect(first.body.seenInside).toBe(false);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await count('one-once')).toBe(1);
      expect(await storedStatus('k-one-1')).toEqual([0]);
    });

    test('20 concurrent requests with one key write once: one executed, the others replayed or 409 with Retry-After', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-race').send({ label: 'one-raced' })),
      );
      const executed = answers.filter((res) => res.status === 201 && res.headers['idempotent-replayed'] === undefined);
      expect(executed).toHaveLength(1);
      for (const res of answers.filter((answer) => answer !== executed[0])) {
        if (res.status === 409) {
          expect(res.headers['retry-after']).toBe('1');
          expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
        } else {
          expect(res.status).toBe(201);
          expect(res.headers['idempotent-replayed']).toBe('true');
          expect(res.body.id).toBe(executed[0]!.body.id);
        }
      }
      expect(await count('one-raced')).toBe(1);
    });

    test('the same key while the first statement runs is 409 before the first is done (nothing left waiting), then replayed once it is', async () => {
      let firstAnswered = false;
      const first = request(service.url).post('/one-slow').set(alice).set('Idempotency-Key', 'k-one-held').send({ label: 'one-held' }).then((res) => {
        firstAnswered = true;
        return res;
      });
      // While the first sleeps inside its statement (it holds the key's advisory lock), the same key is refused at once.
      const lockHeld = async () => {
        const [row] = await orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`);
        return row!.n > 0;
      };
      for (let waited = 0; !(await lockHeld()); waited += 10) {
        if (waited > 5_000) throw new Error('the first request never took its key');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const busy = await request(service.url).post('/one-slow').set(alice).set('Idempotency-Key', 'k-one-held').send({ label: 'one-held' });
      expect(busy.status).toBe(409);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      // Answered while the first was still in its statement: it waited for nothing.
      expect(firstAnswered).toBe(false);
      const done = await first;
      expect(done.status).toBe(201);
      const again = await request(service.url).post('/one-slow').set(alice).set('Idempotency-Key', 'k-one-held').send({ label: 'one-held' });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(done.body);
      expect(await count('one-held')).toBe(1);
    });

    test('a statement that fails leaves no key and no row, and its retry runs', async () => {
      await orm.em.fork().execute(
        `create function refuse_one() returns trigger language plpgsql as $$ begin if new.label = 'one-fault' then raise exception 'injected fault'; end if; return new; end $$;
         create trigger refuse_one before insert on things for each row execute function refuse_one()`,
      );
      try {
        const failed = await request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-fault').send({ label: 'one-fault' });
        expect(failed.status).toBe(500);
        expect(await keys('k-one-fault')).toBe(0);
        expect(await count('one-fault')).toBe(0);
      } finally {
        await orm.em.fork().execute('drop trigger refuse_one on things; drop function refuse_one()');
      }
      const retried = await request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-fault').send({ label: 'one-fault' });
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await count('one-fault')).toBe(1);
    });

    test('a 4xx decided from the rows is the answer of the retry too, and the row is written once', async () => {
      const first = await request(service.url).post('/one-refuse').set(alice).set('Idempotency-Key', 'k-one-4xx').send({ label: 'one-refused' });
      const again = await request(service.url).post('/one-refuse').set(alice).set('Idempotency-Key', 'k-one-4xx').send({ label: 'one-refused' });
      expect(first.status).toBe(400);
      expect(first.body.code).toBe('REFUSED_AFTER');
      expect(again.status).toBe(400);
      expect(again.body.message).toBe(first.body.message);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await count('one-refused')).toBe(1);
    });

    test('a key past its time is forgotten: the write runs again and the key is renewed', async () => {
      await request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-old').send({ label: 'one-old' }).expect(201);
      // Past its time as the service's clock sees it: it expires when it was made.
      await orm.em.fork().execute(`update idempotency_keys set expires_at = created_at where key = 'k-one-old'`);
      const again = await request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-old').send({ label: 'one-old' });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await count('one-old')).toBe(2);
      const [row] = await orm.em.fork().execute<{ live: boolean }[]>(`select expires_at > created_at as live from idempotency_keys where key = 'k-one-old'`);
      expect(row!.live).toBe(true);
    });

    // A route that changed path between two versions within the keys' 24 hours: the key is still honoured.
    const storeKey = async (path: string, key: string, label: string, status: number, body: string) => {
      const fingerprint = requestFingerprint({ method: 'POST', originalUrl: path, url: path, headers: {}, body: { label } } as never);
      await orm.em.fork().execute(
        `insert into idempotency_keys (scope, key, fingerprint, status, content_type, body, created_at, expires_at)
         values (?, ?, ?, ?, ?, ?, now(), now() + interval '1 hour')`,
        [`u:101 POST ${path}`, key, fingerprint, status, status === 0 ? null : 'application/json; charset=utf-8', body],
      );
    };

    test('an answer stored when the route recorded its key in a transaction is replayed as it was, with nothing written', async () => {
      await storeKey('/one', 'k-one-was-tx', 'one-was-tx', 201, '{"id":-1,"label":"stored"}');
      const res = await request(service.url).post('/one').set(alice).set('Idempotency-Key', 'k-one-was-tx').send({ label: 'one-was-tx' });
      expect(res.status).toBe(201);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.body).toEqual({ id: -1, label: 'stored' });
      expect(await count('one-was-tx')).toBe(0);
    });

    test('a row stored when the route recorded its key in its statement cannot be replayed by the transaction path: 409, never a second write', async () => {
      await storeKey('/raw', 'k-raw-was-one', 'raw-was-one', 0, '[{"id":-1}]');
      const res = await request(service.url).post('/raw').set(alice).set('Idempotency-Key', 'k-raw-was-one').send({ label: 'raw-was-one' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('IDEMPOTENCY_KEY_USED');
      expect(await count('raw-was-one')).toBe(0);
    });

    test('without a key it is an ordinary write: each request writes', async () => {
      await request(service.url).post('/one').set(alice).send({ label: 'one-no-key' }).expect(201);
      await request(service.url).post('/one').set(alice).send({ label: 'one-no-key' }).expect(201);
      expect(await count('one-no-key')).toBe(2);
    });
  });
});

describe('idempotencyKeyOf', () => {
  /** A request as Node's parser leaves it: `headers` joins repeated lines with ", ", `headersDistinct` keeps them apart. */
  const sent = (...lines: string[]) =>
    ({
      headers: lines.length ? { 'idempotency-key': lines.join(', ') } : {},
      get headersDistinct() {
        return lines.length ? { 'idempotency-key': lines } : {};
      },
    }) as unknown as IncomingMessage;

  test('a key sent once, with or without a comma in it, is the key; none is null', () => {
    expect([idempotencyKeyOf(sent('k-1')), idempotencyKeyOf(sent('aaa, bbb')), idempotencyKeyOf(sent())]).toEqual(['k-1', 'aaa, bbb', null]);
  });

  test('a key without a comma is read without building headersDistinct (an object of every header, built on each read)', () => {
    const request = sent('k-plain');
    Object.defineProperty(request, 'headersDistinct', {
      get() {
        throw new Error('headersDistinct read');
      },
    });
    expect(idempotencyKeyOf(request)).toBe('k-plain');
  });

  test('two lines are 400 naming the header, and a malformed key 400 naming the rule, on either path', () => {
    const refusal = (request: IncomingMessage) => {
      try {
        idempotencyKeyOf(request);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect([refusal(sent('aaa', 'bbb')), refusal(sent('bad\tkey')), refusal(sent('bad\tkey, x'))]).toEqual([
      'Send one Idempotency-Key header, not several',
      'Idempotency-Key must be 1 to 255 printable ASCII characters (no control characters)',
      'Idempotency-Key must be 1 to 255 printable ASCII characters (no control characters)',
    ]);
  });
});
