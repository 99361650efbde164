// `npm run test:console`: the console in Debian's Chromium (no browser download) against the system
// started as test:system starts it (tools/console/system.ts). Every journey at 1280 and 390 px wide;
// screenshots of every page under dist/console-screenshots (CI leaves the folder behind).
// The two widths run at once, one worker each (their teachers differ; within a width the journeys share
// teachers and run one after the other); the tests that count or change the one review queue take turns
// (the @review-queue tag, world.ts). See the README's Playwright section.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e',
  outputDir: '../../dist/console-e2e',
  globalSetup: './e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 2,
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
  projects: [
    { name: 'desktop', workers: 1, use: { viewport: { width: 1280, height: 900 } } },
    { name: 'phone', workers: 1, use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  ],
});
