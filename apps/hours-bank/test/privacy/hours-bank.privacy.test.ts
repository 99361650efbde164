import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { createEnvelope, type PrivacySubject } from '@academy/contracts';
import { createLogger } from '@academy/kit';
import { personalFieldNames, type ProviderContext } from '@academy/privacy';
import type { RunningService } from '@academy/service';
import { bearer, waitFor } from '@academy/testing';
import type { Config } from '../../src/config.ts';
import { hoursBankPrivacy, hoursBankProviders } from '../../src/privacy/hours-bank.privacy.ts';
import { hoursBankService } from '../../src/service.ts';
import { employeeReplicaPrivacy } from '@academy/replicas';
import { freshId, seedSchoolCourse, sql, useHoursBank } from '../support.ts';

const admin = bearer({ role: 'admin', sub: '1' });
const NOW = new Date('2026-11-27T10:00:00Z');

describe("hours-bank's part of a personal data request", () => {
  // The harness's slot: a start slower than a hook's 30 s at load is waited for (120 s), and stopped even when it ends late.
  const started = useHoursBank();
  let service: RunningService<Config>;
  beforeAll(async () => {
    service = started();
  });

  /** An employee in the replica with a login, a name and an address, and a bank in a course with two entries. */
  async function employeeWithHours() {
    const id = freshId();
    await sql(service, `insert into employees (id, user_id, name, email, tax_id_digest, payroll_code, active, deleted, source_version) values (?, ?, ?, ?, ?, ?, true, false, '2026-01-01')`, [
      id,
      id + 50_000,
      `Ana ${id}`,
      `ana${id}@academy.test`,
      'a'.repeat(64),
      `P-${id}`,
    ]);
    const courseId = await seedSchoolCourse(service, '2026-09-01');
    await request(service.url).post(`/api/v2/hours-bank/${id}/pending`).set(admin).send({ time: '2h', reason: `Medical leave of ${id}`, schoolCourseId: courseId }).expect(200);
    await request(service.url).post(`/api/v2/hours-bank/${id}/completed`).set(admin).send({ time: '30m', schoolCourseId: courseId }).expect(200);
    const subject: PrivacySubject = { kind: 'employee', id, userId: id + 50_000, email: `ana${id}@academy.test` };
    return { id, courseId, subject };
  }

  const inTransaction = <T>(run: (ctx: ProviderContext) => Promise<T>, subject: PrivacySubject) =>
    service.ctx.orm.em.fork().transactional((em) => run({ em, subject, requestId: randomUUID(), now: NOW, locale: 'es' }));

  test('an addition for the person that arrives while the erasure commits finds them erased (404): no bank is created again', async () => {
    const { id, courseId, subject } = await employeeWithHours();
    let commitErasure!: () => void;
    const erasureMayCommit = new Promise<void>((resolve) => (commitErasure = resolve));
    let erased!: () => void;
    const erasureHasRun = new Promise<void>((resolve) => (erased = resolve));
    const erasing = inTransaction(async (ctx) => {
      for (const provider of hoursBankProviders) await provider.erase(ctx);
      erased();
      await erasureMayCommit;
    }, subject);
    await erasureHasRun;
    const adding = request(service.url).post(`/api/v2/hours-bank/${id}/pending`).set(admin).send({ time: '1h', reason: 'Late', schoolCourseId: courseId });
    const added = adding.then((res) => res);
    // The addition waits for the erasure's commit (or, unserialized, for the bank row it deleted).
    await Promise.race([added, new Promise((resolve) => setTimeout(resolve, 300))]);
    commitErasure();
    await erasing;
    expect((await added).status).toBe(404);
    expect(await sql(service, `select id from hours_banks where employee_id = ?`, [id])).toEqual([]);
  });

  test('the export holds every bank of the person with each entry, field by field, and nothing of another employee', async () => {
    const { id, courseId, subject } = await employeeWithHours();
    const other = await employeeWithHours();
    const answer = await inTransaction((ctx) => hoursBankPrivacy.export(ctx), subject);
    const [bank] = await sql<{ id: number; created_at: string; updated_at: string }>(service, `select id, created_at, updated_at from hours_banks where employee_id = ?`, [id]);
    const entries = await sql<{ id: number; created_at: Date; transaction_date: string }>(service, `select id, created_at, to_char(transaction_date, 'YYYY-MM-DD') as transaction_date from hours_transactions where hours_bank_id = ? order by id`, [bank!.id]);
    expect(answer).toEqual({
      data: {
        banks: [
          {
            id: bank!.id,
            schoolCourseId: courseId,
            schoolCourseName: `Course ${courseId}`,
            pendingMinutes: 90,
            completedMinutes: 0,
            createdAt: new Date(bank!.created_at).toISOString(),
            updatedAt: new Date(bank!.updated_at).toISOString(),
            transactions: [
              expect.objectContaining({ id: entries[0]!.id, type: 'PENDING', totalMinutes: 120, pendingAffectedMinutes: 120, completedAffectedMinutes: 0, reason: `Medical leave of ${id}`, isActive: true, createdBy: 1, transactionDate: entries[0]!.transaction_date }),
              expect.objectContaining({ id: entries[1]!.id, type: 'COMPLETED', totalMinutes: 30, pendingAffectedMinutes: -30, completedAffectedMinutes: 0, reason: null, isActive: true, createdBy: 1 }),
            ],
          },
        ],
      },
    });
    expect(JSON.stringify(answer)).not.toContain(`Medical leave of ${other.id}`);
    expect(await inTransaction((ctx) => hoursBankPrivacy.export(ctx), { ...subject, id: freshId() })).toBeNull();
  });

  test('the employees replica exports the row as held', async () => {
    const { id, subject } = await employeeWithHours();
    expect(await inTransaction((ctx) => employeeReplicaPrivacy.export(ctx), subject)).toEqual({
      data: { employee: { id, userId: id + 50_000, name: `Ana ${id}`, email: `ana${id}@academy.test`, taxIdDigest: 'a'.repeat(64), payrollCode: `P-${id}`, active: true, deleted: false } },
    });
  });

  test('erasure leaves nothing identifiable: no bank, no entry, the replica a blank tombstone; another employee untouched; a second erasure erases nothing more', async () => {
    const { id, subject } = await employeeWithHours();
    const other = await employeeWithHours();
    const erase = () => inTransaction(async (ctx) => Promise.all(hoursBankProviders.map((provider) => provider.erase(ctx))), subject);
    expect(await erase()).toEqual([
      { erased: [{ what: 'hours banks', count: 1 }, { what: 'hours bank entries', count: 2 }], kept: [] },
      { erased: [{ what: 'employee record (replica)', count: 1 }], kept: [], identifiers: [`Ana ${id}`, `ana${id}@academy.test`] },
    ]);
    expect(await sql(service, `select id from hours_banks where employee_id = ?`, [id])).toEqual([]);
    expect(await sql(service, `select t.id from hours_transactions t where t.reason like ?`, [`%of ${id}`])).toEqual([]);
    expect(await sql(service, `select user_id, name, email, tax_id_digest, payroll_code, active, deleted, source_version = ? as "versionIsErasure" from employees where id = ?`, [NOW, id])).toEqual([
      { user_id: null, name: null, email: null, tax_id_digest: null, payroll_code: null, active: false, deleted: true, versionIsErasure: true },
    ]);
    expect(await sql(service, `select count(*)::int as n from hours_banks where employee_id = ?`, [other.id])).toEqual([{ n: 1 }]);
    expect(await sql(service, `select name from employees where id = ?`, [other.id])).toEqual([{ name: `Ana ${other.id}` }]);
    expect(await erase()).toEqual([{ erased: [], kept: [] }, { erased: [], kept: [] }]);
    expect(await inTransaction((ctx) => employeeReplicaPrivacy.export(ctx), subject)).toBeNull();
  });

  test('an employee.upserted older than the erasure does not bring the person back into the replica', async () => {
    const { id, subject } = await employeeWithHours();
    await inTransaction((ctx) => employeeReplicaPrivacy.erase(ctx), subject);
    const late = createEnvelope('employee.upserted', { id, userId: id + 50_000, name: `Ana ${id}`, email: null, active: true }, { source: 'academic', occurredAt: new Date('2026-11-27T09:59:00Z') });
    await service.ctx.broker.publish([late]);
    await waitFor('the late event handled', async () => (await sql(service, 'select 1 from inbox where event_id = ?', [late.id])).length > 0, 10_000, 50);
    expect(await sql(service, `select name, deleted from employees where id = ?`, [id])).toEqual([{ name: null, deleted: true }]);
  });

  test('privacy.request.opened on the bus is answered: the erasure done, its answer recorded once', async () => {
    const { id, subject } = await employeeWithHours();
    const requestId = randomUUID();
    const opened = createEnvelope(
      'privacy.request.opened',
      { requestId, kind: 'erasure', subject, locale: 'es', openedAt: NOW.toISOString(), deadline: '2026-12-27T10:00:00.000Z' },
      { source: 'academic' },
    );
    await service.ctx.broker.publish([opened]);
    await waitFor('the answer recorded', async () => (await sql(service, `select 1 from privacy_answers where request_id = ? and status = 'done'`, [requestId])).length > 0, 15_000, 100);
    expect(await sql(service, `select id from hours_banks where employee_id = ?`, [id])).toEqual([]);
    const [answered] = await sql<{ envelope: { data: { service: string; status: string; features: { feature: string; status: string }[] } } }>(service, `select envelope from outbox where type = 'privacy.part.answered' and envelope->'data'->>'requestId' = ?`, [requestId]);
    expect(answered!.envelope.data).toMatchObject({ service: 'hours-bank', status: 'done' });
    expect(answered!.envelope.data.features.map((feature) => feature.feature).sort()).toEqual(['hours-bank.employee-replica', 'hours-bank.hours-bank']);
  });

  test('the service logger redacts every field its providers declare personal', () => {
    const declared = personalFieldNames(hoursBankProviders);
    expect(hoursBankService.personalFields).toEqual(declared);
    expect(declared).toEqual(expect.arrayContaining(['email', 'name', 'reason', 'taxIdDigest']));
    const lines: string[] = [];
    const logger = createLogger('hours-bank', 'info', { write: (line: string) => void lines.push(line) }, { redact: hoursBankService.personalFields });
    logger.info(Object.fromEntries(declared.map((field) => [field, `secret-${field}`])), 'top');
    logger.info({ event: { data: Object.fromEntries(declared.map((field) => [field, `secret-${field}`])) } }, 'nested');
    expect(lines.join('')).not.toContain('secret-');
  });
});
