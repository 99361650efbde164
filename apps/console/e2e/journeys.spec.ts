import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { checkPage, classToday, logInThroughForm, system, teacherFor } from './world';

test.use({ baseURL: system().gateway });
// Several pages each, axe on each, four workers on a machine shared with other work: the other specs' five minutes.
test.describe.configure({ timeout: 300_000 });

test('log in in Spanish; clock in; a second clock-in in another tab raises the incident notice; clock out', async ({ page, context }, testInfo) => {
  const teacher = teacherFor(testInfo, 'clock');
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await checkPage(page, testInfo, 'login');

  await logInThroughForm(page, { ...teacher, password: 'wrong-password' });
  await expect(page.getByRole('alert')).toHaveText('Correo o contraseña incorrectos.');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
  // Nothing of the session is kept where scripts read storage.
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  expect(await page.evaluate(() => document.cookie)).not.toMatch(/refresh/);

  await page.getByRole('button', { name: 'Fichar entrada' }).click();
  await expect(page.getByText(/Entrada registrada a las \d\d:\d\d/)).toBeVisible();
  await checkPage(page, testInfo, 'today');

  // Another tab of the same browser: its session comes from the cookie; its clock-in over the open record is refused and raises an incident.
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
  await other.getByRole('button', { name: 'Fichar entrada' }).click();
  await expect(other.getByRole('alert')).toContainText('Ya tienes una entrada abierta');
  await other.close();

  const notice = page.getByRole('status').filter({ hasText: 'Nueva incidencia' });
  await expect(notice).toBeVisible();
  // The teacher's own incident: the notice leads to their incident screen (an administrator's to theirs, admin-more.spec.ts).
  await expect(notice.getByRole('link', { name: 'Ver la incidencia' })).toHaveAttribute('href', /^\/incidents\/\d+$/);
  await checkPage(page, testInfo, 'today-notice');

  await page.getByRole('button', { name: 'Fichar salida' }).click();
  await expect(page.getByText('No tienes ningún fichaje abierto.')).toBeVisible();

  await notice.getByRole('link', { name: 'Ver la incidencia' }).click();
  await expect(page).toHaveURL(/\/incidents\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Entrada con un fichaje ya abierto', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Mis incidencias', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Mis incidencias' })).toBeVisible();
  await expect(page.getByText('Entrada con un fichaje ya abierto').first()).toBeVisible();
  await checkPage(page, testInfo, 'incidents');
});

test("take today's attendance with one absence and the rest present, correct it, see the history", async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  const { eventId, students } = await classToday(teacher);
  await page.goto('/');
  await logInThroughForm(page, teacher);
  // Today lists the class (ended five minutes ago, no sheet yet) as not taken.
  const todays = page.locator('li', { has: page.locator(`a[href="/attendance/${eventId}"]`) });
  await expect(todays).toContainText('Sin pasar lista');
  await page.locator(`a[href="/attendance/${eventId}"]`).click();
  await expect(page.getByRole('heading', { name: /Asistencia/ })).toBeVisible();
  await expect(page.getByText('Aún sin tomar.')).toBeVisible();
  // The editing window, from the sheet's answer: a teacher's week.
  await expect(page.getByText(/^Puedes modificarla hasta el .+\.$/)).toBeVisible();

  const row = (name: string) => page.getByRole('group', { name: `Estado: ${name}` });
  await row(students[0]).getByLabel('Ausente').check();
  await page.getByRole('textbox', { name: `Observación: ${students[0]}` }).fill('Sin avisar');
  await page.getByRole('button', { name: 'Marcar el resto como presentes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Asistencia guardada.' })).toBeVisible();
  await expect(row(students[0]).getByLabel('Ausente')).toBeChecked();
  for (const name of students.slice(1)) await expect(row(name).getByLabel('Presente')).toBeChecked();
  await checkPage(page, testInfo, 'attendance');

  // The correction: late, not absent.
  await row(students[0]).getByLabel('Retraso').check();
  await page.getByRole('button', { name: 'Guardar' }).click();
  const history = page.getByRole('region', { name: 'Historial de cambios' });
  await expect(history.getByText(`${students[0]}: Ausente → Retraso`)).toBeVisible();
  await expect(history.getByText(`${students[1]}: — → Presente`)).toBeVisible();
  await checkPage(page, testInfo, 'attendance-history');
  // Back on Today, the class is taken.
  await page.getByRole('link', { name: 'Hoy', exact: true }).click();
  await expect(todays).toContainText(/Lista pasada a las \d\d:\d\d/);
  await expect(todays.getByRole('link')).toHaveText('Ver la lista');
});

test('a page asked for before logging in comes back after the login; a payslip downloads as a PDF', async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  await page.goto('/payslips');
  await expect(page).toHaveURL(/\/login\?next=%2Fpayslips/);
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Mis nóminas' })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar' }).first().click();
  const file = await (await download).path();
  expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await checkPage(page, testInfo, 'payslips');
});

test('the language changes to English and the console follows', async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'language');
  await page.goto('/settings');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Ajustes' })).toBeVisible();
  await checkPage(page, testInfo, 'settings');
  await page.getByLabel('Idioma de la consola y de tus avisos').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Today' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  // Back to the academy's language: Spanish again.
  await page.getByLabel('Language of the console and of your notifications').selectOption('');
  await expect(page.getByRole('heading', { name: 'Ajustes' })).toBeVisible();
});

test('logging out ends the session: the cookie it had is refused afterwards and the pages ask to log in', async ({ page, context }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  await page.goto('/');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
  const cookies = await context.cookies();
  const refresh = cookies.find((c) => c.name === 'academy_console_refresh');
  const csrf = cookies.find((c) => c.name === 'academy_console_csrf');
  expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/console/session' });

  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await context.cookies()).find((c) => c.name === 'academy_console_refresh')).toBeUndefined();
  const replay = await fetch(`${system().gateway}/api/console/session/refresh`, {
    method: 'POST',
    headers: { cookie: `academy_console_refresh=${refresh!.value}`, 'x-csrf-token': decodeURIComponent(csrf!.value) },
  });
  expect(replay.status).toBe(401);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
});
