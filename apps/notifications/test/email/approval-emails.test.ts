import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { ParsedMail } from 'mailparser';
import type { EventData } from '@academy/contracts';
import { bearer } from '@academy/testing';
import { onBlockApproved } from '../../src/email/block-approved.handler.ts';
import { envelope, sleep, sql, tagged, until, useNotificationsWithSmtp } from '../support.ts';
import { recipientsOf } from '../smtp.ts';

let nextId = 1;

/** A `block.approved` whose addresses are unique to the test (`tag`). */
function approval(tag: string, overrides: Partial<EventData<'block.approved'>> = {}): EventData<'block.approved'> {
  const id = nextId++;
  return {
    studentBlockId: id,
    blockId: 30 + id,
    blockName: 'Block 3: Fractions',
    subjectId: 7,
    subjectName: 'Mathematics',
    studentId: 500 + id,
    grade: 8.5,
    nextBlock: { blockId: 31 + id, blockName: 'Block 4: Decimals' },
    subjectCompleted: false,
    teacher: { name: 'Marta Ruiz', email: `teacher.${tag}@school.test` },
    student: { name: 'Leo Gil', email: `student.${tag}@school.test` },
    guardian: null,
    ...overrides,
  };
}

describe('approval e-mails on block.approved (real SMTP server)', () => {
  const { service, smtp, publish, settledMailsTo, mailsTo } = useNotificationsWithSmtp({ ACADEMY_LOCALE: 'en' });

  const byRole = (mails: ParsedMail[], role: string) => mails.filter((mail) => recipientsOf(mail).some((address) => address.startsWith(`${role}.`)));
  /** Publishes the event, waits for `count` mails to the tag's addresses and a moment for any extra one. */
  async function approve(tag: string, data: EventData<'block.approved'>, count: number): Promise<ParsedMail[]> {
    await publish(envelope('block.approved', data));
    return settledMailsTo(tagged(tag), count, 300);
  }

  describe('who is written to', () => {
    test('no guardian, student with a real address: the teacher and the student', async () => {
      const mails = await approve('case1', approval('case1'), 2);
      expect(mails.flatMap(recipientsOf).sort()).toEqual(['student.case1@school.test', 'teacher.case1@school.test']);
      const [student] = byRole(mails, 'student');
      expect(student.subject).toBe('Your block Block 3: Fractions has been approved');
      expect(student.text).toContain('Hello Leo Gil,');
      expect(student.text).toContain('Your block Block 3: Fractions of Mathematics has been approved.');
      expect(student.text).toContain('Your next block, Block 4: Decimals, is now available.');
      const [teacher] = byRole(mails, 'teacher');
      expect(teacher.text).toContain('Hello Marta Ruiz,');
      expect(teacher.text).toContain('The block Block 3: Fractions of Mathematics completed by Leo Gil has been approved.');
      expect(teacher.text).toContain('The next block, Block 4: Decimals, is now available to Leo Gil.');
      expect(teacher.html).toContain('<strong>Block 4: Decimals</strong>');
    });

    test('a guardian and no student address: the teacher and the guardian, worded for the guardian', async () => {
      const mails = await approve('case2', approval('case2', { student: { name: 'Leo Gil', email: null }, guardian: { name: 'Eva Gil', email: 'guardian.case2@school.test' } }), 2);
      expect(mails.flatMap(recipientsOf).sort()).toEqual(['guardian.case2@school.test', 'teacher.case2@school.test']);
      const [guardian] = byRole(mails, 'guardian');
      expect(guardian.subject).toBe('Leo Gil: block Block 3: Fractions approved');
      expect(guardian.text).toContain('Hello Eva Gil,');
      expect(guardian.text).toContain('The block Block 3: Fractions of Mathematics completed by Leo Gil has been approved.');
      expect(guardian.text).toContain('The next block, Block 4: Decimals, is now available to Leo Gil.');
      expect(guardian.text).not.toContain('Your block');
    });

    test('a guardian and a real student address: teacher, guardian and student, each worded for its reader', async () => {
      const mails = await approve('case3', approval('case3', { guardian: { name: 'Eva Gil', email: 'guardian.case3@school.test' } }), 3);
      expect(mails.flatMap(recipientsOf).sort()).toEqual(['guardian.case3@school.test', 'student.case3@school.test', 'teacher.case3@school.test']);
      expect(byRole(mails, 'student')[0].text).toContain('Your block');
      expect(byRole(mails, 'guardian')[0].text).toContain('completed by Leo Gil');
    });

    test('no guardian and a placeholder student address: only the teacher', async () => {
      const mails = await approve('case4', approval('case4', { student: { name: 'Leo Gil', email: 'sin-email-42@placeholder.invalid' } }), 1);
      expect(mails.flatMap(recipientsOf)).toEqual(['teacher.case4@school.test']);
      expect(mailsTo('sin-email-42@placeholder.invalid')).toEqual([]);
    });
  });

  test('the last block: the teacher and the student are congratulated on completing the subject', async () => {
    const mails = await approve('last', approval('last', { nextBlock: null, subjectCompleted: true }), 2);
    const [teacher] = byRole(mails, 'teacher');
    const [student] = byRole(mails, 'student');
    expect(teacher.text).toContain('This was the last block: congratulations, Leo Gil has completed Mathematics.');
    expect(teacher.text).not.toContain('next block');
    expect(student.text).toContain('Congratulations! You have completed Mathematics.');
    expect(student.html).toContain('Congratulations! You have completed <strong>Mathematics</strong>.');
  });

  test('names from the event are escaped in the HTML and kept verbatim in the text', async () => {
    const hostile = '<script>alert("x")</script> & Co\'s';
    const mails = await approve('escape', approval('escape', { student: { name: hostile, email: 'student.escape@school.test' }, blockName: '<b>Bold</b>' }), 2);
    for (const mail of mails) {
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toContain('<b>Bold</b>');
      expect(mail.html).toContain('&lt;b&gt;Bold&lt;/b&gt;');
    }
    expect(byRole(mails, 'student')[0].html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co&#39;s');
    expect(byRole(mails, 'teacher')[0].text).toContain(`completed by ${hostile} has been approved`);
  });

  test('the same event delivered three times (and handled again past the inbox): one mail per recipient', async () => {
    const event = envelope('block.approved', approval('thrice', { guardian: { name: 'Eva Gil', email: 'guardian.thrice@school.test' } }));
    await publish(event, event, event);
    // As if the inbox row were lost: the deliveries key alone stops a second send.
    await service().ctx.orm.em.fork().transactional((em) => onBlockApproved(() => undefined, { locale: 'en', timeZone: 'Europe/Madrid' })(em, { ...event, correlationId: event.correlationId }));
    await settledMailsTo(tagged('thrice'), 3, 800);
    expect(mailsTo(tagged('thrice')).flatMap(recipientsOf).sort()).toEqual(['guardian.thrice@school.test', 'student.thrice@school.test', 'teacher.thrice@school.test']);
    expect(await sql(service(), `select count(*)::int as n from deliveries where event_id = ?`, [event.id])).toEqual([{ n: 3 }]);
  });

  test('an SMTP server that refuses twice, then accepts: the mail is delivered once, after three attempts', async () => {
    smtp().refuseNext(2);
    const mails = await approve('retry', approval('retry', { student: { name: 'Leo Gil', email: null } }), 1);
    expect(mails.flatMap(recipientsOf)).toEqual(['teacher.retry@school.test']);
    const [row] = await sql<{ status: string; attempts: number; last_error: string }>(service(), `select status, attempts, last_error from deliveries where recipient = 'teacher.retry@school.test'`);
    expect(row).toEqual({ status: 'sent', attempts: 3, last_error: expect.stringContaining('try again later') });
  });

  test('block.rejected sends nothing', async () => {
    const before = smtp().mails.length;
    const event = envelope('block.rejected', { studentBlockId: 9999, blockId: 1, studentId: 2, employeeId: 3, reason: 'Incomplete', rejectedAt: new Date().toISOString() } as EventData<'block.rejected'>);
    await service().ctx.broker.publish([event]);
    await sleep(500);
    expect(smtp().mails.length).toBe(before);
    expect(await sql(service(), `select 1 from deliveries where event_id = ?`, [event.id])).toEqual([]);
  });
});

describe('GET /api/v2/notifications/deliveries (an instance and SMTP server of its own, so the rows are known)', () => {
  const admin = bearer({ sub: '1', role: 'admin' });
  const { service, smtp } = useNotificationsWithSmtp({ ACADEMY_LOCALE: 'en' });

  /** Publishes the approval and waits until all `count` of its e-mails are sent. */
  async function approveAndSend(data: EventData<'block.approved'>, count: number): Promise<void> {
    const event = envelope('block.approved', data);
    await service().ctx.broker.publish([event]);
    await until(
      async () => (await sql<{ n: number }>(service(), `select count(*)::int as n from deliveries where event_id = ? and status = 'sent'`, [event.id]))[0].n === count,
      15_000,
      `${count} e-mails of event ${event.id} sent`,
    );
  }

  beforeAll(async () => {
    // Sent e-mails: the teacher's after two refusals (3 attempts), then teacher, student and guardian of a second approval.
    smtp().refuseNext(2);
    await approveAndSend(approval('retry', { student: { name: 'Leo Gil', email: null } }), 1);
    await approveAndSend(approval('listed', { guardian: { name: 'Eva Gil', email: 'guardian.listed@school.test' } }), 3);
    // Rows the filters leave out: a push, and a parked e-mail.
    await sql(
      service(),
      `insert into deliveries (event_id, event_type, channel, recipient, user_id, status, attempts, created_at, updated_at)
       values ('listing-push', 'payslip.published', 'push', 'user:9', 9, 'sent', 1, now(), now()),
              ('listing-parked', 'block.approved', 'email', 'parked.listed@school.test', null, 'parked', 3, now(), now())`,
    );
  });

  test('admins see the e-mails, filtered by channel, status and recipient, newest first and paginated', async () => {
    const res = await request(service().url).get('/api/v2/notifications/deliveries?channel=email&status=sent&limit=2&page=1').set(admin);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0].id).toBeGreaterThan(res.body.data[1].id);
    expect(res.body.data.every((row: { channel: string; status: string }) => row.channel === 'email' && row.status === 'sent')).toBe(true);
    expect(res.body.meta).toEqual({ totalItems: 4, totalPages: 2, currentPage: 1, pageSize: 2 });

    const last = await request(service().url).get('/api/v2/notifications/deliveries?channel=email&status=sent&limit=2&page=2').set(admin);
    expect(last.body.data).toHaveLength(2);
    expect(last.body.data[0].id).toBeLessThan(res.body.data[1].id);
    expect(last.body.data[1]).toMatchObject({ recipient: 'teacher.retry@school.test' });

    const one = await request(service().url).get('/api/v2/notifications/deliveries?recipient=Teacher.Retry@school.test').set(admin);
    expect(one.body.data).toEqual([
      expect.objectContaining({ recipient: 'teacher.retry@school.test', eventType: 'block.approved', template: 'blockApprovedEmployeeTemplate', status: 'sent', attempts: 3 }),
    ]);
  });

  test('a user is refused (403), a bad filter is a 400, both in the notifications style', async () => {
    const user = await request(service().url).get('/api/v2/notifications/deliveries').set(bearer({ sub: '5', role: 'user' }));
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ success: false });
    const bad = await request(service().url).get('/api/v2/notifications/deliveries?status=lost&limit=1000').set(admin);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });
});

