// `npm run test:replicas`: two instances of every service and two gateways (gateway i in front of
// instance set i), sharing PostgreSQL, Redis and a broker (tools/system/harness.ts). Shows that each
// service is correct as several instances: one publication per outbox row, competing consumers
// with effects once, the scheduled incident check on both, Socket.IO across instances, rate limits
// across gateways, and one instance of each service killed mid-run losing nothing acknowledged.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import amqp from 'amqplib';
import { io, type Socket } from 'socket.io-client';
import { publishedVersions } from '@academy/contracts';
import { createOrm } from '@academy/db';
import { messagingEntities, recordEvent } from '@academy/messaging';
import { DEMO, startTestSystem, type BackendName, type TestSystem } from './harness.ts';
import { call, eventually, login, type Answer, type Session } from './client.ts';
import { payslipEmployees } from './payslip-employees.ts';
import { demoPdf } from '../../apps/payslips/src/seed.ts';
import { absencesToCross, createClass, eventsOf, mailsSettled, mailsTo, pickStudent } from './attendance-world.ts';
import { addressesOf, eventIds, mailsOfDeliveries, mailsOfEvents, type CaughtMail } from './mailbox.ts';

let system: TestSystem;
let admin: Session;
let broker: amqp.ChannelModel;
const EXCHANGE = 'academy.events';

beforeAll(async () => {
  system = await startTestSystem({
    name: 'replicas',
    instances: 2,
    redisDb: 14,
    log: (line) => process.stderr.write(`[replicas] ${line}\n`),
    env: {
      // The load below comes from one address and two admins: the main gateways' limits stay out of the way.
      gateway: { RATE_LIMIT_IP_PER_MINUTE: '1000000', RATE_LIMIT_USER_PER_MINUTE: '1000000' },
      // Every open record is "too long" after 3.6 s, checked twice a second by both instances.
      incidents: { CHECK_INTERVAL_MS: '500', OPEN_RECORD_LIMIT_HOURS: '0.001', LOG_LEVEL: 'info' },
      // Both academic instances look for missing attendance every second, at any hour of the day.
      academic: { ATTENDANCE_CHECK_INTERVAL_MS: '1000', ATTENDANCE_REMINDER_HOUR: '0' },
    },
  });
  admin = await login(system.gateway, DEMO.admin);
  broker = await amqp.connect(system.rabbit.url);
}, 300_000);

afterAll(async () => {
  await broker?.close().catch(() => undefined);
  await system?.stop();
}, 90_000);

/** A queue of our own bound to `routingKey`, collecting what arrives. */
async function listen(routingKey: string): Promise<{ messages: { id: string; data: Record<string, unknown> }[]; close: () => Promise<void> }> {
  const channel = await broker.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, EXCHANGE, routingKey);
  const messages: { id: string; data: Record<string, unknown> }[] = [];
  await channel.consume(queue, (message) => {
    if (!message) return;
    const envelope = JSON.parse(message.content.toString('utf8'));
    messages.push({ id: envelope.id, data: envelope.data });
  }, { noAck: true });
  return { messages, close: () => channel.close() };
}

/** The value of a Prometheus counter of one process, summed over the series whose labels include `labels`. */
async function counter(url: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length, line.lastIndexOf(' '));
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const instancesOf = (service: BackendName) => [system.process(service, 0), system.process(service, 1)];

async function unsentRows(): Promise<number> {
  let total = 0;
  for (const service of ['academic', 'hours-bank', 'incidents', 'notifications'] as BackendName[]) {
    const [row] = await system.sql<{ n: number }>(service, 'select count(*)::int n from outbox where published_at is null');
    total += row.n;
  }
  return total;
}

