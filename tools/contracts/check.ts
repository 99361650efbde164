// `npm run contracts:check`: the working tree's contracts against each app's last release
// (contracts/releases.json, contracts/released/<app>/<version>.json). One line per break, naming
// the app, the route or event, the field and who depends on it; exit 1 on any. Also fails when the
// README's table of apps is not what the contracts say (`npm run contracts:table` rewrites it).
import { readFileSync } from 'node:fs';
import { APPS, type AppName } from '@academy/contracts';
import { appBreaks, formatBreak, type Break, type Released } from './compat.ts';
import { currentContracts } from './contracts.ts';
import { RecordError, readRecords, readSnapshot } from './records.ts';
import { readmeFile, renderTable, withTable } from './table.ts';

export function checkContracts(root?: string): { breaks: Break[]; tableStale: boolean; summary: string[] } {
  const records = readRecords(root);
  const released = Object.fromEntries(APPS.map((app) => [app, { version: records[app].version, contracts: readSnapshot(app, records[app], root).contracts }])) as Record<AppName, Released>;
  const current = currentContracts();
  const breaks = APPS.flatMap((app) => appBreaks(app, current[app], released, current));
  const readme = readFileSync(readmeFile(root), 'utf8');
  const tableStale = withTable(readme, renderTable(current, records)) !== readme;
  const summary = APPS.map((app) => {
    const count = breaks.filter((b) => b.app === app).length;
    return `${app}@${records[app].version}: ${Object.keys(current[app].routes).length} routes, ${Object.keys(current[app].events.publishes).length} events published, ${Object.keys(current[app].events.consumes).length} consumed: ${count ? `${count} breaking` : 'compatible'}`;
  });
  return { breaks, tableStale, summary };
}

if (import.meta.main) {
  try {
    const { breaks, tableStale, summary } = checkContracts();
    for (const line of summary) console.log(line);
    if (breaks.length) {
      console.error(`\n${breaks.length} breaking change${breaks.length > 1 ? 's' : ''} against the last releases:`);
      for (const b of breaks) console.error(`  ${formatBreak(b)}`);
      console.error('\nKeep the old shape beside the new one (an optional field, a new route or event version next to the old), or release the dependents first.');
    }
    if (tableStale) console.error('\nREADME.md: the table of apps differs from the contracts: run `npm run contracts:table` and commit it.');
    process.exitCode = breaks.length || tableStale ? 1 : 0;
  } catch (error) {
    if (!(error instanceof RecordError)) throw error;
    console.error(`contracts:check: ${error.message}`);
    process.exitCode = 1;
  }
}
