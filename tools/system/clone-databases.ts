// `node tools/system/clone-databases.ts <service>=<database URL>…`: each service's database of a system
// run (tools/system/harness.ts) cloned from the service's migrated template before the service starts,
// as the services' component tests get theirs (libs/testing/src/template-database.ts: the template is
// migrated from nothing once per set of migrations, under an advisory lock; a clone is about a tenth of
// a migration run). The service still runs its migrations at start and finds none pending.
import { ensureDatabase } from '@academy/db';
import type { ServiceDefinition } from '@academy/service';
import { cloneMigratedDatabase } from '../../libs/testing/src/template-database.ts';

const targets = process.argv.slice(2).map((arg) => {
  const at = arg.indexOf('=');
  if (at < 1) throw new Error(`usage: node tools/system/clone-databases.ts <service>=<database URL>…; got "${arg}"`);
  return { service: arg.slice(0, at), url: arg.slice(at + 1) };
});

await Promise.all(
  targets.map(async ({ service, url }) => {
    // What the template's name and build need: the service's entities and migrations, not the service.
    const [{ entities }, { migrations }] = await Promise.all([import(`../../apps/${service}/src/entities.ts`), import(`../../apps/${service}/src/migrations/index.ts`)]);
    await ensureDatabase(url);
    await cloneMigratedDatabase({ name: service, entities, migrations } as ServiceDefinition, { DATABASE_URL: url } as Parameters<typeof cloneMigratedDatabase>[1]);
  }),
);
