// The administrators' review queue (issue 34): bulk review racing a second administrator, the badge,
// the mails; a rejection with its reason in the thread; the lists; a teacher refused.
import { expect, type Page } from '@playwright/test';
import { checkPage, logInThroughForm, system, teacherFor, test, widthOf } from './world';
import { ADMIN, ADMIN2, call, caughtMails, distinctPending, pendingBlocks, pendingCount, tokenOf } from './admin-world';
import { countRowRenders, resetRowRenders, rowRenders } from './renders';

test.use({ baseURL: system().gateway });
// Long journeys (several pages, axe on each) on a machine shared with other work.
test.describe.configure({ timeout: 300_000 });
// The queue is the whole system's, and the other width runs at once: the tests that count it or pick its
// oldest blocks run alone (@review-queue), the rejection beside other changes (@review-queue-change, world.ts).

const badge = (page: Page) => page.getByTestId('pending-badge');
const badgeCount = async (page: Page) => Number((await badge(page).textContent())?.match(/\d+/)?.[0]);

test('bulk-approve five while a second administrator approves one: its conflict shown, the rest approved, the badge right, the mails sent', { tag: '@review-queue' }, async ({ page }, testInfo) => {
  const token = await tokenOf(ADMIN);
  const second = await tokenOf(ADMIN2);
  const five = await distinctPending(token, 5);
  const label = (item: (typeof five)[number]) => `${item.studentName} · ${item.subjectName} · ${item.blockName}`;

  await page.goto('/admin/review');
  await logInThroughForm(page, ADMIN);
  await expect(page.getByRole('heading', { name: 'Revisión de bloques', level: 1 })).toBeVisible();
  const before = await pendingCount(token);
  await expect(badge(page)).toContainText(String(before));
  for (const item of five) await page.getByRole('checkbox', { name: `Seleccionar: ${label(item)}` }).check();
  await expect(page.getByRole('heading', { name: '5 seleccionados' })).toBeVisible();
  await checkPage(page, testInfo, 'admin-review');

  // The second administrator approves the third of them first, from another client.
  const raced = five[2];
  const other = await call('POST', `/api/v2/blocks/student-block/${raced.studentBlockId}/review`, second, { action: 'approve' });
  expect(other.status).toBe(200);

  await page.getByRole('button', { name: 'Aprobar seleccionados' }).click();
  const outcome = page.getByRole('region', { name: 'Resultado de la revisión' });
  await expect(outcome.getByText('4 aplicados, 1 no aplicados')).toBeVisible();
  await expect(outcome.getByText(`${label(raced)}: no aplicado: Ya no está pendiente: otro administrador lo ha revisado.`)).toBeVisible();
  for (const item of five.filter((i) => i !== raced)) await expect(outcome.getByText(`${label(item)}: aprobado`)).toBeVisible();
  // Gone from the queue; the badge is the API's count: five fewer than before (four here, one by the other administrator).
  for (const item of five) await expect(page.getByRole('checkbox', { name: `Seleccionar: ${label(item)}` })).toHaveCount(0);
  expect(await pendingCount(token)).toBe(before - 5);
  await expect.poll(() => badgeCount(page)).toBe(before - 5);
  await checkPage(page, testInfo, 'admin-review-outcome');

  // Each approval's mail to the block's teacher, in the mail catcher.
  for (const item of five) {
    await expect
      .poll(async () => (await caughtMails()).some((mail) => mail.to.some((to) => to.address.toLowerCase() === item.teacherEmail.toLowerCase()) && mail.subject.includes(`${item.blockName} (${item.studentName})`)), {
        message: `the approval mail of ${label(item)} to ${item.teacherEmail}`,
        timeout: 30_000,
      })
      .toBe(true);
  }
});

test('the badge follows approvals made elsewhere', { tag: '@review-queue' }, async ({ page }) => {
  const token = await tokenOf(ADMIN);
  await page.goto('/admin/review');
  await logInThroughForm(page, ADMIN);
  const before = await pendingCount(token);
  await expect(badge(page)).toContainText(String(before));
  const [one] = await distinctPending(token, 1);
  expect((await call('POST', `/api/v2/blocks/student-block/${one.studentBlockId}/review`, await tokenOf(ADMIN2), { action: 'approve' })).status).toBe(200);
  // No reload: the badge asks again every few seconds.
  await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(before - 1);
});

