// Applies pending migrations, or with `--create <name>` generates one from the entities.
import path from 'node:path';
import { runMigrationCli } from '@academy/service';
import { readConfig } from './config.ts';
import { payslipsService } from './service.ts';

await runMigrationCli(payslipsService, readConfig(), path.join(import.meta.dirname, 'migrations'));
