// What `npm start` runs: one place for the local system's ports and names (the demo logins are the seed's).
import path from 'node:path';
import { repoRoot } from '@academy/infra';

export const DEV_KEYS_DIR = path.join(repoRoot, '.local/keys');
export const DEV_KID = 'dev-1';

/** The gateway first. `database` is the service's own PostgreSQL database. */
export const SERVICES = [
  { name: 'gateway', port: 3000, database: null },
  { name: 'academic', port: 3001, database: 'academic' },
  { name: 'hours-bank', port: 3002, database: 'hours_bank' },
  { name: 'incidents', port: 3003, database: 'incidents' },
  { name: 'notifications', port: 3004, database: 'notifications' },
  { name: 'payslips', port: 3005, database: 'payslips' },
] as const;

export const MAIL = { smtpPort: 1025, webPort: 1080 };
