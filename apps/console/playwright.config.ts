// `npm run test:console`: the console in Debian's Chromium (no browser download) against the system
// started as test:system starts it (tools/console/system.ts). Every journey at 1280 and 390 px wide;
// screenshots of every page under dist/console-screenshots (CI leaves the folder behind).
// Each width runs as two projects (four workers, one a project): the journeys of the clock and language
// teachers (and the day teacher's, which only add) in one, the administrators' journeys (and the day
// teacher's reads) in the other; within a project they run one after the other (they share its teachers'
// clock state and language). The tests that count the one review queue run alone, those that only add to
// it beside each other (the @review-queue tags, world.ts). See the README's Playwright section.
import { defineConfig } from '@playwright/test';

const WIDTHS = [
  { width: 'desktop', use: { viewport: { width: 1280, height: 900 } } },
  { width: 'phone', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];
/** The journeys of each width in two halves of about the same length, each with teachers of its own but the day teacher (world.ts's teacherFor). */
const HALVES = [
  ['journeys.spec.ts', 'admin-more.spec.ts', 'teacher-today.spec.ts', 'teacher.spec.ts'],
  ['admin-payslips.spec.ts', 'admin-people.spec.ts', 'admin-review.spec.ts'],
];

export default defineConfig({
  testDir: './e2e',
  outputDir: '../../dist/console-e2e',
  globalSetup: './e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 4,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    trace: 'off',
  },
  projects: WIDTHS.flatMap(({ width, use }) =>
    HALVES.map((testMatch, half) => ({ name: `${width}-${half + 1}`, workers: 1, testMatch, use })),
  ),
});
