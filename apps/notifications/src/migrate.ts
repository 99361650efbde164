import path from 'node:path';
import { createOrm, migrationCli } from '@academy/db';
import { messagingEntities } from '@academy/messaging';
import { readConfig } from './config.ts';
import { entities } from './data/entities.ts';
import { migrations } from './migrations/index.ts';

const config = readConfig();
const migrationsPath = path.join(import.meta.dirname, 'migrations');
await migrationCli({
  clientUrl: config.DATABASE_URL,
  migrationsPath,
  init: () => createOrm({ clientUrl: config.DATABASE_URL, entities: [...entities, ...messagingEntities], migrations, migrationsPath }),
});
