// The demo logins `npm run seed` creates, also printed by `npm start` (tools/dev/start.ts): one list.
export const DEMO_LOGINS = [
  { email: 'admin@academy.local', password: 'admin1234', role: 'admin' },
  { email: 'admin2@academy.local', password: 'admin1234', role: 'admin' },
  ...Array.from({ length: 6 }, (_, i) => ({ email: `teacher${i + 1}@academy.local`, password: 'teacher1234', role: 'user' })),
] as const;
