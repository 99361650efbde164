// The teacher's screens past Today (issue 33): Blocks, an incident's detail with an attachment, My
// hours with the timesheet, notification settings and the mails' language. Each at both widths.
import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import { checkPage, logInThroughForm, system, teacherFor, test } from './world';
import { clockInTwice, closeAndReview, mailTo, subjectWithStudents } from './teacher-world';

test.use({ baseURL: system().gateway });
// Each journey crosses several pages, each checked by axe: more than the default two minutes on a loaded machine.
test.describe.configure({ timeout: 300_000 });
// Closing and reviewing blocks of their own changes the review queue admin-review.spec.ts counts: never beside those (@review-queue-change, world.ts).

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

async function downloaded(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const download = page.waitForEvent('download');
  await click();
  return readFileSync(await (await download).path());
}

test('close a block with a grade and see it pending; a rejected block shows the reason; its thread takes a reply', { tag: '@review-queue-change' }, async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  const place = await subjectWithStudents(teacher, 2);
  const [first, second] = place.students;
  await closeAndReview(teacher, place, second!.id, { action: 'reject', reason: 'Falta la portada' });

  await page.goto('/blocks');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Bloques de mis alumnos', level: 1 })).toBeVisible();
  const subject = page.getByRole('region', { name: place.subjectName });
  const row = (student: string) => subject.getByRole('listitem').filter({ hasText: student });
  await expect(row(first!.name)).toContainText('Abierto');
  await expect(row(second!.name)).toContainText('Rechazado');
  await expect(row(second!.name)).toContainText('«Falta la portada»');
  await checkPage(page, testInfo, 'blocks');

  // A grade the API would refuse is caught before sending; then 8,5 closes it.
  const grade = row(first!.name).getByRole('textbox', { name: /Nota/ });
  await grade.fill('11');
  await expect(row(first!.name).getByRole('button', { name: `Cerrar B1: ${first!.name}` })).toBeDisabled();
  await grade.fill('8,5');
  await row(first!.name).getByRole('button', { name: `Cerrar B1: ${first!.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `B1 de ${first!.name} cerrado: pendiente de revisión.` })).toBeVisible();
  await expect(row(first!.name)).toContainText('Pendiente de revisión');
  await expect(row(first!.name)).toContainText('nota 8,5');

  // The rejected block's thread: the reason, then the teacher's reply.
  await row(second!.name).getByRole('button', { name: /Conversación/ }).click();
  const thread = page.getByRole('region', { name: `Conversación de B1: ${second!.name}` });
  await expect(thread.getByText('Falta la portada')).toBeVisible();
  await thread.getByRole('textbox', { name: 'Mensaje' }).fill('Añadida, la vuelvo a cerrar.');
  await thread.getByRole('button', { name: 'Enviar' }).click();
  // Among the posted messages (the reply box's draft is text too, and matched before anything was sent), the box emptied.
  await expect(thread.getByRole('listitem').filter({ hasText: 'Añadida, la vuelvo a cerrar.' })).toBeVisible();
  await expect(thread.getByRole('textbox', { name: 'Mensaje' })).toHaveValue('');
  await checkPage(page, testInfo, 'blocks-thread');
});

test("an incident's detail: a justification with a PDF attached, shown in the thread and downloaded; a file of another type is refused before sending", async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  const incidentId = await clockInTwice(teacher);
  await page.goto('/incidents');
  await logInThroughForm(page, teacher);
  await page.locator(`a[href="/incidents/${incidentId}"]`).click();
  await expect(page.getByRole('heading', { name: 'Entrada con un fichaje ya abierto', level: 1 })).toBeVisible();

  const files = page.getByLabel('Adjuntos (justificante)');
  await files.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await expect(page.getByRole('alert')).toHaveText('«notas.txt» no es un PDF, PNG, JPEG ni WebP.');
  await files.setInputFiles({ name: 'justificante.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('textbox', { name: 'Mensaje' }).fill('Olvidé fichar la salida ayer; adjunto el justificante.');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Mensaje enviado.' })).toBeVisible();
  const thread = page.getByRole('region', { name: 'Conversación' });
  await expect(thread.getByText('Olvidé fichar la salida ayer; adjunto el justificante.')).toBeVisible();
  const bytes = await downloaded(page, () => thread.getByRole('button', { name: /Descargar justificante\.pdf/ }).click());
  expect(bytes.equals(PDF)).toBe(true);
  await checkPage(page, testInfo, 'incident');
});

test('my hours: the hours bank and the monthly timesheet downloaded as a PDF', async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  await page.goto('/hours');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Mis horas', level: 1 })).toBeVisible();
  const bank = page.getByRole('region', { name: 'Bolsa de horas' });
  await expect(bank.getByText(/Horas realizadas|no tiene operaciones/)).toBeVisible();
  await checkPage(page, testInfo, 'hours');
  // This month's timesheet (the clock-ins of the journeys are in it).
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit' }).format(new Date());
  await page.getByLabel('Mes').fill(month);
  const bytes = await downloaded(page, () => page.getByRole('button', { name: 'Descargar PDF' }).click());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByRole('status').filter({ hasText: 'Registro descargado.' })).toBeVisible();
});

/**
 * Switches a checkbox that saves as it changes (a notification preference). Its new state shows once the
 * save's optimistic update renders, a scheduler tick after the click; Playwright's check() reads the state at
 * once and, at load, found it unchanged ("Clicking the checkbox did not change its state", a rehearsal).
 */
async function switchSaved(box: Locator, checked: boolean): Promise<void> {
  if ((await box.isChecked()) !== checked) await box.click();
  await expect(box).toBeChecked({ checked });
}

test("notification settings: critical types locked, a preference and quiet hours kept; the mails follow the teacher's language", { tag: '@review-queue-change' }, async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'language');
  const place = await subjectWithStudents(teacher, 2);
  await page.goto('/settings');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Ajustes', level: 1 })).toBeVisible();

  await expect(page.getByRole('checkbox', { name: 'Incidencias: Correo' })).toBeDisabled();
  await expect(page.getByRole('checkbox', { name: 'Incidencias: Correo' })).toBeChecked();
  const rejectedPush = page.getByRole('checkbox', { name: 'Bloque rechazado: Móvil' });
  await switchSaved(rejectedPush, true); // on, whatever an earlier run against the same system left
  await expect(rejectedPush).toBeEnabled();
  await switchSaved(rejectedPush, false);
  await expect(page.getByRole('status').filter({ hasText: 'Ajustes guardados.' })).toBeVisible();
  await page.getByLabel('Desde').fill('22:00');
  await page.getByLabel('Hasta').fill('07:30');
  await page.getByRole('button', { name: 'Guardar horas de silencio' }).click();
  await expect(page.getByText('Sin avisos en el móvil de 22:00 a 07:30 (Europe/Madrid); se envían al terminar.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Bloque rechazado: Móvil' })).not.toBeChecked();
  await expect(page.getByText('Sin avisos en el móvil de 22:00 a 07:30 (Europe/Madrid); se envían al terminar.')).toBeVisible();
  await checkPage(page, testInfo, 'settings-notifications');
  // Back as they were.
  await switchSaved(page.getByRole('checkbox', { name: 'Bloque rechazado: Móvil' }), true);
  await page.getByRole('button', { name: 'Quitar horas de silencio' }).click();
  await expect(page.getByText('Sin horas de silencio.')).toBeVisible();

  // English: the approval mail of a block comes in English; back to the academy's language, in Spanish.
  const address = teacher.email;
  await page.getByLabel('Idioma de la consola y de tus avisos').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await closeAndReview(teacher, place, place.students[0]!.id, { action: 'approve' });
  expect((await mailTo(address, `(${place.students[0]!.name})`)).subject).toBe(`Block approved: B1 (${place.students[0]!.name})`);
  await page.getByLabel('Language of the console and of your notifications').selectOption('');
  await expect(page.getByRole('heading', { name: 'Ajustes', level: 1 })).toBeVisible();
  await closeAndReview(teacher, place, place.students[1]!.id, { action: 'approve' });
  expect((await mailTo(address, `(${place.students[1]!.name})`)).subject).toBe(`Bloque aprobado: B1 (${place.students[1]!.name})`);
});