test('selecting a block renders its row again and no other: the queue is not rendered again row by row', { tag: '@review-queue' }, async ({ page }) => {
  expect((await pendingBlocks(await tokenOf(ADMIN))).length).toBeGreaterThan(2);
  await countRowRenders(page);
  await page.goto('/admin/review');
  await logInThroughForm(page, ADMIN);
  const boxes = page.getByRole('checkbox', { name: /^Seleccionar: / });
  await expect(boxes.first()).toBeVisible();
  expect(await boxes.count()).toBeGreaterThan(2);
  expect((await rowRenders(page)).mounted).toBe(await boxes.count());

  await resetRowRenders(page);
  await boxes.nth(1).check();
  await expect(page.getByRole('heading', { name: '1 seleccionado' })).toBeVisible();
  expect(await rowRenders(page)).toEqual({ rendered: 1, mounted: 0 });
  // Typing the bulk reason renders no row either; unselecting renders that row once more.
  await page.getByLabel('Motivo del rechazo', { exact: true }).fill('Falta la firma');
  await boxes.nth(1).uncheck();
  await expect(page.getByRole('heading', { name: '0 seleccionados' })).toBeVisible();
  expect(await rowRenders(page)).toEqual({ rendered: 2, mounted: 0 });
});

test('a rejection needs a reason; the reason is in the block’s thread and the block in the rejected list; the completed list', { tag: '@review-queue-change' }, async ({ page }, testInfo) => {
  const token = await tokenOf(ADMIN);
  // It counts nothing, so it may run beside the other width's: each width rejects a block of its own (the oldest, the second oldest).
  const item = (await distinctPending(token, 2))[widthOf(testInfo) === 'phone' ? 1 : 0];
  const name = `${item.studentName} · ${item.blockName}`;
  await page.goto('/admin/review');
  await logInThroughForm(page, ADMIN);
  await page.getByRole('button', { name: `Rechazar: ${name}` }).click();
  await page.getByRole('button', { name: 'Confirmar rechazo' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Escribe el motivo del rechazo.' })).toBeVisible();
  const reason = `Falta el ejercicio 3 (${testInfo.project.name})`;
  await page.getByLabel(`Motivo del rechazo: ${item.blockName}`).fill(reason);
  await page.getByRole('button', { name: 'Confirmar rechazo' }).click();
  const outcome = page.getByRole('region', { name: 'Resultado de la revisión' });
  await expect(outcome.getByText(`${item.studentName} · ${item.subjectName} · ${item.blockName}: rechazado`)).toBeVisible();

  await page.getByRole('link', { name: 'Rechazados' }).click();
  await page.getByLabel('Alumno').fill(item.studentName);
  await page.getByRole('button', { name: `Conversación: ${name}` }).first().click();
  const thread = page.getByRole('region', { name: `Conversación: ${name}` }).first();
  await expect(thread.getByText(reason)).toBeVisible();
  await thread.getByLabel('Mensaje').fill('Revisado con el profesor.');
  await thread.getByRole('button', { name: 'Enviar' }).click();
  // Among the posted messages (the reply box's draft is text too, and matched before anything was sent), the box emptied.
  await expect(thread.getByRole('listitem').filter({ hasText: 'Revisado con el profesor.' })).toBeVisible();
  await expect(thread.getByLabel('Mensaje')).toHaveValue('');
  await checkPage(page, testInfo, 'admin-review-rejected');

  await page.getByRole('link', { name: 'Completados' }).click();
  await page.getByLabel('Alumno').fill('');
  await expect(page.getByRole('heading', { name: 'Completados', level: 2 })).toBeVisible();
  await expect(page.getByText(/Aprobado el/).first()).toBeVisible();
  await checkPage(page, testInfo, 'admin-review-completed');
});

test("a teacher opening an administrator's URL is refused: by the console (its code never loaded) and by the API", async ({ page }, testInfo) => {
  const teacher = teacherFor(testInfo, 'day');
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/admin/review');
  await logInThroughForm(page, teacher);
  await expect(page.getByRole('heading', { name: 'Sin acceso', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /Revisión/ })).toHaveCount(0);
  expect(scripts.filter((script) => /\/assets\/review-/.test(script))).toEqual([]);
  await checkPage(page, testInfo, 'admin-refused');

  const token = await tokenOf(teacher);
  // The academic service's admin routes answer 401 to a signed-in non-administrator (its contract); the directory's 403.
  expect((await call('GET', '/api/v2/blocks/pending', token)).status).toBe(401);
  expect((await call('GET', '/api/v2/blocks/pending/count', token)).status).toBe(401);
  expect((await call('POST', '/api/v2/blocks/review', token, { items: [{ studentBlockId: 1, action: 'approve' }] })).status).toBe(401);
  expect((await call('GET', '/api/v2/employees', token)).status).toBe(403);
});