describe('an SMTP server that keeps refusing', () => {
  const { service, smtp, mailsTo } = useNotificationsWithSmtp({ ACADEMY_LOCALE: 'en', MAIL_MAX_ATTEMPTS: 3 });
  // The replay test lets the server accept again; each test starts with it refusing.
  beforeEach(() => smtp().refuseNext(1_000));

  test('after MAIL_MAX_ATTEMPTS the e-mail is parked with its last error, not lost; nothing was accepted', async () => {
    const acceptedBefore = smtp().mails.length;
    const event = envelope('block.approved', approval('parked', { student: { name: 'Leo Gil', email: null } }));
    await service().ctx.broker.publish([event]);
    const row = await until(async () => {
      const [found] = await sql<{ status: string; attempts: number; last_error: string; payload: unknown }>(service(), `select status, attempts, last_error, payload from deliveries where event_id = ?`, [event.id]);
      return found?.status === 'parked' ? found : undefined;
    }, 10_000, 'parked');
    expect(row).toMatchObject({ status: 'parked', attempts: 3, last_error: expect.stringContaining('try again later'), payload: expect.objectContaining({ to: 'teacher.parked@school.test' }) });
    expect(smtp().mails.slice(acceptedBefore)).toEqual([]);
  });

  test('`npm run mail -- replay <id>` puts a parked e-mail back: it is sent once when the SMTP server accepts again, and other rows are left alone', async () => {
    const event = envelope('block.approved', approval('replayed', { student: { name: 'Ana Paz', email: null } }));
    // Parked beside it and not named in the replay: it must stay parked.
    const bystander = envelope('block.approved', approval('bystander', { student: { name: 'Eva Sol', email: null } }));
    await service().ctx.broker.publish([event, bystander]);
    const parkedRow = (eventId: string) =>
      until(async () => {
        const [found] = await sql<{ id: string; status: string }>(service(), `select id::text as id, status from deliveries where event_id = ?`, [eventId]);
        return found?.status === 'parked' ? found : undefined;
      }, 10_000, 'parked');
    const parked = await parkedRow(event.id);
    await parkedRow(bystander.id);
    smtp().refuseNext(0);
    // Run without blocking this process: a spawnSync held the service's event loop for the tool's whole run (11-13 s
    // each at load 25), its broker connection missed the 10 s heartbeats and was closed, and the next test's publish
    // failed with "channel closed".
    const replay = (...args: string[]) =>
      promisify(execFile)(process.execPath, [fileURLToPath(new URL('../../../../tools/mail.ts', import.meta.url)), 'replay', ...args, '--url', service().ctx.config.DATABASE_URL], { encoding: 'utf8' }).then(
        ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
        (error: { code?: unknown; stdout: string; stderr: string }) => ({ status: typeof error.code === 'number' ? error.code : null, stdout: error.stdout, stderr: error.stderr }),
      );
    const [refused, done] = await Promise.all([replay('abc'), replay(parked.id)]);
    expect(refused.status).toBe(2);
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toContain(`1 parked e-mail(s) back to pending: ${parked.id}`);
    await until(async () => {
      const [found] = await sql<{ status: string }>(service(), `select status from deliveries where id = ?`, [parked.id]);
      return found?.status === 'sent' ? true : undefined;
    }, 10_000, 'sent');
    expect(mailsTo('teacher.replayed@school.test')).toHaveLength(1);
    // The bystander was not named, so it stays parked; a second replay finds nothing.
    expect(await sql(service(), `select status from deliveries where event_id = ?`, [bystander.id])).toEqual([{ status: 'parked' }]);
    expect((await replay(parked.id)).stdout).toContain('0 parked e-mail(s) back to pending');
    // three starts of the tool, each a Node process loading TypeScript: 11-13 s at load 25
  }, 90_000);
});
