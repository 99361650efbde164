import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { ParsedMail } from 'mailparser';
import type { EventData } from '@academy/contracts';
import { fixedClock } from '@academy/kit';
import { bearer } from '@academy/testing';
import { unsubscribePage } from '../../src/email/unsubscribe-page.ts';
import { unsubscribeToken } from '../../src/email/unsubscribe-token.ts';
import { GATEWAY_START_TIMEOUT_MS, startGatewayProcess, type TestGateway } from '../gateway.ts';
import { envelope, sleep, sql, until, useNotificationsWithSmtp } from '../support.ts';

const SECRET = 'test-unsubscribe-secret-0123456789abcdef';
const PUBLIC_API_URL = 'https://api.academy.test';
const PATH = '/api/v2/notifications/unsubscribe';
const NOW = '2026-05-04T09:00:00.000Z';
const clock = fixedClock(NOW);
let nextId = 700;

function approval(guardianEmail: string, studentEmail: string): EventData<'block.approved'> {
  const id = nextId++;
  return {
    studentBlockId: id,
    blockId: 30 + id,
    blockName: 'Bloque 1',
    subjectId: 7,
    subjectName: 'Matemáticas',
    studentId: 500 + id,
    grade: null,
    nextBlock: null,
    subjectCompleted: false,
    teacher: null,
    student: { name: 'Leo Gil', email: studentEmail, userId: 80 + id },
    guardian: { name: 'Eva Gil', email: guardianEmail },
  };
}

function warning(guardianEmail: string): EventData<'attendance.threshold-crossed'> {
  return {
    studentId: 42,
    studentName: 'Leo Gil',
    subjectId: 7,
    subjectName: 'Matemáticas',
    percentage: 70,
    thresholdPercent: 80,
    sessions: 5,
    eventId: nextId++,
    crossedAt: '2026-05-04T09:00:00+02:00',
    guardian: { name: 'Eva Gil', email: guardianEmail },
    admins: [],
  };
}

/** A header as the SMTP server received it, unfolded; undefined when the mail has none. */
const headerOf = (mail: ParsedMail, name: string): string | undefined => {
  const line = mail.headerLines.find((header) => header.key === name.toLowerCase())?.line;
  return line?.replace(/\r?\n/g, '').slice(name.length + 1).trim();
};
const formAction = (html: string) => /<form method="post" action="([^"]+)">/.exec(html)?.[1]?.replace(/&amp;/g, '&');
const formPost = (url: string, body = '') => fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

