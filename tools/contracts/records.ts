// The release records (`contracts/releases.json`: each app's last release, its version and the
// commit it was cut from) and the contract snapshots (`contracts/released/<app>/<version>.json`).
// A missing or malformed one is an error naming the file, never a silent pass.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { APPS, type AppName } from '@academy/contracts';
import type { AppContract } from './contracts.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const contractsDir = (root = repoRoot) => path.join(root, 'contracts');
export const recordsFile = (root = repoRoot) => path.join(contractsDir(root), 'releases.json');
export const snapshotFile = (app: string, version: string, root = repoRoot) => path.join(contractsDir(root), 'released', app, `${version}.json`);

const semver = z.string().regex(/^\d+\.\d+\.\d+(?:-[\w.]+)?$/, 'must be a semantic version (1.2.3)');
export const ReleaseRecord = z.strictObject({
  version: semver,
  /** The commit the release was cut from: its code, the image's APP_COMMIT, test:compat's worktree. */
  commit: z.string().regex(/^[0-9a-f]{40}$/, 'must be a full 40-character commit hash'),
  /** The git tag of the release commit (`<app>@<version>`). */
  tag: z.string().min(1),
  date: z.iso.datetime(),
});
export type ReleaseRecord = z.infer<typeof ReleaseRecord>;
const Records = z.record(z.string(), ReleaseRecord);

const JsonObject = z.record(z.string(), z.unknown());
const Snapshot = z.strictObject({
  app: z.enum(APPS),
  version: semver,
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  contracts: z.strictObject({
    app: z.enum(APPS),
    routes: z.record(z.string(), z.strictObject({ parameters: z.array(JsonObject), requestBody: JsonObject.nullable(), responses: z.record(z.string(), JsonObject) })),
    events: z.strictObject({ publishes: z.record(z.string(), JsonObject), consumes: z.record(z.string(), JsonObject) }),
  }),
});
export interface Snapshot {
  app: AppName;
  version: string;
  commit: string;
  contracts: AppContract;
}

export class RecordError extends Error {}

function readJson(file: string, what: string): unknown {
  const shown = path.relative(process.cwd(), file) || file;
  if (!existsSync(file)) throw new RecordError(`${shown}: ${what} is missing`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RecordError(`${shown}: ${what} is not JSON (${(error as Error).message})`);
  }
}

const problems = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');

/** Every app's last release; an app missing from the file is an error (cut its first release with `npm run release`). */
export function readRecords(root = repoRoot): Record<AppName, ReleaseRecord> {
  const file = recordsFile(root);
  const parsed = Records.safeParse(readJson(file, 'the release record'));
  if (!parsed.success) throw new RecordError(`${path.relative(process.cwd(), file)}: malformed release record: ${problems(parsed.error)}`);
  const missing = APPS.filter((app) => !parsed.data[app]);
  if (missing.length) throw new RecordError(`${path.relative(process.cwd(), file)}: no release of ${missing.join(', ')} (npm run release -- --first-release)`);
  return parsed.data as Record<AppName, ReleaseRecord>;
}

/** The records as they are, or none yet (before the first release). */
export function readRecordsIfAny(root = repoRoot): Partial<Record<AppName, ReleaseRecord>> {
  return existsSync(recordsFile(root)) ? (Records.parse(readJson(recordsFile(root), 'the release record')) as Partial<Record<AppName, ReleaseRecord>>) : {};
}

export function readSnapshot(app: AppName, record: ReleaseRecord, root = repoRoot): Snapshot {
  const file = snapshotFile(app, record.version, root);
  const shown = path.relative(process.cwd(), file);
  const parsed = Snapshot.safeParse(readJson(file, `the contract snapshot of ${app}@${record.version}`));
  if (!parsed.success) throw new RecordError(`${shown}: malformed contract snapshot: ${problems(parsed.error)}`);
  if (parsed.data.app !== app || parsed.data.version !== record.version || parsed.data.commit !== record.commit)
    throw new RecordError(`${shown}: the snapshot is of ${parsed.data.app}@${parsed.data.version} (${parsed.data.commit}), the release record says ${app}@${record.version} (${record.commit})`);
  return parsed.data as unknown as Snapshot;
}

/** Writes a JSON file the way every contracts file is written (sorted by the caller, two-space indent, final newline). */
export function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
