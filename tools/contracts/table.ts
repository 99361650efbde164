// The README's table of apps (section "Running at scale"): version, routes, events published and
// consumed and by whom, generated from the contracts and the release records; `contracts:check`
// regenerates it and fails when the README's differs.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APPS, ROUTE_FAMILIES, eventParties, type AppName, type EventType } from '@academy/contracts';
import type { AppContract } from './contracts.ts';
import { repoRoot, type ReleaseRecord } from './records.ts';

export const TABLE_START = '<!-- contracts-table:start (npm run contracts:table; checked by npm run contracts:check) -->';
export const TABLE_END = '<!-- contracts-table:end -->';
export const readmeFile = (root = repoRoot) => path.join(root, 'README.md');

const code = (text: string) => `\`${text}\``;

export function renderTable(contracts: Record<AppName, AppContract>, records: Partial<Record<AppName, ReleaseRecord>>): string {
  const rows = APPS.map((app) => {
    const contract = contracts[app];
    const prefixes = [...new Set(ROUTE_FAMILIES.filter((family) => family.service === app && family.routes.length).map((family) => family.prefix))];
    const routes = app === 'gateway' ? 'its docs; routes every other app\'s' : `${Object.keys(contract.routes).length} under ${prefixes.map(code).join(', ')}`;
    const published = Object.entries(contract.events.publishes).map(([type, event]) => {
      const consumers = eventParties(type as EventType).consumers;
      return `${code(type)} v${event.versions.join('+')} → ${consumers.length ? consumers.join(', ') : '(none yet)'}`;
    });
    const consumed = Object.entries(contract.events.consumes).map(([type, event]) => `${code(type)} v${event.versions.join('+')} ← ${eventParties(type as EventType).publishers.join(', ')}`);
    return `| ${app} | ${records[app]?.version ?? 'unreleased'} | ${routes} | ${published.join('<br>') || '—'} | ${consumed.join('<br>') || '—'} |`;
  });
  return ['| app | version | HTTP routes | events published → consumers | events consumed ← publishers |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** The README with `table` between the markers; throws when the markers are missing. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md: the markers of the contracts table are missing (${TABLE_START} … ${TABLE_END})`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

export function writeTable(table: string, root = repoRoot): void {
  writeFileSync(readmeFile(root), withTable(readFileSync(readmeFile(root), 'utf8'), table));
}

if (import.meta.main) {
  const { currentContracts } = await import('./contracts.ts');
  const { readRecordsIfAny } = await import('./records.ts');
  writeTable(renderTable(currentContracts(), readRecordsIfAny()));
  console.log('README.md: the table of apps is up to date');
}
