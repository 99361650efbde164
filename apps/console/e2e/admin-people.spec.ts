// People and courses (issue 34): an employee with a tax id and a payroll code (a wrong and a taken tax
// id refused, in words), their hours bank per school course; a guardian and a student of theirs; a
// school course created and deleted; the students of a class assigned and taken out. And the guard:
// a teacher opening any administrator's URL is refused by the console and by the API; an
// administrator who also teaches sees both sets of links.
import { randomInt } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { checkPage, logInThroughForm, system, teacherFor } from './world';
import { ADMIN, call, tokenOf } from './admin-world';

test.use({ baseURL: system().gateway });
test.describe.configure({ timeout: 300_000 });

/** A valid Spanish DNI no demo employee has (8 random digits and their control letter). */
function freshTaxId(): string {
  const digits = randomInt(10_000_000, 99_999_999);
  return `${digits}${'TRWAGMYFPDXBNJZSQVHLCKE'[digits % 23]}`;
}

/** The page's own status line (administrators' incident notices, which the other width raises meanwhile, are statuses too, outside <main>). */
const saved = (page: Page) => page.getByRole('main').getByRole('status');

async function openView(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Apartados' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
}

test('an employee with tax id and payroll code (a wrong and a taken tax id refused), their hours bank per school course', async ({ page }, testInfo) => {
  const tag = `${testInfo.project.name}${randomInt(1_000_000)}`;
  const taxId = freshTaxId();
  await page.goto('/admin/people');
  await logInThroughForm(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Personas y cursos', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Empleados', level: 2 })).toBeVisible();
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
  await checkPage(page, testInfo, 'admin-people-employees');

  await page.getByRole('button', { name: 'Nuevo empleado' }).click();
  const form = page.getByRole('form', { name: 'Nuevo empleado' });
  await form.getByLabel('Nombre').fill('Marta');
  await form.getByLabel('Apellidos').fill(`Prueba ${tag}`);
  await form.getByLabel('Correo electrónico').fill(`marta.${tag}@example.org`);
  // A tax id whose control letter is wrong: the API's 400 names the field.
  const wrongLetter = taxId.slice(0, 8) + (taxId.endsWith('T') ? 'R' : 'T');
  await form.getByLabel('NIF').fill(wrongLetter);
  await form.getByLabel('Código de nómina').fill(`P-${tag}`);
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(form.getByRole('alert')).toHaveText('Revisa estos datos: NIF.');
  await form.getByLabel('NIF').fill(taxId.toLowerCase());
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(saved(page)).toHaveText(`Guardado: Marta Prueba ${tag}.`);
  await page.getByLabel('Buscar').fill(tag);
  const row = page.getByRole('row', { name: new RegExp(`Marta Prueba ${tag}`) });
  // (At phone width a cell's name starts with its label, "NIF: …": the row's text is compared.)
  await expect(row).toContainText(taxId);
  await expect(row).toContainText(`P-${tag}`);

  // The same tax id on a second employee: 409 TAX_ID_TAKEN, in words; nothing created.
  await page.getByRole('button', { name: 'Nuevo empleado' }).click();
  await form.getByLabel('Nombre').fill('Otra');
  await form.getByLabel('Apellidos').fill(`Prueba ${tag}`);
  await form.getByLabel('NIF').fill(taxId);
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(form.getByRole('alert')).toHaveText('Otro empleado tiene ya ese NIF.');
  await form.getByRole('button', { name: 'Cerrar' }).click();
  await expect(page.getByRole('row', { name: new RegExp(`Prueba ${tag}`) })).toHaveCount(1);
  const token = await tokenOf(ADMIN);
  const found = await call<{ data: { id: number; taxId: string; payrollCode: string }[] }>('GET', `/api/v2/employees?search=${tag}`, token);
  expect(found.body.data.map((e) => [e.taxId, e.payrollCode])).toEqual([[taxId, `P-${tag}`]]);

  // Their hours bank in the current school course: empty, then 2h pending, then 1h 30m completed (taken from the pending first).
  await row.getByRole('link', { name: `Bolsa de horas de Marta Prueba ${tag}` }).click();
  await expect(page.getByRole('heading', { name: `Bolsa de horas de Marta Prueba ${tag}`, level: 1 })).toBeVisible();
  await expect(page.getByText('Sin operaciones en este curso escolar.')).toBeVisible();
  await page.getByLabel('Tipo').selectOption('pending');
  await page.getByLabel('Tiempo').fill('90m');
  await page.getByRole('button', { name: 'Anotar', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Los minutos deben ser menos de 60.');
  await page.getByLabel('Tiempo').fill('2h');
  await page.getByLabel('Motivo').fill('Guardia del viernes');
  await page.getByRole('button', { name: 'Anotar', exact: true }).click();
  await expect(saved(page)).toHaveText('Anotado: 2h.');
  await page.getByLabel('Tipo').selectOption('completed');
  await page.getByLabel('Tiempo').fill('1h 30m');
  await page.getByRole('button', { name: 'Anotar', exact: true }).click();
  await expect(saved(page)).toHaveText('Anotado: 1h 30m.');
  const totals = page.locator('dl.totals');
  await expect(totals).toContainText('Horas pendientes30m');
  await expect(totals).toContainText('Horas realizadas0h');
  await checkPage(page, testInfo, 'admin-people-hours');
  // Undo the completed operation: the pending total is whole again.
  await page.getByRole('button', { name: /^Anular 1h 30m del / }).click();
  await expect(saved(page)).toHaveText('Operación anulada.');
  await expect(totals).toContainText('Horas pendientes2h');
  // Another school course's bank of the same employee is its own (empty).
  const courses = await call<{ data: { id: number; isLatest: boolean }[] }>('GET', '/api/v2/school-courses', token);
  const previous = courses.body.data.find((course) => !course.isLatest)!;
  await page.getByLabel('Curso escolar').selectOption(String(previous.id));
  await expect(page.getByText('Sin operaciones en este curso escolar.')).toBeVisible();
});

