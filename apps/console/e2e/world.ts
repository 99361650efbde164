// What the journeys need from the running system, through the gateway as an admin's client would.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';

export const system = (): { gateway: string; mailApi: string } => JSON.parse(process.env.CONSOLE_SYSTEM ?? '{}');
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../dist/console-screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

/**
 * Takes a lock shared by the run's workers (a directory: mkdir is atomic), named after the system's
 * gateway so that runs against other systems never wait for it; its owner's pid lets a lock left by a
 * killed worker be taken over. Resolves to its release.
 */
async function lockOf(name: string): Promise<() => void> {
  const dir = path.join(os.tmpdir(), `academy-console-${name}-${new URL(system().gateway).port}.lock`);
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'owner'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner = 0;
    try {
      owner = Number(readFileSync(path.join(dir, 'owner'), 'utf8'));
    } catch {
      // Taken a moment ago, its owner not written yet.
    }
    if (owner && !alive(owner)) rmSync(dir, { recursive: true, force: true });
    else await delay(100);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The review queue's turns, a readers-writer lock shared by the run's workers (a folder of entries
 * named `<kind>-<pid>-<n>`, changed under the `review-queue-state` lock): a test that counts the queue
 * or picks its oldest blocks (`@review-queue`) runs alone; tests that only add and review blocks of their
 * own (`@review-queue-change`) run beside each other, never beside a counting one. A counting test
 * waiting (`w-`) lets no new changing test in. Entries of a dead worker are dropped. Resolves to the release.
 */
async function queueTurn(mode: 'exclusive' | 'shared'): Promise<() => void> {
  const dir = path.join(os.tmpdir(), `academy-console-review-queue-${new URL(system().gateway).port}`);
  mkdirSync(dir, { recursive: true });
  const id = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const entries = () =>
    readdirSync(dir).filter((entry) => {
      if (alive(Number(entry.split('-')[1]))) return true;
      rmSync(path.join(dir, entry), { force: true });
      return false;
    });
  for (;;) {
    const release = await lockOf('review-queue-state');
    try {
      const now = entries();
      const others = now.filter((entry) => !entry.endsWith(id));
      if (mode === 'shared' && !others.some((entry) => entry.startsWith('x-') || entry.startsWith('w-'))) {
        writeFileSync(path.join(dir, `s-${id}`), '');
        return () => rmSync(path.join(dir, `s-${id}`), { force: true });
      }
      if (mode === 'exclusive') {
        rmSync(path.join(dir, `w-${id}`), { force: true });
        if (!others.some((entry) => entry.startsWith('x-') || entry.startsWith('s-'))) {
          writeFileSync(path.join(dir, `x-${id}`), '');
          return () => rmSync(path.join(dir, `x-${id}`), { force: true });
        }
        writeFileSync(path.join(dir, `w-${id}`), '');
      }
    } finally {
      release();
    }
    await delay(100);
  }
}

/**
 * Playwright's `test` with the review queue's turns. The widths run at once against one system, whose
 * review queue is one: the tests that count it (the badge, "five fewer than before") or pick its oldest
 * blocks are tagged `@review-queue` and run alone; those that add blocks of their own to it and review
 * them by id, `@review-queue-change`, run beside each other (queueTurn).
 */
export const test = base.extend<{ reviewQueueTurn: void }>({
  reviewQueueTurn: [
    // Playwright reads the fixtures a fixture uses from this pattern: none.
    async ({}, use, testInfo) => {
      const mode = testInfo.tags.includes('@review-queue') ? 'exclusive' : testInfo.tags.includes('@review-queue-change') ? 'shared' : null;
      if (!mode) return use();
      const asked = Date.now();
      const release = await queueTurn(mode);
      // The wait for a turn is the other tests' time, not this one's: added to its timeout.
      testInfo.setTimeout(testInfo.timeout + (Date.now() - asked));
      try {
        await use();
      } finally {
        release();
      }
    },
    { auto: true },
  ],
});

/** The width a project runs at (`desktop` or `phone`; playwright.config.ts runs each width as two projects). */
export const widthOf = (testInfo: TestInfo): 'desktop' | 'phone' => (testInfo.project.name.startsWith('phone') ? 'phone' : 'desktop');

/** The demo teachers, split between the two widths so that their journeys never meet (clock state, language). */
export function teacherFor(testInfo: TestInfo, role: 'clock' | 'day' | 'language'): { email: string; password: string } {
  const n = { clock: 1, day: 2, language: 3 }[role] + (widthOf(testInfo) === 'phone' ? 3 : 0);
  return { email: `teacher${n}@academy.local`, password: 'teacher1234' };
}

async function api<T>(method: string, route: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const answer = await fetch(`${system().gateway}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

export async function bearerLogin(credentials: { email: string; password: string }): Promise<{ accessToken: string; user: { employeeId: number } }> {
  const answer = await api<{ accessToken: string; user: { employeeId: number } }>('POST', '/api/v2/auth/login', undefined, credentials);
  expect(answer.status).toBe(200);
  return answer.body;
}

/**
 * A class of the teacher that started 40 minutes ago and ended 5 minutes ago (so today's, taken
 * now, within its window), with three students of one of the teacher's seeded subjects and centres.
 */
export async function classToday(teacher: { email: string; password: string }): Promise<{ eventId: number; students: string[] }> {
  const admin = await bearerLogin({ email: 'admin@academy.local', password: 'admin1234' });
  const { user } = await bearerLogin(teacher);
  const events = await api<{ data: { subjectId: number; centerId: number }[] }>('GET', `/api/v2/calendar-events?employeeId=${user.employeeId}&limit=100`, admin.accessToken);
  for (const place of events.body.data) {
    const available = await api<{ data: { students: { studentId: number; registrationStatus: string }[] } }>(
      'GET',
      `/api/v2/registration/students-by-subject-and-center?subjectId=${place.subjectId}&centerId=${place.centerId}`,
      admin.accessToken,
    );
    const ids = available.body.data.students.filter((s) => s.registrationStatus === 'active').map((s) => s.studentId).slice(0, 3);
    if (ids.length < 3) continue;
    const startsAt = new Date(Date.now() - 40 * 60_000);
    const endsAt = new Date(Date.now() - 5 * 60_000);
    const body = { title: 'Console journey', subjectId: place.subjectId, centerId: place.centerId, employeeId: user.employeeId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() };
    const created = await api<{ id?: number; data?: { id: number } }>('POST', '/api/v2/calendar-events', admin.accessToken, body);
    expect(created.status).toBe(201);
    const assigned = await api('PUT', '/api/v2/registration/assign-students-to-event', admin.accessToken, { eventId: created.body.id ?? created.body.data?.id, subjectId: place.subjectId, centerId: place.centerId, idsStudents: ids });
    expect(assigned.status).toBe(200);
    const names = await Promise.all(ids.map(async (id) => (await api<{ name: string; lastname: string }>('GET', `/api/v2/students/${id}`, admin.accessToken)).body));
    return { eventId: (created.body.id ?? created.body.data?.id)!, students: names.map((s) => `${s.name} ${s.lastname}`) };
  }
  throw new Error(`no subject of ${teacher.email} with three active students`);
}

/**
 * axe-core finds no serious or critical violation; then a full-page screenshot named after the page and the width.
 * axe runs in the page itself (legacy mode): AxeBuilder's default opens a blank page per check to merge the
 * results of cross-origin frames, which the console has none of; and only the violations are collected
 * (the passes' nodes are neither gathered nor sent back). Every rule still runs on the whole page.
 */
export async function checkPage(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe on ${name}`).toEqual([]);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${widthOf(testInfo)}.png`), fullPage: true });
}

export async function logInThroughForm(page: Page, credentials: { email: string; password: string }): Promise<void> {
  await page.getByLabel(/Correo electrónico|E-mail/).fill(credentials.email);
  await page.getByLabel(/Contraseña|Password/).fill(credentials.password);
  await page.getByRole('button', { name: /Entrar|Log in/ }).click();
}
