import { randomUUID } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import amqp from 'amqplib';
import { DEV_TAX_ID_DIGEST_KEY, taxIdDigest } from '@academy/contracts';
import { dlqName } from '@academy/messaging';
import { testUrls, waitFor } from '@academy/testing';
import { chosenSchoolCourseId } from '../src/index.ts';
import { envelope, useReplicaConsumer } from './support.ts';

describe('subscribeReplicas: one call keeps employees and school courses', () => {
  const { orm, rows, publish, queue, broker } = useReplicaConsumer('replicas-test');

  test('employee.upserted and employee.deleted keep the row, a deletion as a tombstone; an older event never undoes a newer one', async () => {
    const now = Date.now();
    await publish(envelope('employee.upserted', { id: 7, userId: 70, name: 'Ana', email: 'ana@example.com', active: true }, new Date(now)));
    expect(await rows('select id, user_id, name, email, active, deleted from employees where id = 7')).toEqual([
      { id: 7, user_id: 70, name: 'Ana', email: 'ana@example.com', active: true, deleted: false },
    ]);
    await publish(envelope('employee.upserted', { id: 7, userId: 70, name: 'Old Ana', email: null, active: false }, new Date(now - 60_000)));
    await publish(envelope('employee.deleted', { id: 7 }, new Date(now - 30_000)));
    expect(await rows('select name, active, deleted from employees where id = 7')).toEqual([{ name: 'Ana', active: true, deleted: false }]);

    await publish(envelope('employee.deleted', { id: 7 }, new Date(now + 1000)));
    await publish(envelope('employee.upserted', { id: 7, userId: 70, name: 'Ana', email: null, active: true }, new Date(now + 500)));
    expect(await rows('select active, deleted from employees where id = 7')).toEqual([{ active: false, deleted: true }]);
  });

  test('employee.upserted version 3 stores taxIdDigest and payrollCode; a version 1 event after it keeps them; null clears them', async () => {
    const now = Date.now();
    const base = { id: 8, userId: null, name: 'Eva Gil', email: null, active: true };
    const digest = taxIdDigest('12345678Z', DEV_TAX_ID_DIGEST_KEY);
    await publish(envelope('employee.upserted', { ...base, taxIdDigest: digest, payrollCode: 'EMP-8' }, new Date(now)));
    const stored = () => rows('select name, tax_id_digest, payroll_code from employees where id = 8');
    expect(await stored()).toEqual([{ name: 'Eva Gil', tax_id_digest: digest, payroll_code: 'EMP-8' }]);

    // An academic instance not yet upgraded still records version 1, without the two fields.
    await publish({ ...envelope('employee.upserted', { ...base, name: 'Eva Gil Ruiz' }, new Date(now + 1000)), version: 1 });
    expect(await stored()).toEqual([{ name: 'Eva Gil Ruiz', tax_id_digest: digest, payroll_code: 'EMP-8' }]);

    await publish(envelope('employee.upserted', { ...base, name: 'Eva Gil Ruiz', taxIdDigest: null, payrollCode: null }, new Date(now + 2000)));
    expect(await stored()).toEqual([{ name: 'Eva Gil Ruiz', tax_id_digest: null, payroll_code: null }]);

    // A version 1 event of a new employee leaves both null.
    await publish({ ...envelope('employee.upserted', { ...base, id: 9 }), version: 1 });
    expect(await rows('select tax_id_digest, payroll_code from employees where id = 9')).toEqual([{ tax_id_digest: null, payroll_code: null }]);
  });

  test('a version 2 twin (the tax id itself, from an academic@1.3.0 still running) is dropped, acknowledged and counted as retired, never parked in the DLQ nor read; its version 3 twin makes the change', async () => {
    const base = { id: 10, userId: null, name: 'Rut Sanz', email: null, active: true };
    const digest = taxIdDigest('12345678Z', DEV_TAX_ID_DIGEST_KEY);
    const at = new Date();
    const current = envelope('employee.upserted', { ...base, taxIdDigest: digest, payrollCode: 'EMP-10' }, at);
    const twin = { ...current, id: randomUUID(), version: 2, data: { ...base, taxId: '12345678Z', payrollCode: 'EMP-10' } };
    const retired = async () => (await broker().metrics.consumed.get()).values.find((value) => value.labels.queue === queue && value.labels.outcome === 'retired')?.value ?? 0;
    const before = await retired();
    await broker().publish([twin]);
    await publish(current);
    expect(await rows('select name, tax_id_digest, payroll_code from employees where id = 10')).toEqual([{ name: 'Rut Sanz', tax_id_digest: digest, payroll_code: 'EMP-10' }]);
    await waitFor('the version 2 twin dropped', async () => ((await retired()) === before + 1 ? true : undefined), 10_000, 50);
    const connection = await amqp.connect(testUrls.rabbitmq);
    try {
      const channel = await connection.createChannel();
      expect((await channel.checkQueue(dlqName(queue))).messageCount).toBe(0);
      expect((await channel.checkQueue(queue)).messageCount).toBe(0);
    } finally {
      await connection.close();
    }
    expect(await rows('select 1 from inbox where event_id = ?', [twin.id])).toEqual([]);
    expect(JSON.stringify(await rows('select * from employees'))).not.toContain('12345678Z');
  });

  test('the current school course: greatest start date, ties by greatest id, deleted ones ignored; a named course only while it lives', async () => {
    expect(await chosenSchoolCourseId(orm().em.fork())).toBeNull();
    const course = (id: number, startDate: string) =>
      envelope('school-course.created', { id, name: `Course ${id}`, startDate, endDate: '2030-06-30' });
    await publish(course(11, '2025-09-01'), course(12, '2024-09-01'), course(13, '2025-09-01'));
    expect(await chosenSchoolCourseId(orm().em.fork())).toBe(13);
    expect(await chosenSchoolCourseId(orm().em.fork(), 12)).toBe(12);

    await publish(envelope('school-course.deleted', { id: 13 }));
    expect(await chosenSchoolCourseId(orm().em.fork())).toBe(11);
    expect(await chosenSchoolCourseId(orm().em.fork(), 13)).toBeNull();
    expect(await chosenSchoolCourseId(orm().em.fork(), 99)).toBeNull();
  });
});