test('a guardian and their student; a school course created and deleted; the students of a class assigned and taken out', async ({ page }, testInfo) => {
  const tag = `${testInfo.project.name}${randomInt(1_000_000)}`;
  const token = await tokenOf(ADMIN);
  const event = await unassignedClass(token, teacherFor(testInfo, 'day'), tag);
  await page.goto('/admin/people?view=guardians');
  await logInThroughForm(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Tutores', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo tutor' }).click();
  const guardianForm = page.getByRole('form', { name: 'Nuevo tutor' });
  await guardianForm.getByLabel('Nombre').fill('Lucía');
  await guardianForm.getByLabel('Apellidos').fill(`Tutora ${tag}`);
  await guardianForm.getByLabel('Correo electrónico').fill(`lucia.${tag}@example.org`);
  await guardianForm.getByLabel('Teléfono').fill('+34 600 000 000');
  await guardianForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(saved(page)).toHaveText(`Guardado: Lucía Tutora ${tag}.`);
  await page.getByLabel('Buscar').fill(tag);
  await expect(page.getByRole('row', { name: new RegExp(`Lucía Tutora ${tag}`) })).toBeVisible();
  await checkPage(page, testInfo, 'admin-people-guardians');

  await openView(page, 'Alumnos');
  await page.getByRole('button', { name: 'Nuevo alumno' }).click();
  const studentForm = page.getByRole('form', { name: 'Nuevo alumno' });
  await studentForm.getByLabel('Nombre').fill('Hugo');
  await studentForm.getByLabel('Apellidos').fill(`Lector ${tag}`);
  await studentForm.getByLabel('Tutor').selectOption({ label: `Lucía Tutora ${tag} · lucia.${tag}@example.org` });
  await studentForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(saved(page)).toHaveText(`Guardado: Hugo Lector ${tag}.`);
  await page.getByLabel('Buscar').fill(tag);
  const student = page.getByRole('row', { name: new RegExp(`Hugo Lector ${tag}`) });
  await expect(student).toContainText(`Lucía Tutora ${tag}`);
  await checkPage(page, testInfo, 'admin-people-students');

  // A school course long past (never the latest, so no other journey's course changes), then deleted.
  await openView(page, 'Cursos escolares');
  const course = `E2E ${tag}`;
  await page.getByLabel('Curso', { exact: true }).fill(course);
  await page.getByLabel('Empieza').fill('1990-09-01');
  await page.getByLabel('Termina').fill('1991-06-30');
  await page.getByRole('button', { name: 'Crear curso' }).click();
  await expect(saved(page)).toHaveText(`Guardado: ${course}.`);
  await expect(page.getByRole('row', { name: new RegExp(course) })).toBeVisible();
  await checkPage(page, testInfo, 'admin-people-courses');
  await page.getByRole('button', { name: `Borrar el curso ${course}` }).click();
  await expect(saved(page)).toHaveText(`Borrado: ${course}.`);
  await expect(page.getByRole('row', { name: new RegExp(course) })).toHaveCount(0);

  // The class's students: two of the registered ones ticked and saved, then one taken out.
  await openView(page, 'Alumnos de cada clase');
  await page.getByLabel('Profesor').selectOption(String(event.employeeId));
  const card = page.getByRole('listitem').filter({ hasText: event.title });
  await card.getByRole('button', { name: /^Alumnos de / }).click();
  const [first, second] = event.students;
  await card.getByRole('checkbox', { name: first.name }).check();
  await card.getByRole('checkbox', { name: second.name }).check();
  await card.getByRole('button', { name: 'Guardar alumnos' }).click();
  await expect(card.getByRole('status')).toHaveText('La clase tiene 2 alumnos.');
  await expect(card.getByRole('region', { name: 'Resultado' })).toContainText('2 en la clase, 0 quitados, 0 rechazados');
  await checkPage(page, testInfo, 'admin-people-classes');
  expect(await assignedTo(token, event.id)).toEqual([first.id, second.id].sort((a, b) => a - b));
  await card.getByRole('checkbox', { name: first.name }).uncheck();
  await card.getByRole('button', { name: 'Guardar alumnos' }).click();
  await expect(card.getByRole('region', { name: 'Resultado' })).toContainText('1 en la clase, 1 quitados, 0 rechazados');
  expect(await assignedTo(token, event.id)).toEqual([second.id]);
});