describe("a guardian's unsubscribe link (pinned clock, real SMTP server, through the real gateway)", () => {
  const notifications = useNotificationsWithSmtp({ UNSUBSCRIBE_SECRET: SECRET, PUBLIC_API_URL }, { clock });
  const { service } = notifications;
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startGatewayProcess(service().url);
  }, GATEWAY_START_TIMEOUT_MS + 10_000);
  afterAll(() => gateway?.stop());

  const mailsTo = (address: string) => notifications.mailsTo((to) => to.toLowerCase() === address);
  const nthMailTo = (address: string, count: number) => until(async () => (mailsTo(address).length >= count ? mailsTo(address)[count - 1] : null), 10_000, `mail ${count} to ${address}`);
  async function publish<T extends 'block.approved' | 'attendance.threshold-crossed'>(type: T, data: EventData<T>) {
    const event = envelope(type, data);
    await notifications.publish(event);
    return event.id;
  }
  const deliveryTo = (eventId: string, recipient: string) =>
    until(
      async () => {
        const [row] = await sql<{ status: string; last_error: string | null }>(service(), `select status, last_error from deliveries where event_id = ? and recipient = ?`, [eventId, recipient]);
        return row && row.status !== 'pending' && row.status !== 'sending' ? row : null;
      },
      10_000,
      `the delivery to ${recipient}`,
    );
  const optOuts = async () =>
    (await sql<{ recipient: string; type: string; created_at: string }>(service(), `select recipient, type, created_at from email_unsubscribes order by recipient, type`)).map((row) => ({ ...row, created_at: new Date(row.created_at) }));
  /** The link of a guardian's mail, on the gateway the test reaches (the mail names the public address). */
  const viaGateway = (link: string) => link.replace(PUBLIC_API_URL, gateway.url);

  test('every mail to a guardian carries the link in its footer and as List-Unsubscribe with List-Unsubscribe-Post: List-Unsubscribe=One-Click (read back from the SMTP server); the student mail none', async () => {
    const approved = await publish('block.approved', approval('Ana.Ruiz@home.test', 'ana.student@school.test'));
    const guardianMail = await nthMailTo('ana.ruiz@home.test', 1);
    const studentMail = await nthMailTo('ana.student@school.test', 1);
    const link = /https:\/\/api\.academy\.test\/api\/v2\/notifications\/unsubscribe\?token=[\w.-]+/.exec(guardianMail.text!)![0];
    expect(guardianMail.text).toContain(`¿No quieres recibir más avisos como este? Date de baja: ${link}`);
    expect(guardianMail.html).toContain(`href="${link}"`);
    expect(headerOf(guardianMail, 'List-Unsubscribe')).toBe(`<${link}>`);
    expect(headerOf(guardianMail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerOf(studentMail, 'List-Unsubscribe')).toBeUndefined();
    expect(headerOf(studentMail, 'List-Unsubscribe-Post')).toBeUndefined();
    expect(studentMail.text).not.toContain('unsubscribe');
    expect((await deliveryTo(approved, 'ana.ruiz@home.test')).status).toBe('sent');

    await publish('attendance.threshold-crossed', warning('ana.ruiz@home.test'));
    const warningMail = await nthMailTo('ana.ruiz@home.test', 2);
    const warningLink = headerOf(warningMail, 'List-Unsubscribe')!.slice(1, -1);
    expect(warningLink).not.toBe(link);
    expect(warningMail.text).toContain(warningLink);
    expect(headerOf(warningMail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  test('a GET of the link through the gateway (no login) shows what would stop and a one-button form, in Spanish, with a strict CSP; it records nothing, however often a scanner follows it', async () => {
    await publish('block.approved', approval('bea.sanz@home.test', 'bea.student@school.test'));
    const link = headerOf(await nthMailTo('bea.sanz@home.test', 1), 'List-Unsubscribe')!.slice(1, -1);
    const token = new URL(link).searchParams.get('token')!;

    for (let visit = 0; visit < 3; visit++) {
      const page = await fetch(viaGateway(link));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toMatch(/script|unsafe/);
      const html = await page.text();
      expect(html).toContain('<html lang="es">');
      expect(html).toContain('<h1>¿Darse de baja?</h1>');
      expect(html).toContain('bea.sanz@home.test dejará de recibir avisos de bloques aprobados por correo electrónico.');
      expect(html).toContain('<button type="submit">Darme de baja</button>');
      expect(formAction(html)).toBe(`?token=${token}`);
      expect(html).not.toMatch(/<script|\son\w+=/i);
    }
    expect(await optOuts()).not.toContainEqual(expect.objectContaining({ recipient: 'bea.sanz@home.test' }));

    const next = await publish('block.approved', approval('bea.sanz@home.test', 'bea.student2@school.test'));
    expect(await deliveryTo(next, 'bea.sanz@home.test')).toEqual({ status: 'sent', last_error: null });
  });

  test("the page's form, posted as a browser without JavaScript does (through the gateway), records the opt-out and confirms; a second POST says it was already done and changes nothing; the next mail of that type is skipped, other types still go", async () => {
    clock.set(NOW);
    await publish('block.approved', approval('Eva.Gil@home.test', 'leo@school.test'));
    const link = headerOf(await nthMailTo('eva.gil@home.test', 1), 'List-Unsubscribe')!.slice(1, -1);
    const page = await fetch(viaGateway(link));
    const action = new URL(formAction(await page.text())!, page.url).href;
    expect(action).toBe(viaGateway(link));

    const done = await formPost(action);
    expect(done.status).toBe(200);
    expect(done.headers.get('content-security-policy')).toContain("default-src 'none'");
    const doneHtml = await done.text();
    expect(doneHtml).toContain('<h1>Baja confirmada</h1>');
    expect(doneHtml).toContain('eva.gil@home.test ya no recibirá avisos de bloques aprobados por correo electrónico.');
    expect(doneHtml).not.toContain('<form');
    const recorded = (await optOuts()).filter((row) => row.recipient === 'eva.gil@home.test');
    expect(recorded).toEqual([{ recipient: 'eva.gil@home.test', type: 'block_approved', created_at: new Date(NOW) }]);

    clock.advance(60_000);
    const again = await formPost(action);
    expect(again.status).toBe(200);
    const againHtml = await again.text();
    expect(againHtml).toContain('<h1>Baja ya registrada</h1>');
    expect(againHtml).toContain('eva.gil@home.test ya no recibía avisos de bloques aprobados por correo electrónico; no se ha cambiado nada.');
    expect((await optOuts()).filter((row) => row.recipient === 'eva.gil@home.test')).toEqual(recorded);
    const revisit = await (await fetch(viaGateway(link))).text();
    expect(revisit).toContain('<h1>Baja ya registrada</h1>');
    expect(revisit).not.toContain('<form');

    const next = await publish('block.approved', approval('eva.gil@home.test', 'leo2@school.test'));
    expect(await deliveryTo(next, 'eva.gil@home.test')).toEqual({ status: 'skipped', last_error: 'its address unsubscribed from this type (unsubscribe link)' });
    expect((await deliveryTo(next, 'leo2@school.test')).status).toBe('sent');
    const other = await publish('attendance.threshold-crossed', warning('eva.gil@home.test'));
    expect((await deliveryTo(other, 'eva.gil@home.test')).status).toBe('sent');
    await nthMailTo('eva.gil@home.test', 2);
    await sleep(100);
    expect(mailsTo('eva.gil@home.test')).toHaveLength(2);
  });

  test("a mail client's one-click unsubscribe (RFC 8058: POST `List-Unsubscribe=One-Click`, form-encoded, to the List-Unsubscribe URL) works through the gateway without login", async () => {
    await publish('attendance.threshold-crossed', warning('carlos.paz@home.test'));
    const link = headerOf(await nthMailTo('carlos.paz@home.test', 1), 'List-Unsubscribe')!.slice(1, -1);

    const oneClick = await formPost(viaGateway(link), 'List-Unsubscribe=One-Click');
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('carlos.paz@home.test ya no recibirá avisos de asistencia por correo electrónico.');
    expect((await optOuts()).filter((row) => row.recipient === 'carlos.paz@home.test').map((row) => row.type)).toEqual(['attendance_warning']);

    const next = await publish('attendance.threshold-crossed', warning('carlos.paz@home.test'));
    expect((await deliveryTo(next, 'carlos.paz@home.test')).status).toBe('skipped');
  });

  test('a forged, expired, critical-type or malformed token, by GET or POST: a plain page saying so, 400, nothing recorded; no token: 400 naming it', async () => {
    await publish('attendance.threshold-crossed', warning('dora.luz@home.test'));
    const mailed = headerOf(await nthMailTo('dora.luz@home.test', 1), 'List-Unsubscribe')!.slice(1, -1);
    const before = await optOuts();
    const inAnHour = new Date(clock.now().getTime() + 3_600_000);
    const valid = unsubscribeToken(SECRET, { type: 'attendance_warning', address: 'x@home.test', expiresAt: inAnHour });
    const [payload, signature] = valid.split('.');
    const tampered = `${Buffer.from(JSON.stringify({ t: 'attendance_warning', a: 'someone.else@home.test', e: Math.floor(inAnHour.getTime() / 1000) })).toString('base64url')}.${signature}`;
    const refused = [
      `${payload}.${signature!.slice(0, -2)}AA`,
      tampered,
      unsubscribeToken('another-secret-entirely-0123456789abcd', { type: 'attendance_warning', address: 'x@home.test', expiresAt: inAnHour }),
      unsubscribeToken(SECRET, { type: 'attendance_warning', address: 'x@home.test', expiresAt: new Date(clock.now().getTime() - 1000) }),
      unsubscribeToken(SECRET, { type: 'payslip_published' as never, address: 'x@home.test', expiresAt: inAnHour }),
      'not-a-token',
    ];
    const expectRefusalPage = (response: request.Response) => {
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      expect(response.text).toContain('<h1>Enlace no válido</h1>');
      expect(response.text).toContain('Este enlace de baja no es válido o ha caducado; no se ha cambiado nada.');
      expect(response.text).not.toContain('<form');
    };
    for (const token of refused) {
      expectRefusalPage(await request(service().url).get(PATH).query({ token }));
      expectRefusalPage(await request(service().url).post(PATH).query({ token }).type('form').send('List-Unsubscribe=One-Click'));
    }

    // The mail's own link, once its UNSUBSCRIBE_TOKEN_DAYS (90) have passed: through the gateway too.
    clock.advance(91 * 86_400_000);
    try {
      const page = await fetch(viaGateway(mailed));
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('<h1>Enlace no válido</h1>');
      const post = await formPost(viaGateway(mailed), 'List-Unsubscribe=One-Click');
      expect(post.status).toBe(400);
      expect(await post.text()).toContain('<h1>Enlace no válido</h1>');
    } finally {
      clock.set(NOW);
    }

    for (const missing of [request(service().url).get(PATH), request(service().url).post(PATH).type('form').send('List-Unsubscribe=One-Click')]) {
      const response = await missing;
      expect(response.status).toBe(400);
      expect(response.body.message).toContain('token');
    }
    expect(await optOuts()).toEqual(before);
  });

  test('the token given twice (`?token=a&token=b`), by GET or POST: 400 saying one token is expected, nothing recorded', async () => {
    const before = await optOuts();
    const inAnHour = new Date(clock.now().getTime() + 3_600_000);
    const valid = unsubscribeToken(SECRET, { type: 'attendance_warning', address: 'twice@home.test', expiresAt: inAnHour });
    const query = `token=${valid}&token=${valid}`;
    for (const response of [await request(service().url).get(`${PATH}?${query}`), await request(service().url).post(`${PATH}?${query}`).type('form').send('List-Unsubscribe=One-Click')]) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_ERROR', message: 'Invalid request: token: must be given once (one token expected)' });
    }
    expect(await optOuts()).toEqual(before);
  });

  test('values on the page are escaped: an address with markup in a validly signed token shows as text', async () => {
    const address = '"><script>alert(1)</script>@home.test';
    const token = unsubscribeToken(SECRET, { type: 'block_approved', address, expiresAt: new Date(clock.now().getTime() + 3_600_000) });
    const page = await request(service().url).get(PATH).query({ token });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@home.test dejará de recibir');
  });

  test("an admin sees a guardian's opt-outs and undoes one: the next mail of that type is sent again; a user gets 403; bad input 400; an unknown one 404; nothing else changes", async () => {
    const admin = bearer({ sub: '1', role: 'admin' });
    const user = bearer({ sub: '2', role: 'user' });
    const OPT_OUTS = '/api/v2/notifications/opt-outs';
    clock.set(NOW); // tests run in random order, and another one leaves the clock a minute on
    await publish('attendance.threshold-crossed', warning('rosa.vega@home.test'));
    const link = headerOf(await nthMailTo('rosa.vega@home.test', 1), 'List-Unsubscribe')!.slice(1, -1);
    clock.advance(60_000);
    try {
      expect((await formPost(viaGateway(link), 'List-Unsubscribe=One-Click')).status).toBe(200);
    } finally {
      clock.set(NOW);
    }
    const optedOut = { recipient: 'rosa.vega@home.test', type: 'attendance_warning', createdAt: '2026-05-04T09:01:00.000Z' };

    const listed = await request(gateway.url).get(OPT_OUTS).query({ recipient: 'Rosa.Vega@home.test' }).set(admin);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ success: true, data: [optedOut], meta: { totalItems: 1, totalPages: 1, currentPage: 1, pageSize: 20 } });
    const all = await request(gateway.url).get(OPT_OUTS).query({ type: 'attendance_warning', limit: 1, page: 1 }).set(admin);
    expect(all.body.meta.totalItems).toBeGreaterThanOrEqual(1);
    expect((await request(gateway.url).get(OPT_OUTS).set(user)).status).toBe(403);
    expect((await request(gateway.url).get(OPT_OUTS)).status).toBe(401);
    const before = await optOuts();
    for (const refused of [
      request(gateway.url).delete(OPT_OUTS).query({ recipient: 'rosa.vega@home.test', type: 'attendance_warning' }).set(user),
      request(gateway.url).delete(OPT_OUTS).query({ recipient: 'rosa.vega@home.test', type: 'payslips' }).set(admin),
      request(gateway.url).delete(OPT_OUTS).query({ recipient: 'rosa.vega@home.test' }).set(admin),
      request(gateway.url).delete(OPT_OUTS).query({ recipient: 'rosa.vega@home.test', type: 'block_approved' }).set(admin),
    ]) {
      const response = await refused;
      expect([403, 400, 404]).toContain(response.status);
      expect(response.body.success).toBe(false);
    }
    const notFound = await request(gateway.url).delete(OPT_OUTS).query({ recipient: 'rosa.vega@home.test', type: 'block_approved' }).set(admin);
    expect([notFound.status, notFound.body.code]).toEqual([404, 'OPT_OUT_NOT_FOUND']);
    expect(await optOuts()).toEqual(before);

    const undone = await request(gateway.url).delete(OPT_OUTS).query({ recipient: 'ROSA.VEGA@home.test', type: 'attendance_warning' }).set(admin);
    expect(undone.status).toBe(200);
    expect(undone.body).toEqual({ success: true, message: 'Opt-out removed', data: optedOut });
    expect((await optOuts()).filter((row) => row.recipient === 'rosa.vega@home.test')).toEqual([]);
    expect((await request(gateway.url).get(OPT_OUTS).query({ recipient: 'rosa.vega@home.test' }).set(admin)).body.data).toEqual([]);
    const next = await publish('attendance.threshold-crossed', warning('rosa.vega@home.test'));
    expect((await deliveryTo(next, 'rosa.vega@home.test')).status).toBe('sent');
  });

  test('the gateway lists both methods in its OpenAPI document, without security (no login)', async () => {
    const document = (await (await fetch(`${gateway.url}/api/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown }>> };
    const operations = document.paths[PATH]!;
    expect(Object.keys(operations).sort()).toEqual(['get', 'post']);
    expect(operations.get!.security).toBeUndefined();
    expect(operations.post!.security).toBeUndefined();
    // The admin's opt-out routes: documented, with a bearer token.
    const optOuts = document.paths['/api/v2/notifications/opt-outs']!;
    expect(Object.keys(optOuts).sort()).toEqual(['delete', 'get']);
    expect(optOuts.get!.security).toBeDefined();
    expect(optOuts.delete!.security).toBeDefined();
  });
});

describe('the unsubscribe pages in English (ACADEMY_LOCALE=en)', () => {
  test('the form, the confirmation, the already-done and the refusal pages read in English', () => {
    const confirm = unsubscribePage('en', { page: 'confirm', type: 'attendance_warning', address: 'eva@home.test', token: 'a.b' });
    expect(confirm).toContain('<html lang="en">');
    expect(confirm).toContain('<h1>Unsubscribe?</h1>');
    expect(confirm).toContain('eva@home.test will stop receiving attendance warnings by e-mail. Other mails from the academy are not affected.');
    expect(confirm).toContain('<form method="post" action="?token=a.b"><button type="submit">Unsubscribe</button></form>');
    expect(unsubscribePage('en', { page: 'done', type: 'attendance_warning', address: 'eva@home.test' })).toContain('eva@home.test will no longer receive attendance warnings by e-mail.');
    expect(unsubscribePage('en', { page: 'already', type: 'attendance_warning', address: 'eva@home.test' })).toContain('eva@home.test already receives no attendance warnings by e-mail; nothing was changed.');
    expect(unsubscribePage('en', { page: 'invalid' })).toContain('<h1>Link not valid</h1>');
  });
});
