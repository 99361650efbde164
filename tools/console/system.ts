// The system the console's Playwright tests run against, started as `npm run test:system` starts it
// (tools/system/harness.ts: every service and the gateway as processes, the demo seed, maildev),
// with the console built first and served by the gateway at `/`. Run by playwright.config.ts's
// global setup as a child process: writes what the tests need to the file named by its argument,
// then holds the system until SIGTERM.
import { writeFileSync } from 'node:fs';
import { buildConsole } from '../dev/console.ts';
import { startTestSystem } from '../system/harness.ts';

const out = process.argv[2];
if (!out) throw new Error('usage: node tools/console/system.ts <file to write the addresses to>');

buildConsole();
const system = await startTestSystem({ name: 'console', redisDb: 12, log: (line) => process.stderr.write(`[console system] ${line}\n`) });
writeFileSync(out, JSON.stringify({ gateway: system.gateway, mailApi: system.mail.api, pid: process.pid }));
process.stderr.write(`[console system] up: ${system.gateway}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await system.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