/** Every administrator's URL of the console, with an API route its page reads. */
const ADMIN_PAGES: { url: string; api: [string, string] }[] = [
  { url: '/admin/review', api: ['GET', '/api/v2/blocks/pending'] },
  { url: '/admin/incidents', api: ['GET', '/api/v2/incident/'] },
  { url: '/admin/incidents/1', api: ['POST', '/api/v2/incident/1/close'] },
  { url: '/admin/payslips', api: ['GET', '/api/v2/payslips'] },
  { url: '/admin/payslips/batches/1', api: ['GET', '/api/v2/payslips/batches/1'] },
  { url: '/admin/attendance', api: ['GET', '/api/v2/attendance/report'] },
  { url: '/admin/attendance/students/1', api: ['GET', '/api/v2/students/1'] },
  { url: '/admin/people', api: ['GET', '/api/v2/employees'] },
  { url: '/admin/people?view=classes', api: ['GET', '/api/v2/calendar-events'] },
  { url: '/admin/people/employees/1/hours', api: ['POST', '/api/v2/hours-bank/1/completed'] },
];

test("a teacher opening each administrator's URL is refused by the console (no administrator's code fetched) and by the API", async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Personas' })).toHaveCount(0);
  for (const { url } of ADMIN_PAGES) {
    // Through the router (a link typed in the address bar reloads the page: the same guard).
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, url);
    await expect(page.getByRole('heading', { name: 'Sin acceso', level: 1 }), url).toBeVisible();
  }
  await page.goto('/admin/people');
  await expect(page.getByRole('heading', { name: 'Sin acceso', level: 1 })).toBeVisible();
  expect(scripts.filter((script) => /\/assets\/(review|payslips|incidents|attendance|people|i18n)-/.test(script))).toEqual([]);

  const token = await tokenOf(teacher);
  for (const { api } of ADMIN_PAGES) {
    const answer = await call(api[0], api[1], token, api[0] === 'POST' ? { time: '1h' } : undefined);
    // The blocks' admin routes answer 401 to a signed-in non-administrator (academic's contract, the spec's review table); every other 403.
    expect([api.join(' '), answer.status]).toEqual([api.join(' '), api[1].startsWith('/api/v2/blocks/') ? 401 : 403]);
  }
});

