// Prints the contracts of the given apps (all by default) as this checkout declares them, as JSON:
// what a release snapshots. `npm run release` runs it in a worktree of the commit it releases.
import { APPS, type AppName } from '@academy/contracts';
import { currentContracts } from './contracts.ts';

if (import.meta.main) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((app) => !(APPS as readonly string[]).includes(app));
  if (unknown.length) throw new Error(`unknown app ${unknown.join(', ')} (apps: ${APPS.join(', ')})`);
  const contracts = currentContracts();
  const apps = (asked.length ? asked : APPS) as AppName[];
  process.stdout.write(JSON.stringify(Object.fromEntries(apps.map((app) => [app, contracts[app]]))));
}
