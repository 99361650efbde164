// Tracing on this machine: the OTLP receiver `npm start` runs, and the OTEL_* environment each
// service starts with (service name, version, commit, the receiver as endpoint).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir, repoRoot } from '@academy/infra';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.ts';

export const DEV_OTLP_PORT = 4318;
let receiver: OtlpReceiver | null = null;

/** The endpoint the services export to: OTEL_EXPORTER_OTLP_ENDPOINT when set, else a receiver started here (null: tracing off). */
export async function startDevReceiver(log: (line: string) => void, port = DEV_OTLP_PORT): Promise<string | null> {
  if (process.env.OTEL_SDK_DISABLED === 'true') return null;
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  try {
    receiver = await startOtlpReceiver({ port, file: dataDir('dev', 'traces', 'spans.jsonl') });
    return receiver.url;
  } catch (error) {
    log(`OTLP receiver not started (${(error as Error).message}): tracing off; free port ${port} or set OTEL_EXPORTER_OTLP_ENDPOINT`);
    return null;
  }
}

export async function stopDevReceiver(): Promise<void> {
  await receiver?.close();
  receiver = null;
}

/** The app's version (its package.json once it has one, else the workspace's) and the checked-out commit. */
export function versionOf(app: string): { version: string; commit: string | undefined } {
  const own = path.join(repoRoot, 'apps', app, 'package.json');
  const version = JSON.parse(readFileSync(existsSync(own) ? own : path.join(repoRoot, 'package.json'), 'utf8')).version as string;
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    commit = undefined;
  }
  return { version, commit };
}

/** A service's OTEL_* environment: spans batched every 500 ms (a developer looks right after a request). */
export function telemetryEnv(app: string, endpoint: string | null): NodeJS.ProcessEnv {
  if (!endpoint) return {};
  const { version, commit } = versionOf(app);
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_SERVICE_NAME: app,
    SERVICE_VERSION: version,
    ...(commit ? { GIT_COMMIT: commit } : {}),
    OTEL_BSP_SCHEDULE_DELAY: process.env.OTEL_BSP_SCHEDULE_DELAY ?? '500',
  };
}
