// contracts:check end to end on a copy of the contracts folder: the records and snapshots as the
// release writes them, a missing or malformed one, a deliberate breaking change, the README's table.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { APPS } from '@academy/contracts';
import { checkContracts } from '../check.ts';
import { formatBreak } from '../compat.ts';
import { currentContracts } from '../contracts.ts';
import { recordsFile, snapshotFile, writeJson, type ReleaseRecord } from '../records.ts';
import { renderTable, TABLE_END, TABLE_START } from '../table.ts';

const COMMIT = 'a'.repeat(40);
let root: string;
const contracts = currentContracts();
const records = Object.fromEntries(APPS.map((app) => [app, { version: '1.0.0', commit: COMMIT, tag: `${app}@1.0.0`, date: '2026-11-27T10:00:00.000Z' } satisfies ReleaseRecord]));

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'contracts-check-'));
  writeJson(recordsFile(root), records);
  for (const app of APPS) writeJson(snapshotFile(app, '1.0.0', root), { app, version: '1.0.0', commit: COMMIT, contracts: contracts[app] });
  writeFileSync(path.join(root, 'README.md'), `# x\n\n${TABLE_START}\n${renderTable(contracts, records)}\n${TABLE_END}\n`);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('contracts:check', () => {
  test('the working tree against snapshots of itself: every app compatible, the table current', () => {
    const result = checkContracts(root);
    expect(result.breaks).toEqual([]);
    expect(result.tableStale).toBe(false);
    expect(result.summary).toHaveLength(APPS.length);
  });

  test('a release that served a route the tree no longer has fails, naming the app, the route and its dependents', () => {
    const academic = structuredClone(contracts.academic);
    academic.routes['DELETE /api/v2/blocks/{blockId}'] = { parameters: [], requestBody: null, responses: { '204': {} } };
    writeJson(snapshotFile('academic', '1.0.0', root), { app: 'academic', version: '1.0.0', commit: COMMIT, contracts: academic });
    expect(checkContracts(root).breaks.map(formatBreak)).toEqual(['academic: DELETE /api/v2/blocks/{blockId}: route removed; depended on by the gateway and its clients (apps/console, the mobile app)']);
  });

  test('a released consumer that reads a version nobody publishes any more fails, naming both', () => {
    const notifications = structuredClone(contracts.notifications);
    notifications.events.consumes['block.approved'].versions = [7];
    const academic = structuredClone(contracts.academic);
    academic.events.publishes['block.approved'].versions = [7];
    writeJson(snapshotFile('notifications', '1.0.0', root), { app: 'notifications', version: '1.0.0', commit: COMMIT, contracts: notifications });
    writeJson(snapshotFile('academic', '1.0.0', root), { app: 'academic', version: '1.0.0', commit: COMMIT, contracts: academic });
    const lines = checkContracts(root).breaks.map(formatBreak);
    expect(lines).toContain('academic: event block.approved: version 7, read by notifications@1.0.0, no longer published (now: 1); depended on by notifications@1.0.0');
    expect(lines).toContain('notifications: event block.approved: reads version 1 only, academic@1.0.0 publishes 7; depended on by academic@1.0.0');
  });

  test('a README table edited by hand is stale', () => {
    writeFileSync(path.join(root, 'README.md'), `# x\n\n${TABLE_START}\n| app |\n${TABLE_END}\n`);
    expect(checkContracts(root).tableStale).toBe(true);
  });

  test('a missing release record is an error naming the file', () => {
    rmSync(recordsFile(root));
    expect(() => checkContracts(root)).toThrow(/contracts\/releases\.json: the release record is missing/);
  });

  test('a malformed release record is an error naming the file and the field', () => {
    writeJson(recordsFile(root), { ...records, payslips: { ...records.payslips, commit: 'HEAD' } });
    expect(() => checkContracts(root)).toThrow(/contracts\/releases\.json: malformed release record: payslips\.commit: must be a full 40-character commit hash/);
    writeFileSync(recordsFile(root), '{ "academic": ');
    expect(() => checkContracts(root)).toThrow(/contracts\/releases\.json: the release record is not JSON/);
    const { gateway: _gone, ...withoutGateway } = records;
    writeJson(recordsFile(root), withoutGateway);
    expect(() => checkContracts(root)).toThrow(/contracts\/releases\.json: no release of gateway/);
  });

  test('a missing or malformed snapshot is an error naming the file', () => {
    rmSync(snapshotFile('incidents', '1.0.0', root));
    expect(() => checkContracts(root)).toThrow(/contracts\/released\/incidents\/1\.0\.0\.json: the contract snapshot of incidents@1\.0\.0 is missing/);
    writeJson(snapshotFile('incidents', '1.0.0', root), { app: 'incidents', version: '1.0.0', commit: COMMIT, contracts: { app: 'incidents', routes: {} } });
    expect(() => checkContracts(root)).toThrow(/contracts\/released\/incidents\/1\.0\.0\.json: malformed contract snapshot: contracts\.events/);
    writeJson(snapshotFile('incidents', '1.0.0', root), { app: 'incidents', version: '1.0.0', commit: 'b'.repeat(40), contracts: contracts.incidents });
    expect(() => checkContracts(root)).toThrow(/incidents\/1\.0\.0\.json: the snapshot is of incidents@1\.0\.0 \(b{40}\), the release record says incidents@1\.0\.0 \(a{40}\)/);
  });
});
