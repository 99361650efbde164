import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import amqp, { type ChannelModel } from 'amqplib';
import request from 'supertest';
import { DEV_TAX_ID_DIGEST_KEY, createEnvelope, taxIdDigest, type EventData, type EventEnvelope, type EventType } from '@academy/contracts';
import type { RunningService } from '@academy/service';
import { bearer, testUrls, waitFor } from '@academy/testing';
import type { Config } from '../src/config.ts';
import { sql, useHoursBank } from './support.ts';

const admin = bearer({ role: 'admin' });

const envelope = <T extends EventType>(type: T, data: EventData<T>, occurredAt = new Date()): EventEnvelope =>
  createEnvelope(type, data, { source: 'academic', occurredAt });

describe('replicas fed by academic events (hours-bank.replicas)', () => {
  // The harness's slot: a start slower than a hook's 30 s at load is waited for (120 s), and stopped even when it ends late.
  const started = useHoursBank();
  let service: RunningService<Config>;
  let listener: ChannelModel;
  // What a future consumer of hours-bank events would receive.
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    service = started();
    listener = await amqp.connect(testUrls.rabbitmq);
    const channel = await listener.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, service.ctx.config.EVENTS_EXCHANGE, 'hours-bank.#');
    await channel.consume(queue, (message) => message && published.push(JSON.parse(message.content.toString())), { noAck: true });
  });
  afterAll(async () => {
    await listener.close();
  });

  const processed = (id: string) => waitFor(`event ${id} handled`, async () => (await sql(service, 'select 1 from inbox where event_id = ?', [id])).length > 0, 10_000, 50);
  const publish = async (event: EventEnvelope) => {
    await service.ctx.broker.publish([event]);
    await processed(event.id);
  };
  const addCompleted = (employeeId: number) => request(service.url).post(`/api/v2/hours-bank/${employeeId}/completed`).set(admin).send({ time: '1h' });

  test('employee and school course events published through the broker make the bank usable; redeliveries are no-ops', async () => {
    expect((await addCompleted(501)).body.message).toBe('Employee not found');

    const employee = envelope('employee.upserted', { id: 501, userId: 9, name: 'Ana', email: 'ana@example.com', active: true });
    await publish(envelope('school-course.created', { id: 71, name: '2024/25', startDate: '2024-09-01', endDate: '2025-06-30' }));
    await publish(envelope('school-course.created', { id: 72, name: '2025/26', startDate: '2025-09-01', endDate: '2026-06-30' }));
    await publish(employee);
    await service.ctx.broker.publish([employee]); // the same event again

    const res = await addCompleted(501);
    expect(res.status).toBe(200);
    expect(res.body.data.schoolCourseId).toBe(72);
    expect(await sql(service, 'select id, name, active, deleted from employees where id = 501')).toEqual([{ id: 501, name: 'Ana', active: true, deleted: false }]);

    await publish(envelope('school-course.deleted', { id: 72 }));
    expect((await addCompleted(501)).body.data.schoolCourseId).toBe(71);

    await publish(envelope('employee.deleted', { id: 501 }));
    expect((await addCompleted(501)).body.message).toBe('Employee not found');
  });

  test('an event older than the replica row does not undo a newer one', async () => {
    const now = Date.now();
    await publish(envelope('employee.upserted', { id: 502, userId: null, name: 'New name', email: null, active: true }, new Date(now)));
    await publish(envelope('employee.upserted', { id: 502, userId: null, name: 'Old name', email: null, active: false }, new Date(now - 60_000)));
    await publish(envelope('employee.deleted', { id: 502 }, new Date(now - 30_000)));
    expect(await sql(service, 'select name, active, deleted from employees where id = 502')).toEqual([{ name: 'New name', active: true, deleted: false }]);
  });

  test('employee.upserted version 3 fills the replica\'s tax_id_digest and payroll_code columns (from the service\'s migration); no tax id is kept', async () => {
    const digest = taxIdDigest('X1234567L', DEV_TAX_ID_DIGEST_KEY);
    await publish(envelope('employee.upserted', { id: 504, userId: null, name: 'Iván Pop', email: null, active: true, taxIdDigest: digest, payrollCode: 'P-504' }));
    expect(await sql(service, 'select tax_id_digest, payroll_code from employees where id = 504')).toEqual([{ tax_id_digest: digest, payroll_code: 'P-504' }]);
    // the column stays, empty, for the last release's pods until the next release drops it (expand-then-contract)
    expect(await sql(service, `select count(*)::int as kept from employees where tax_id is not null`)).toEqual([{ kept: 0 }]);
  });

  test('recorded and reverted events reach the exchange through the outbox relay', async () => {
    // A course of its own (earlier than the first test's, so never the latest beside them): tests run in any order.
    await publish(envelope('school-course.created', { id: 73, name: '2023/24', startDate: '2023-09-01', endDate: '2024-06-30' }));
    await publish(envelope('employee.upserted', { id: 503, userId: 3, name: 'Eva', email: null, active: true }));
    const added = await addCompleted(503);
    expect(added.status).toBe(200);
    const transactionId = added.body.data.transactionId as number;
    await request(service.url).delete(`/api/v2/hours-bank/transactions/${transactionId}`).set(admin).expect(200);
    const recorded = await waitFor('hours-bank.transaction.recorded published', () => published.find((e) => e.type === 'hours-bank.transaction.recorded' && (e.data as { transactionId: number }).transactionId === transactionId));
    expect(recorded.data).toMatchObject({ employeeId: 503, type: 'COMPLETED', minutes: 60, schoolCourseId: added.body.data.schoolCourseId, replacesTransactionId: null });
    const reverted = await waitFor('hours-bank.transaction.reverted published', () => published.find((e) => e.type === 'hours-bank.transaction.reverted' && (e.data as { transactionId: number }).transactionId === transactionId));
    expect(reverted.data).toMatchObject({ employeeId: 503, type: 'COMPLETED', minutes: 60, cause: 'deleted', reversalTransactionId: expect.any(Number) });
    expect(reverted.source).toBe('hours-bank');
  });
});
