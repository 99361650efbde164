import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, TEST_KEYS_DIR, TEST_KID, testUrls, uniqueName } from '@academy/testing';

const GATEWAY_MAIN = fileURLToPath(new URL('../../gateway/src/main.ts', import.meta.url));

/** How long the gateway process may take to answer /healthz; a hook that starts it needs as long, and the service's start. */
export const GATEWAY_START_TIMEOUT_MS = 60_000;

export interface TestGateway {
  url: string;
  stop(): Promise<void>;
}

/**
 * The real gateway, as its own process (apps do not import each other), in front of one
 * notifications instance: test keys, test Redis for its rate limits, the other services absent.
 */
export async function startGatewayProcess(notificationsUrl: string): Promise<TestGateway> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [GATEWAY_MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      NOTIFICATIONS_URL: notificationsUrl,
      JWT_KEYS_DIR: TEST_KEYS_DIR,
      JWT_KEY_IDS: TEST_KID,
      REDIS_URL: testUrls.redis,
      RATE_LIMIT_KEY_PREFIX: uniqueName('gw_rl'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // A start-up: the process loads the gateway's TypeScript and its libraries (15.6 s at load 21, when 20 s was the limit).
  const deadline = Date.now() + GATEWAY_START_TIMEOUT_MS;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then((res) => res.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error('the gateway did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
