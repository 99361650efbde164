// The teacher's day past the journeys (issue 33): Today's classes with their attendance state (taken,
// missing, not yet), a sheet read-only after its window with the reason, and the devices in Settings.
import { expect, test } from '@playwright/test';
import { bearerLogin, checkPage, logInThroughForm, system, teacherFor } from './world';
import { ADMIN, call, tokenOf } from './admin-world';

test.use({ baseURL: system().gateway });
test.describe.configure({ timeout: 300_000 });

/** A class of the teacher at the given instants, with the first two students registered at one of their places. */
async function classOf(teacher: { email: string; password: string }, startsAt: Date, endsAt: Date) {
  const admin = await tokenOf(ADMIN);
  const { user } = await bearerLogin(teacher);
  const events = await call<{ data: { subjectId: number; centerId: number }[] }>('GET', `/api/v2/calendar-events?employeeId=${user.employeeId}&limit=100`, admin);
  for (const place of events.body.data) {
    const registered = await call<{ data: { students: { studentId: number; fullName: string; registrationStatus: string }[] } }>(
      'GET',
      `/api/v2/registration/students-by-subject-and-center?subjectId=${place.subjectId}&centerId=${place.centerId}`,
      admin,
    );
    const students = registered.body.data.students.filter((s) => s.registrationStatus === 'active').slice(0, 2);
    if (students.length < 2) continue;
    const created = await call<{ id: number }>('POST', '/api/v2/calendar-events', admin, { title: 'Console journey', subjectId: place.subjectId, centerId: place.centerId, employeeId: user.employeeId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() });
    expect(created.status).toBe(201);
    const assigned = await call('PUT', '/api/v2/registration/assign-students-to-event', admin, { eventId: created.body.id, idsStudents: students.map((s) => s.studentId) });
    expect(assigned.status).toBe(200);
    return { eventId: created.body.id, students: students.map((s) => s.fullName) };
  }
  throw new Error(`no subject of ${teacher.email} with two active students`);
}

test("Today: a class still to come is 'not yet'; a sheet past its window is read-only for the teacher, with the reason", async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  const now = Date.now();
  const coming = await classOf(teacher, new Date(now + 2 * 60_000), new Date(now + 12 * 60_000));
  // Ended nine days ago: past the teacher's seven days.
  const old = await classOf(teacher, new Date(now - 9 * 86_400_000), new Date(now - 9 * 86_400_000 + 3_600_000));
  await page.goto('/');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Clases de hoy', level: 2 })).toBeVisible();
  const item = page.locator('li', { has: page.locator(`a[href="/attendance/${coming.eventId}"]`) });
  await expect(item).toContainText('Aún no');
  await expect(item).toContainText('2 alumnos');
  await checkPage(page, testInfo, 'today-classes');

  await page.goto(`/attendance/${old.eventId}`);
  await expect(page.getByRole('heading', { name: /Asistencia/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(/^Solo lectura: el plazo para modificarla terminó el .+; solo la administración puede cambiarla\.$/);
  await expect(page.getByRole('group', { name: `Estado: ${old.students[0]}` }).getByLabel('Ausente')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Guardar' })).toBeDisabled();
  await checkPage(page, testInfo, 'attendance-locked');

  // An administrator opens the same sheet: editable, the teacher's limit told.
  const context = await page.context().browser()!.newContext({ baseURL: system().gateway, viewport: page.viewportSize() ?? undefined });
  const adminPage = await context.newPage();
  await adminPage.goto(`/attendance/${old.eventId}`);
  await logInThroughForm(adminPage, ADMIN);
  await expect(adminPage.getByText(/^El plazo del profesor terminó el .+; la administración puede cambiarla\.$/)).toBeVisible();
  await expect(adminPage.getByRole('button', { name: 'Guardar' })).toBeEnabled();
  await context.close();
});

test('Settings lists the devices that get my notifications, and one removed is gone', async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'language');
  const token = await tokenOf(teacher);
  const deviceId = `e2e-phone-${testInfo.project.name}`;
  expect((await call('POST', '/api/v2/notifications/token', token, { deviceId, token: `fcm-${deviceId}-${Date.now()}`, platform: 'android' })).status).toBe(200);
  await page.goto('/settings');
  await logInThroughForm(page, teacher);
  const devices = page.getByRole('region', { name: 'Mis dispositivos' });
  await expect(devices.getByText(deviceId)).toBeVisible();
  await expect(devices).toContainText('Android');
  await checkPage(page, testInfo, 'settings-devices');
  await devices.getByRole('button', { name: `Quitar ${deviceId}` }).click();
  await expect(devices.getByRole('status')).toHaveText('Dispositivo quitado: ya no recibirá tus avisos.');
  await expect(devices.getByText(deviceId)).toHaveCount(0);
  const listed = await call<{ data: { deviceId: string }[] }>('GET', '/api/v2/notifications/token', token);
  expect(listed.body.data.map((d) => d.deviceId)).not.toContain(deviceId);
});