describe('outbox with two relays', () => {
  test('20,000 rows of one outbox are published once each: 0 duplicates, 0 lost, both instances published some', async () => {
    const TOTAL = 20_000;
    const sink = await listen('hours-bank.transaction.recorded');
    const [a, b] = instancesOf('hours-bank');
    const type = 'hours-bank.transaction.recorded';
    const before = await Promise.all([a, b].map((p) => counter(p.url, 'messaging_published_total', { type })));

    // Rows written as a service writes them (recordEvent in a transaction), straight into hours-bank's outbox.
    const orm = await createOrm({ clientUrl: system.databaseUrls['hours-bank'], entities: messagingEntities, migrations: [], poolMax: 2 });
    try {
      for (let start = 0; start < TOTAL; start += 2000) {
        const em = orm.em.fork();
        for (let i = start; i < start + 2000; i++) {
          recordEvent(em, type, {
            transactionId: 10_000_000 + i,
            hoursBankId: 1,
            employeeId: 1,
            schoolCourseId: 1,
            type: 'COMPLETED',
            minutes: 1 + (i % 90),
            transactionDate: '2026-11-23',
            reason: 'replicas test',
            replacesTransactionId: null,
            byUserId: null,
          }, { source: 'replicas-test' });
        }
        await em.flush();
      }
    } finally {
      await orm.close();
    }

    await eventually('20,000 events at the sink', async () => (new Set(sink.messages.map((m) => m.id)).size >= TOTAL ? true : undefined), 120_000, 250);
    // Give a late duplicate time to show up.
    await new Promise((r) => setTimeout(r, 1500));
    const ids = sink.messages.map((m) => m.id);
    const distinct = new Set(ids).size;
    const after = await Promise.all([a, b].map((p) => counter(p.url, 'messaging_published_total', { type })));
    const published = after.map((value, i) => value - before[i]);
    process.stderr.write(`[replicas] outbox: ${distinct} distinct events, ${ids.length - distinct} duplicates; published by instance 0: ${published[0]}, instance 1: ${published[1]}\n`);
    await sink.close();

    expect(distinct).toBe(TOTAL);
    expect(ids.length - distinct).toBe(0);
    const [{ unsent }] = await system.sql<{ unsent: number }>('hours-bank', 'select count(*)::int unsent from outbox where published_at is null');
    expect(unsent).toBe(0);
    expect(published[0]).toBeGreaterThan(0);
    expect(published[1]).toBeGreaterThan(0);
    expect(published[0] + published[1]).toBe(TOTAL);
  }, 180_000);
});

