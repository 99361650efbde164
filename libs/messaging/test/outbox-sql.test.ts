import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createEnvelope } from '@academy/contracts';
import { OUTBOX_INSERT_COLUMNS, OutboxMessage, outboxInsertSql, outboxRow } from '../src/index.ts';
import { createMessagingDb, type TestDb } from './support.ts';

describe('outboxInsertSql: the outbox insert of raw-SQL writers', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createMessagingDb('messaging_outbox_sql');
  });
  afterAll(async () => {
    await db.close();
  });

  test("its columns are the OutboxMessage entity's, and every column it leaves out has a default or is nullable", () => {
    const meta = db.orm.getMetadata().find(OutboxMessage)!;
    const columns = new Map(Object.values(meta.properties).map((property) => [property.fieldNames[0], property]));
    for (const column of OUTBOX_INSERT_COLUMNS) expect(columns.has(column)).toBe(true);
    const leftOut = [...columns].filter(([column]) => !(OUTBOX_INSERT_COLUMNS as readonly string[]).includes(column));
    for (const [column, property] of leftOut) {
      expect({ column, free: Boolean(property.nullable || property.autoincrement || property.default !== undefined) }).toEqual({ column, free: true });
    }
  });

  test('a row it inserts reads back through the entity as recordEvent would have written it: unpublished, no attempts, available now', async () => {
    const envelope = createEnvelope('employee.deleted', { id: 7 }, { source: 'test' });
    const before = new Date(Date.now() - 1000);
    await db.orm.em.fork().getConnection().execute(outboxInsertSql(), outboxRow(envelope));

    const row = await db.orm.em.fork().findOneOrFail(OutboxMessage, { eventId: envelope.id });
    expect(row).toMatchObject({ type: 'employee.deleted', envelope, attempts: 0, publishedAt: null, lastError: null });
    expect(row.availableAt.getTime()).toBeGreaterThan(before.getTime());
    expect(row.createdAt.getTime()).toBe(row.availableAt.getTime());
  });

  test('with `from` a statement inserts one row per row of its change, none when nothing changed', async () => {
    const envelope = createEnvelope('employee.deleted', { id: 8 }, { source: 'test' });
    const sql = `with changed as (select 1 where ?::boolean) ${outboxInsertSql()} from changed`;
    await db.orm.em.fork().getConnection().execute(sql, [false, ...outboxRow(envelope)]);
    expect(await db.orm.em.fork().count(OutboxMessage, { eventId: envelope.id })).toBe(0);
    await db.orm.em.fork().getConnection().execute(sql, [true, ...outboxRow(envelope)]);
    expect(await db.orm.em.fork().count(OutboxMessage, { eventId: envelope.id })).toBe(1);
  });
});
