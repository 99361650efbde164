// The administrators' incidents and attendance report (issue 34): an incident answered in its thread
// and seen by the teacher; the attendance CSV downloaded and read back.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { checkPage, logInThroughForm, system, teacherFor } from './world';
import { ADMIN, call, employees, tokenOf } from './admin-world';

test.use({ baseURL: system().gateway });
// Long journeys (several pages, axe on each) on a machine shared with other work.
test.describe.configure({ timeout: 300_000 });

test("an incident answered in its thread and closed by an administrator; the teacher sees the answer", async ({ page, browser }, testInfo) => {
  const teacher = teacherFor(testInfo, 'language');
  const teacherToken = await tokenOf(teacher);
  const token = await tokenOf(ADMIN);
  const me = (await employees(token)).find((e) => e.email === teacher.email)!;
  const name = `${me.name} ${me.lastname}`;

  // The console's socket is connected once Socket.IO's CONNECT is answered ("40…"): a notice sent after it arrives.
  const socketConnected = page.waitForEvent('websocket').then((socket) => socket.waitForEvent('framereceived', { predicate: (frame) => String(frame.payload).startsWith('40') }));
  await page.goto('/admin/incidents');
  await logInThroughForm(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Incidencias', level: 1 })).toBeVisible();
  // A clock-out with nothing open: the API records a CLOCK_OUT_WITHOUT_OPEN incident for the teacher,
  // and the administrator's console shows its notice, leading to the administrators' incident screen.
  await socketConnected;
  const out = await call<{ details: { incidentId: number } }>('POST', '/api/v2/timerecord/clock-out', teacherToken, { source: 'Web' });
  expect(out.status).toBe(409);
  // Administrators are told of every incident, and the other width makes its own at the same time: this one's notice is the one leading to it.
  const noticeHref = `/admin/incidents/${out.body.details.incidentId}`;
  const notice = page.getByRole('status').filter({ hasText: 'Nueva incidencia: Salida sin entrada' }).filter({ has: page.locator(`a[href="${noticeHref}"]`) });
  await expect(notice.getByRole('link', { name: 'Ver la incidencia' })).toHaveAttribute('href', noticeHref);
  await page.getByLabel('Empleado').selectOption(String(me.id));
  await page.getByLabel('Tipo').selectOption('CLOCK_OUT_WITHOUT_OPEN');
  await checkPage(page, testInfo, 'admin-incidents');
  await expect(page.getByRole('link', { name: `${name} · Salida sin entrada` }).first()).toBeVisible();
  await notice.getByRole('link', { name: 'Ver la incidencia' }).click();
  await expect(page.getByRole('heading', { name: `Salida sin entrada · ${name}`, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Fichajes del empleado el/ })).toBeVisible();
  const incidentUrl = page.url();
  expect(new URL(incidentUrl).pathname).toBe(noticeHref);
  const answer = `Recuerda fichar la entrada (${testInfo.project.name})`;
  // The thread's posted messages, never the reply box: React writes a controlled textarea's draft as its
  // text, so getByText(answer) in the region matched the draft at once, and the close below raced the
  // answer still on its way (when it locked the incident first, the answer was refused and the teacher
  // never saw it).
  const thread = page.getByRole('region', { name: 'Conversación' });
  const posted = (text: string) => thread.getByRole('listitem').filter({ hasText: text });
  // The answer held on its way: meanwhile the incident cannot be closed (one write at a time on the page).
  const adminThread = '**/api/v2/incident/*/admin-thread';
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(adminThread, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('Responder').fill(answer);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByRole('button', { name: 'Cerrar', exact: true })).toBeDisabled();
  release();
  await expect(posted(answer)).toBeVisible();
  await expect(page.getByLabel('Responder')).toHaveValue('');
  await page.unroute(adminThread);
  await page.getByLabel('Nota de cierre (opcional, se añade a la conversación)').fill('Cerrada tras hablarlo.');
  await page.getByRole('button', { name: 'Cerrar', exact: true }).click();
  await expect(page.getByText(/Gravedad \w+ · cerrada/)).toBeVisible();
  await expect(posted('Cerrada tras hablarlo.')).toBeVisible();
  await expect(posted(answer)).toBeVisible();
  await checkPage(page, testInfo, 'admin-incident');

  // The teacher's console: the incident with the administrator's answer.
  const id = incidentUrl.split('/').pop()!;
  const context = await browser.newContext({ baseURL: system().gateway, viewport: page.viewportSize() ?? undefined });
  const teacherPage = await context.newPage();
  await teacherPage.goto(`/incidents/${id}`);
  await logInThroughForm(teacherPage, teacher);
  await expect(teacherPage.getByRole('region', { name: 'Conversación' }).getByRole('listitem').filter({ hasText: answer })).toBeVisible();
  await context.close();
});

test('the attendance report: percentages against the threshold, the CSV downloaded and read back, a student’s year', async ({ page }, testInfo) => {
  await page.goto('/admin/attendance');
  await logInThroughForm(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Informe de asistencia', level: 1 })).toBeVisible();
  await expect(page.getByText(/Umbral: \d+ %\. Por debajo: \d+\./)).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await checkPage(page, testInfo, 'admin-attendance');

  const first = table.getByRole('row').nth(1);
  const student = (await first.getByRole('rowheader').textContent())!.trim();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar CSV' }).click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  expect(lines[0]).toBe('row,studentId,student,subjectId,subject,centerId,eventId,startsAt,endsAt,status,minutesLate,remark,sessions,counted,percentage,below');
  const summaries = lines.filter((line) => line.startsWith('summary,'));
  expect(summaries.length).toBeGreaterThan(0);
  expect(summaries.some((line) => line.includes(student))).toBe(true);

  await first.getByRole('link', { name: student }).click();
  await expect(page.getByRole('heading', { name: `Asistencia de ${student}`, level: 1 })).toBeVisible();
  await expect(page.getByRole('table')).toBeVisible();
  await checkPage(page, testInfo, 'admin-attendance-student');
});