describe('competing consumers', () => {
  test('60 new employees through both gateways: each event handled once, by one of two instances of each consumer, and both instances took some', async () => {
    const queues = { 'hours-bank': 'hours-bank.replicas', incidents: 'incidents.replicas' } as const;
    const labels = (queue: string) => ({ queue, type: 'employee.upserted', outcome: 'handled' });
    const before = Object.fromEntries(
      await Promise.all(Object.entries(queues).map(async ([service, queue]) => [service, await Promise.all(instancesOf(service as BackendName).map((p) => counter(p.url, 'messaging_consumed_total', labels(queue))))])),
    );
    const ids: number[] = [];
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const hired = await call(system.gateways[i % 2], 'POST', '/api/v2/employees', { token: admin.accessToken, body: { name: `Replica${i}`, lastname: 'Consumer', kind: 'teacher' } });
        expect(hired.status).toBe(201);
        ids.push(hired.body.id);
      }),
    );
    for (const service of Object.keys(queues) as BackendName[]) {
      await eventually(`60 employees in the ${service} replica`, async () => {
        const [{ n }] = await system.sql<{ n: number }>(service, 'select count(*)::int n from employees where id = any($1)', [ids]);
        return n === 60 ? true : undefined;
      }, 30_000);
    }
    for (const [service, queue] of Object.entries(queues)) {
      const after = await Promise.all(instancesOf(service as BackendName).map((p) => counter(p.url, 'messaging_consumed_total', labels(queue))));
      const handled = after.map((value, i) => value - before[service][i]);
      process.stderr.write(`[replicas] ${queue}: handled by instance 0: ${handled[0]}, instance 1: ${handled[1]}\n`);
      // academic records each employee.upserted in every version it publishes (version 3 alone since its version 2 twin was retired)
      expect(handled[0] + handled[1]).toBe(60 * publishedVersions('academic', 'employee.upserted').length);
      expect(handled[0]).toBeGreaterThan(0);
      expect(handled[1]).toBeGreaterThan(0);
      // The inbox holds one row per event and consumer.
      const [{ dupes }] = await system.sql<{ dupes: number }>(service as BackendName, 'select (count(*) - count(distinct event_id))::int dupes from inbox');
      expect(dupes).toBe(0);
    }
  }, 90_000);

  test('block approvals through both gateways: each approval e-mails each recipient once, with two notification instances competing', async () => {
    const pending = await call(system.gateway, 'GET', '/api/v2/blocks/pending', { token: admin.accessToken });
    expect(pending.status).toBe(200);
    // The student block ids of pending blocks, through the teacher's grades view would need the teacher; the admin's listing names blocks and students.
    const targets: { studentId: number; blockId: number }[] = [];
    for (const group of pending.body.byStudent as { studentId: number; blocks: { blockId: number; subjectId: number }[] }[]) {
      targets.push({ studentId: group.studentId, blockId: group.blocks[0].blockId });
      if (targets.length === 8) break;
    }
    expect(targets.length).toBe(8);
    const studentBlockIds: number[] = [];
    for (const target of targets) {
      const [row] = await system.sql<{ id: number }>('academic', 'select id from student_blocks where student_id = $1 and block_id = $2', [target.studentId, target.blockId]);
      studentBlockIds.push(row.id);
    }
    const queue = 'notifications.email';
    const notificationsInstances = instancesOf('notifications');
    // Only the approvals' events and mails count: the queue and the catcher also carry the seed's warnings and the teachers' reminders.
    const labels = { queue, type: 'block.approved', outcome: 'handled' };
    const before = await Promise.all(notificationsInstances.map((p) => counter(p.url, 'messaging_consumed_total', labels)));

    await Promise.all(
      studentBlockIds.map(async (id, i) => {
        const approved = await call(system.gateways[i % 2], 'POST', `/api/v2/blocks/student-block/${id}/review`, { token: admin.accessToken, body: { action: 'approve' } });
        expect(approved.status).toBe(200);
      }),
    );
    const approvals = await eventIds(system, 'academic', 'block.approved', 'studentBlockId', studentBlockIds);
    expect(approvals).toHaveLength(8);
    // Every approval's deliveries are sent, one per (event, recipient), and each e-mailed once.
    const { deliveries, mails } = await mailsOfEvents(system, approvals, 8, 60_000);
    expect(new Set(deliveries.map((d) => d.eventId))).toEqual(new Set(approvals));
    const pairs = new Set(deliveries.map((d) => `${d.eventId} ${d.recipient}`));
    expect(pairs.size).toBe(deliveries.length);
    expect(addressesOf(mails)).toEqual(deliveries.map((d) => d.recipient).sort());
    await new Promise((r) => setTimeout(r, 1000));
    expect((await mailsOfDeliveries(system, deliveries)).length).toBe(deliveries.length);
    const after = await Promise.all(notificationsInstances.map((p) => counter(p.url, 'messaging_consumed_total', labels)));
    const handled = after.map((value, i) => value - before[i]);
    process.stderr.write(`[replicas] ${queue}: approvals handled by instance 0: ${handled[0]}, instance 1: ${handled[1]}; ${mails.length} e-mails for 8 approvals\n`);
    expect(handled[0] + handled[1]).toBe(8);
    expect(handled[0]).toBeGreaterThan(0);
    expect(handled[1]).toBeGreaterThan(0);
  }, 120_000);
});

