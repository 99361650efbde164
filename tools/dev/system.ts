// What `npm start` runs: one place for the local system's ports, names and demo logins.
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
] as const;

export const MAIL = { smtpPort: 1025, webPort: 1080 };

/** Created by `npm run seed` (apps/academic/src/seed.ts). */
export const DEMO_LOGINS = [
  { role: 'admin', email: 'admin@academy.local', password: 'admin1234' },
  { role: 'user', email: 'teacher1@academy.local', password: 'teacher1234' },
];

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
