// The administrators' payslips (issue 34): the month's combined PDF uploaded, read, its unmatched page
// assigned by hand, published, and the teacher's console showing the payslip; delete with a reason,
// correction, who viewed what.
import { expect, test } from '@playwright/test';
import { checkPage, logInThroughForm, system, teacherFor, widthOf } from './world';
import { ADMIN, combinedPdf, employees, tokenOf } from './admin-world';

test.use({ baseURL: system().gateway });
// Long journeys (several pages, axe on each) on a machine shared with other work.
test.describe.configure({ timeout: 300_000 });

test('the demo batch uploaded, its unmatched page assigned, published; the teacher sees the payslip; deleted with a reason, corrected; the list with deleted ones', async ({ page, browser }, testInfo) => {
  const token = await tokenOf(ADMIN);
  const teacher = teacherFor(testInfo, 'day');
  const staff = await employees(token);
  // The demo teachers only: other journeys add employees with tax ids of their own (admin-people).
  const withTaxId = staff.filter((e): e is typeof e & { taxId: string } => e.taxId !== null && (e.email?.endsWith('@academy.local') ?? false)).slice(0, 6);
  const mine = staff.find((e) => e.email === teacher.email)!;
  // A month of its own per width (the journeys share one system).
  const month = widthOf(testInfo) === 'phone' ? '03' : '02';
  const label = `Nómina consola 2026-${month}`;
  const pdf = await combinedPdf(withTaxId.map((e) => ({ name: `${e.name} ${e.lastname}`, taxId: e.taxId })), label, { start: `2026-${month}-01`, end: `2026-${month}-28` });

  await page.goto('/admin/payslips');
  await logInThroughForm(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Nóminas', level: 1 })).toBeVisible();
  await checkPage(page, testInfo, 'admin-payslips');
  const batch = page.getByRole('region', { name: 'PDF del mes (todas las nóminas en un fichero)' });
  await batch.getByLabel('Concepto').fill(label);
  await batch.getByLabel('Desde').fill(`2026-${month}-01`);
  await batch.getByLabel('Hasta').fill(`2026-${month}-28`);
  await batch.getByLabel('PDF combinado').setInputFiles({ name: 'nominas.pdf', mimeType: 'application/pdf', buffer: pdf });
  await batch.getByRole('button', { name: 'Subir y leer' }).click();

  await expect(page).toHaveURL(/\/admin\/payslips\/batches\/\d+/);
  await expect(page.getByText(`Leído: ${withTaxId.length + 1} páginas. Revisa y publica.`)).toBeVisible({ timeout: 60_000 });
  const matches = page.getByRole('region', { name: `Empleados reconocidos (${withTaxId.length})` });
  for (const [i, employee] of withTaxId.entries()) await expect(matches.getByRole('row', { name: new RegExp(`${employee.name} ${employee.lastname}`) })).toContainText(`Página ${i + 1}`);
  const unmatched = page.getByRole('region', { name: 'Páginas que no nombran a nadie (1)' });
  await expect(unmatched.getByText('Resumen de la empresa')).toBeVisible();
  await checkPage(page, testInfo, 'admin-payslip-batch');

  // The summary page to the journey's teacher, by hand.
  const last = withTaxId.length + 1;
  await unmatched.getByLabel(`Asignar la página ${last} a`).selectOption(String(mine.id));
  await unmatched.getByRole('button', { name: `Asignar la página ${last}` }).click();
  await expect(page.getByRole('region', { name: 'Páginas que no nombran a nadie (0)' })).toBeVisible();
  await expect(matches.getByRole('row', { name: new RegExp(`${mine.name} ${mine.lastname}`) })).toContainText(`Página ${last}`);
  await page.getByRole('button', { name: 'Publicar' }).click();
  await expect(page.getByText('Publicado: cada empleado ya tiene su nómina.')).toBeVisible();

  // The teacher's console, in another browser context: the payslip is there.
  const context = await browser.newContext({ baseURL: system().gateway, viewport: page.viewportSize() ?? undefined });
  const teacherPage = await context.newPage();
  await teacherPage.goto('/payslips');
  await logInThroughForm(teacherPage, teacher);
  await expect(teacherPage.getByRole('heading', { name: 'Mis nóminas' })).toBeVisible();
  await expect(teacherPage.getByText(label).first()).toBeVisible();
  const download = teacherPage.waitForEvent('download');
  await teacherPage.getByRole('listitem').filter({ hasText: label }).first().getByRole('button', { name: 'Descargar' }).click();
  await download;
  await context.close();

  // The list: filtered to the teacher and the month; who viewed it and when.
  await page.getByRole('link', { name: '← Nóminas' }).click();
  const list = page.getByRole('region', { name: 'Nóminas publicadas' });
  await list.getByLabel('Empleado').selectOption(String(mine.id));
  await list.getByLabel('Año').selectOption('2026');
  await list.getByLabel('Mes').selectOption(String(Number(month)));
  const rows = list.getByRole('listitem').filter({ hasText: label });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: /vista por el empleado el/ })).toHaveCount(1);
  await checkPage(page, testInfo, 'admin-payslips-list');

  // Delete one with a reason: gone from the list, back with "include deleted", with its reason.
  const who = `${mine.name} ${mine.lastname} · ${label}`;
  await list.getByRole('button', { name: `Borrar: ${who}` }).first().click();
  await list.getByLabel('Motivo del borrado').fill('Página de resumen, no es una nómina');
  await list.getByRole('button', { name: 'Borrar la nómina' }).click();
  await expect(rows).toHaveCount(1);
  await list.getByLabel('Incluir borradas y sustituidas').check();
  await expect(rows).toHaveCount(2);
  await expect(list.getByText(/Borrada el .*: «Página de resumen, no es una nómina»/)).toBeVisible();

  // A correction of the other: the old one superseded, the new one a correction.
  await list.getByRole('button', { name: `Corregir: ${who}` }).click();
  await list.getByLabel('PDF corregido').setInputFiles({ name: 'corregida.pdf', mimeType: 'application/pdf', buffer: pdf });
  await list.getByRole('button', { name: 'Publicar la corrección' }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Sustituida por una corrección' })).toHaveCount(1);
  // The visible one is the correction (case-sensitive: every row says "publicada el …").
  await expect(rows.filter({ hasText: /Publicada ·/ })).toHaveCount(1);
  await expect(rows.filter({ hasText: /Publicada ·/ })).toContainText(`${label} · `);
  await expect(rows.filter({ hasText: /Publicada ·/ })).toContainText(' · corrección');
  await checkPage(page, testInfo, 'admin-payslips-deleted');
});