describe('incidents on two instances', () => {
  test('the scheduled check runs on both instances (each one alone flags a record) and flags each open record once (RECORD_OPEN_TOO_LONG), never twice when both run', async () => {
    // Four teachers clock in, two through each gateway, in waves.
    const sessions = await Promise.all([2, 3, 4, 6].map((n) => login(system.gateway, DEMO.teacher(n))));
    const records: number[] = [];
    for (const [i, session] of sessions.entries()) {
      const clocked = await call(system.gateways[i % 2], 'POST', '/api/v2/timerecord/clock-in', { token: session.accessToken, body: { source: 'Web' } });
      expect(clocked.status).toBe(201);
      records.push(clocked.body.data.id);
      await new Promise((r) => setTimeout(r, 700));
    }
    const flagged = await eventually('every open record flagged', async () => {
      const rows = await system.sql<{ time_record_id: number; n: number }>(
        'incidents',
        "select time_record_id, count(*)::int n from incidents where kind = 'RECORD_OPEN_TOO_LONG' and time_record_id = any($1) group by time_record_id",
        [records],
      );
      return rows.length === records.length ? rows : undefined;
    }, 30_000);
    // Both instances keep checking for a few more rounds: still one incident per record.
    await new Promise((r) => setTimeout(r, 2500));
    const [{ dupes }] = await system.sql<{ dupes: number }>(
      'incidents',
      "select (count(*) - count(distinct (kind, coalesce(time_record_id, 0), employee_id, coalesce(day::text, ''))))::int dupes from incidents where kind in ('RECORD_OPEN_TOO_LONG', 'ABSENCE', 'LATE_CLOCK_IN')",
    );
    expect(flagged.every((row) => row.n === 1)).toBe(true);
    expect(dupes).toBe(0);
    const created = instancesOf('incidents').map((p) =>
      readFileSync(path.join(system.dir, `incidents-${p.instance}.log`), 'utf8')
        .split('\n')
        .filter((line) => line.includes('scheduled check created incidents')).length,
    );
    process.stderr.write(`[replicas] scheduled check: runs that created incidents on instance 0: ${created[0]}, instance 1: ${created[1]}\n`);
    for (const session of sessions) await call(system.gateway, 'POST', '/api/v2/timerecord/clock-out', { token: session.accessToken, body: { source: 'Web' } });

    // Each instance alone (the other one frozen with SIGSTOP) flags a new record: both run the check.
    const [i0, i1] = instancesOf('incidents');
    for (const [frozen, active, session] of [[i0, i1, sessions[0]], [i1, i0, sessions[1]]] as const) {
      process.kill(frozen.pid!, 'SIGSTOP');
      try {
        const clocked = await call(system.gateways[active.instance], 'POST', '/api/v2/timerecord/clock-in', { token: session.accessToken, body: { source: 'App' } });
        expect(clocked.status).toBe(201);
        await eventually(`record ${clocked.body.data.id} flagged by instance ${active.instance} alone`, async () => {
          const rows = await system.sql('incidents', "select id from incidents where kind = 'RECORD_OPEN_TOO_LONG' and time_record_id = $1", [clocked.body.data.id]);
          return rows.length === 1 ? true : undefined;
        }, 20_000);
      } finally {
        process.kill(frozen.pid!, 'SIGCONT');
      }
      await call(system.gateways[active.instance], 'POST', '/api/v2/timerecord/clock-out', { token: session.accessToken, body: { source: 'App' } });
    }
  }, 90_000);

  test('a Socket.IO client on instance A receives the incident_notification of a clock-in made through instance B (Redis adapter)', async () => {
    const employee = await login(system.gateway, DEMO.teacher(5));
    const connect = (gateway: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = io(gateway, { path: '/socket.io', transports: ['websocket'], auth: { token: employee.accessToken }, reconnection: false });
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    // One socket on each notifications instance: whichever instance consumes the event, one of the two emits crosses instances.
    const sockets = [await connect(system.gateways[0]), await connect(system.gateways[1])];
    const received: { incidentId: number }[][] = [[], []];
    sockets.forEach((socket, i) => socket.on('incident_notification', (n) => received[i].push(n)));
    try {
      const viaB = system.gateways[1];
      expect((await call(viaB, 'POST', '/api/v2/timerecord/clock-in', { token: employee.accessToken, body: { source: 'App' } })).status).toBe(201);
      const twice = await call(viaB, 'POST', '/api/v2/timerecord/clock-in', { token: employee.accessToken, body: { source: 'App' } });
      expect(twice.status).toBe(409);
      const incidentId = twice.body.details.incidentId;
      for (const i of [0, 1]) await eventually(`socket on instance ${i} notified`, async () => received[i].find((n) => n.incidentId === incidentId), 20_000, 100);
      expect(received[0].filter((n) => n.incidentId === incidentId)).toHaveLength(1);
      expect(received[1].filter((n) => n.incidentId === incidentId)).toHaveLength(1);
      await call(viaB, 'POST', '/api/v2/timerecord/clock-out', { token: employee.accessToken, body: { source: 'App' } });
    } finally {
      for (const socket of sockets) socket.close();
    }
  }, 60_000);
});

describe('rate limits across gateways', () => {
  test('the per-user and per-address limits are shared by two gateways (Redis counters), and signed-in requests count against their user only', async () => {
    // A pair of gateways with low limits and a prefix of their own, in front of the two instance sets.
    const limits = { RATE_LIMIT_USER_PER_MINUTE: '20', RATE_LIMIT_IP_PER_MINUTE: '10', RATE_LIMIT_KEY_PREFIX: `${system.id}:rl-limits` };
    const pair = [await system.addGateway(0, limits), await system.addGateway(1, limits)];
    try {
      const user = await login(system.gateway, DEMO.admin2);
      // Alternating: 15 through each; alone, each gateway would let all 15 through.
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await call(pair[i % 2].url, 'GET', '/api/v2/auth/me', { token: user.accessToken }));
      const statuses = (list: Answer[]) => ({ ok: list.filter((a) => a.status === 200).length, limited: list.filter((a) => a.status === 429).length });
      expect(statuses(answers)).toEqual({ ok: 20, limited: 10 });
      // Both gateways refused some: neither counted alone.
      expect(answers.filter((a, i) => i % 2 === 0 && a.status === 429).length).toBeGreaterThan(0);
      expect(answers.filter((a, i) => i % 2 === 1 && a.status === 429).length).toBeGreaterThan(0);

      // Logins (no user yet) count against the address, 10 across both gateways; the 30 signed-in
      // requests above counted against their user only, so the address's count starts at 0.
      const logins = [];
      for (let i = 0; i < 12; i++) logins.push(await call(pair[i % 2].url, 'POST', '/api/v2/auth/login', { body: DEMO.teacher(1) }));
      expect(statuses(logins)).toEqual({ ok: 10, limited: 2 });
      expect(logins[10].headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      for (const gateway of pair) await gateway.kill('SIGTERM');
    }
  }, 60_000);
});

describe('login protection across instances', () => {
  test('failed logins for one e-mail count across both gateways and both academic instances: the sixth is blocked everywhere, other accounts are not', async () => {
    const email = `nobody-${system.id}@academy.local`;
    const attempts = [];
    for (let i = 0; i < 5; i++) attempts.push(await call(system.gateways[i % 2], 'POST', '/api/v2/auth/login', { body: { email, password: `wrong-${i}` } }));
    expect(attempts.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    for (const gateway of system.gateways) {
      const blocked = await call(gateway, 'POST', '/api/v2/auth/login', { body: { email, password: 'wrong-again' } });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    for (const gateway of system.gateways) expect((await call(gateway, 'POST', '/api/v2/auth/login', { body: DEMO.teacher(1) })).status).toBe(200);
  });
});

describe('payslips on two instances', () => {
  test("a batch read by one instance is seen, published and downloaded through the other; concurrent publishes through both gateways make each payslip and its event once", async () => {
    const teachers = [await login(system.gateways[0]!, DEMO.teacher(1)), await login(system.gateways[1]!, DEMO.teacher(2))];
    const employees = await payslipEmployees(system, teachers.map((t) => t.user.employeeId!));
    const period = { periodStart: '2026-01-01', periodEnd: '2026-01-31', label: 'Nómina enero 2026' };
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...period, matchBy: 'taxId' })) form.set(name, value);
    form.set('file', new Blob([new Uint8Array(await demoPdf(employees.map((employee) => ({ employee, period }))))], { type: 'application/pdf' }), 'enero.pdf');
    const uploaded = await fetch(`${system.gateways[0]}/api/v2/payslips/batches`, { method: 'POST', headers: { authorization: `Bearer ${admin.accessToken}` }, body: form });
    expect(uploaded.status).toBe(202);
    const batchId = ((await uploaded.json()) as { data: { id: number } }).data.id;
    const ready = await eventually('the batch read', async () => {
      const batch = await call(system.gateways[1]!, 'GET', `/api/v2/payslips/batches/${batchId}`, { token: admin.accessToken });
      return batch.body.data.status === 'reading' ? undefined : batch.body.data;
    });
    expect(ready.status).toBe('ready');

    const published = await listen('payslip.published');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(system.gateways[i % 2]!, 'POST', `/api/v2/payslips/batches/${batchId}/publish`, { token: admin.accessToken })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const rows = await system.sql<{ id: number }>('payslips', 'select id from payslips where batch_id = $1', [batchId]);
    expect(rows).toHaveLength(2);
    const events = await eventually('both payslip.published events', async () => {
      const ours = published.messages.filter((message) => message.data.batchId === batchId);
      return ours.length >= 2 ? ours : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(published.messages.filter((message) => message.data.batchId === batchId)).toHaveLength(2);
    expect(events.map((event) => event.data.payslipId).sort()).toEqual(rows.map((row) => row.id).sort());
    await published.close();

    // Each teacher downloads theirs through either instance set: both read the files on the shared folder.
    for (const [i, teacher] of teachers.entries()) {
      const mine = await call(system.gateways[1 - i]!, 'GET', '/api/v2/payslips/my', { token: teacher.accessToken });
      const payslip = mine.body.data.find((p: { label: string }) => p.label === period.label);
      const file = await fetch(`${system.gateways[1 - i]}/api/v2/payslips/${payslip.id}/file`, { headers: { authorization: `Bearer ${teacher.accessToken}` } });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });
});

describe('attendance on two instances', () => {
  test('a class left without attendance gets its teacher one reminder (one attendance.missing, one e-mail) though both instances check it every second', async () => {
    const email = `reminded-${system.id}@example.com`.toLowerCase();
    const hired = await call(system.gateways[0]!, 'POST', '/api/v2/employees', { token: admin.accessToken, body: { name: 'Reminded', lastname: 'Teacher', kind: 'teacher', email } });
    expect(hired.status).toBe(201);
    const employeeId: number = hired.body.id ?? hired.body.data?.id;
    const teacher = await login(system.gateway, DEMO.teacher(1));
    const pick = await pickStudent(system, system.gateway, admin, teacher.user.employeeId!);
    const eventId = await createClass(system.gateways[1]!, admin, { subjectId: pick.subjectId, centerId: pick.centerId, employeeId }, 0, [pick.studentId]);

    const [reminder] = await eventually('the reminder recorded', async () => {
      const events = await eventsOf(system, 'attendance.missing', 'employeeId', employeeId);
      return events.length ? events : undefined;
    }, 30_000);
    expect(reminder!.data).toMatchObject({ employeeId, missingCount: 1, classes: [expect.objectContaining({ eventId })] });
    await eventually('the reminder e-mailed', async () => ((await mailsTo(system, email)).length ? true : undefined), 30_000);
    // Several more rounds of both instances' checks: still one.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    await mailsSettled(system);
    expect(await eventsOf(system, 'attendance.missing', 'employeeId', employeeId)).toHaveLength(1);
    expect(await mailsTo(system, email)).toHaveLength(1);
  }, 90_000);

  test("saves through both gateways at once take a student under the threshold: one attendance.threshold-crossed, one e-mail to the guardian", async () => {
    const teacher = await login(system.gateway, DEMO.teacher(3));
    const employeeId = teacher.user.employeeId!;
    const pick = await pickStudent(system, system.gateway, admin, employeeId);
    const place = { subjectId: pick.subjectId, centerId: pick.centerId, employeeId };
    // One absence more than the crossing needs, the last two saved at the same moment through both gateways.
    const absences = (await absencesToCross(system, pick)) + 1;
    const classes = [];
    for (let n = 0; n < absences; n++) classes.push(await createClass(system.gateway, admin, place, 10 + n, [pick.studentId]));
    const save = (gateway: string, eventId: number) => call(gateway, 'PUT', `/api/v2/attendance/events/${eventId}`, { token: teacher.accessToken, body: { marks: [{ studentId: pick.studentId, status: 'A' }] } });
    for (const eventId of classes.slice(0, -2)) expect((await save(system.gateways[0]!, eventId)).status).toBe(200);
    expect(await eventsOf(system, 'attendance.threshold-crossed', 'studentId', pick.studentId)).toHaveLength(0);
    const both = await Promise.all([save(system.gateways[0]!, classes.at(-2)!), save(system.gateways[1]!, classes.at(-1)!)]);
    expect(both.map((answer) => [answer.status, answer.body.changed])).toEqual([[200, 1], [200, 1]]);

    const warnings = await eventsOf(system, 'attendance.threshold-crossed', 'studentId', pick.studentId);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.data).toMatchObject({ studentId: pick.studentId, subjectId: pick.subjectId });
    expect(String((warnings[0]!.data.guardian as { email: string }).email).toLowerCase()).toBe(pick.guardianEmail.toLowerCase());
    // The warning's own mails to the guardian (who may hold the seed's warnings about the same student in other subjects).
    const toGuardian = (mails: CaughtMail[]) => mails.filter((mail) => mail.to.some((to) => to.address.toLowerCase() === pick.guardianEmail.toLowerCase()));
    const { deliveries, mails } = await mailsOfEvents(system, [warnings[0]!.id]);
    expect(toGuardian(mails)).toHaveLength(1);
    expect(toGuardian(mails)[0]!.subject).toContain(pick.studentName);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await mailsSettled(system);
    expect(toGuardian(await mailsOfDeliveries(system, deliveries))).toHaveLength(1);
  }, 90_000);
});

describe('an instance of each service and a gateway killed mid-run', () => {
  test('no acknowledged request and no event is lost', async () => {
    const recorded = await listen('hours-bank.transaction.recorded');
    const teachers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => login(system.gateway, DEMO.teacher(n))));
    const employeeIds = teachers.map((t) => t.user.employeeId!);
    const acked = { transactions: [] as number[], employees: [] as number[] };
    let refused = 0;
    let running = true;

    /** A client behind a load balancer: a 502/503 or a broken connection is retried through the other gateway. */
    const send = async (worker: number, attempt: (gateway: string) => Promise<Answer>): Promise<Answer | null> => {
      for (let tries = 0; tries < 20; tries++) {
        const gateway = system.gateways[(worker + tries) % 2];
        try {
          const answer = await attempt(gateway);
          if (answer.status !== 502 && answer.status !== 503 && answer.status !== 504) return answer;
        } catch {
          // connection reset by a dying process: not acknowledged
        }
        refused++;
        await new Promise((r) => setTimeout(r, 50));
      }
      return null;
    };
    const worker = async (w: number) => {
      for (let n = 0; running; n++) {
        if (n % 5 === 4) {
          const hired = await send(w, (gateway) => call(gateway, 'POST', '/api/v2/employees', { token: admin.accessToken, body: { name: `Kill${w}x${n}`, lastname: 'Test', kind: 'staff' } }));
          if (hired?.status === 201) acked.employees.push(hired.body.id);
        } else {
          const added = await send(w, (gateway) =>
            call(gateway, 'POST', `/api/v2/hours-bank/${employeeIds[w % employeeIds.length]}/completed`, { token: admin.accessToken, body: { time: '1m', reason: `kill ${w}/${n}` } }),
          );
          if (added?.status === 200) acked.transactions.push(added.body.data.transactionId);
        }
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    await new Promise((r) => setTimeout(r, 3000));
    // Instance 1 of every service and gateway 1 die at once; the services come back first (a gateway is ready when its upstreams are).
    const victims = (['academic', 'hours-bank', 'incidents', 'notifications'] as BackendName[]).map((service) => system.process(service, 1));
    const gateway1 = system.process('gateway', 1);
    await Promise.all([...victims, gateway1].map((p) => p.kill('SIGKILL')));
    await new Promise((r) => setTimeout(r, 4000));
    await Promise.all(victims.map((p) => p.start()));
    await gateway1.start();
    await new Promise((r) => setTimeout(r, 2000));
    running = false;
    await Promise.all(workers);
    process.stderr.write(`[replicas] kill: ${acked.transactions.length} transactions and ${acked.employees.length} employees acknowledged, ${refused} attempts refused (502/503 or connection refused) and retried\n`);
    expect(refused).toBeGreaterThan(0);
    expect([...victims, gateway1].every((p) => p.running)).toBe(true);
    expect(acked.transactions.length).toBeGreaterThan(20);

    // Every acknowledged write is there.
    const [{ n: stored }] = await system.sql<{ n: number }>('hours-bank', 'select count(*)::int n from hours_transactions where is_active and id = any($1)', [acked.transactions]);
    expect(stored).toBe(acked.transactions.length);
    const [{ n: hired }] = await system.sql<{ n: number }>('academic', 'select count(*)::int n from employees where id = any($1)', [acked.employees]);
    expect(hired).toBe(acked.employees.length);
    // Every event left its outbox (a killed relay's claimed rows are taken again when their lease ends)…
    await eventually('every outbox drained', async () => ((await unsentRows()) === 0 ? true : undefined), 90_000, 500);
    // …and reached its consumers: each acknowledged transaction was published, each new employee is in both replicas.
    await eventually('the recorded events of every acknowledged transaction', async () => {
      const seen = new Set(recorded.messages.map((m) => m.data.transactionId as number));
      return acked.transactions.every((id) => seen.has(id)) ? true : undefined;
    }, 30_000);
    for (const service of ['hours-bank', 'incidents'] as BackendName[]) {
      await eventually(`every new employee in the ${service} replica`, async () => {
        const [{ n }] = await system.sql<{ n: number }>(service, 'select count(*)::int n from employees where id = any($1)', [acked.employees]);
        return n === acked.employees.length ? true : undefined;
      }, 30_000);
    }
    await recorded.close();
  }, 240_000);
});
