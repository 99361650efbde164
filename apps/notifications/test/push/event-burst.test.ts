import { describe, expect, test } from '@jest/globals';
import { envelope, payslipPublished, sql, until, useNotifications } from '../support.ts';

// A burst of events whose handlers push (a batch of payslips published at once) takes the e-mail
// queue's whole prefetch (50) at once, far more than the database pool. Each handler holds its
// transaction's connection: when the push took a second one, every connection was held by a handler
// waiting for one more, and nothing was delivered, ever (bench:payslips, 300 payslips, pool 20).
const POOL = 4;
const EVENTS = 40;

describe(`a burst of ${EVENTS} payslip.published events with a pool of ${POOL} connections`, () => {
  const service = useNotifications({ DATABASE_POOL_MAX: POOL });

  test('every event is handled and every employee gets one push: no handler waits for a second connection', async () => {
    const events = Array.from({ length: EVENTS }, (_, i) => {
      // No address: only the push path, the one that took a second connection.
      const data = payslipPublished(`burst-${i}`, { payslipId: 5000 + i, employeeId: 5000 + i, batchId: 77, employee: { name: `Employee ${i}`, email: null, userId: 9000 + i } });
      return envelope('payslip.published', data);
    });
    for (let i = 0; i < EVENTS; i++) {
      await sql(service(), `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (?, ?, ?, 'android', now(), now(), now())`, [
        9000 + i,
        `burst-phone-${i}`,
        `burst-token-${i}`,
      ]);
    }

    await service().ctx.broker.publish(events);

    const queue = service().ctx.config.EMAIL_QUEUE;
    await until(
      async () => Number((await sql<{ n: string }>(service(), 'select count(*) as n from inbox where consumer = ? and event_id = any(?::uuid[])', [queue, `{${events.map((event) => event.id).join(',')}}`]))[0].n) === EVENTS,
      20_000,
      `${EVENTS} events handled`,
    );
    const pushes = await sql<{ token: string; n: string }>(
      service(),
      `select t.token, count(*) as n from recorded_pushes p, jsonb_array_elements_text(p.tokens) as t(token) where t.token like 'burst-token-%' group by t.token`,
    );
    expect(pushes).toHaveLength(EVENTS);
    expect(pushes.every((row) => Number(row.n) === 1)).toBe(true);
  }, 40_000);
});