test('an administrator who also teaches sees the teacher’s links and their Today beside the administrators’ ones', async ({ page }, testInfo) => {
  const tag = `${testInfo.project.name}${randomInt(1_000_000)}`;
  const token = await tokenOf(ADMIN);
  const employee = await call<{ id: number }>('POST', '/api/v2/employees', token, { name: 'Iván', lastname: `Jefe ${tag}`, kind: 'teacher' });
  expect(employee.status).toBe(201);
  const credentials = { email: `ivan.${tag}@example.org`, password: 'jefe12345' };
  const user = await call('POST', '/api/v2/users', token, { ...credentials, role: 'admin', employeeId: employee.body.id });
  expect(user.status).toBe(201);

  await page.goto('/');
  await logInThroughForm(page, credentials);
  await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Secciones' });
  for (const name of ['Hoy', 'Bloques', 'Mis horas', 'Ajustes', 'Informe de asistencia', 'Personas']) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^Revisión/ })).toBeVisible();
  await checkPage(page, testInfo, 'admin-teacher-today');

  // The demo administrator is no employee: no clock, no classes; their home is the review queue, and no teacher's link.
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.goto('/');
  await logInThroughForm(page, ADMIN);
  await expect(page).toHaveURL(/\/admin\/review$/);
  await expect(nav.getByRole('link', { name: 'Hoy', exact: true })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Ajustes', exact: true })).toBeVisible();
});

/** A class of the teacher next month with nobody in it, at a subject and centre with at least two active registrations. */
async function unassignedClass(token: string, teacher: { email: string; password: string }, tag: string) {
  const me = await call<{ user: { employeeId: number } }>('POST', '/api/v2/auth/login', undefined, teacher);
  const employeeId = me.body.user.employeeId;
  const events = await call<{ data: { subjectId: number; centerId: number }[] }>('GET', `/api/v2/calendar-events?employeeId=${employeeId}&limit=100`, token);
  for (const place of events.body.data) {
    const registered = await call<{ data: { students: { studentId: number; fullName: string; registrationStatus: string }[] } }>(
      'GET',
      `/api/v2/registration/students-by-subject-and-center?subjectId=${place.subjectId}&centerId=${place.centerId}`,
      token,
    );
    const active = registered.body.data.students.filter((s) => s.registrationStatus === 'active');
    if (active.length < 2) continue;
    const startsAt = new Date(Date.now() + 30 * 86_400_000);
    const title = `Asignación ${tag}`;
    const created = await call<{ id: number }>('POST', '/api/v2/calendar-events', token, {
      title,
      subjectId: place.subjectId,
      centerId: place.centerId,
      employeeId,
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
    });
    expect(created.status).toBe(201);
    return { id: created.body.id, title, employeeId, students: active.slice(0, 2).map((s) => ({ id: s.studentId, name: s.fullName })) };
  }
  throw new Error(`no subject of ${teacher.email} with two active students`);
}

async function assignedTo(token: string, eventId: number): Promise<number[]> {
  const answer = await call<{ data: { students: { studentId: number }[] } }>('GET', `/api/v2/registration/students-assigned-to-event?eventId=${eventId}`, token);
  return answer.body.data.students.map((s) => s.studentId).sort((a, b) => a - b);
}
