import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { ESLint } from 'eslint';

// The repository's own eslint.config.js, on deliberately wrong code placed (by name only) in hours-bank.
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });
const sqlProblems = async (code: string, file: string) => {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((message) => message.ruleId === 'local/sql-in-store').map((message) => message.message);
};

const WRONG = `import { Sql } from '@academy/db';
import { Kysely } from 'kysely';
export const byId = (sql: Sql, id: number) => sql.query(\`select id from hours_banks where id = $1\`, [id]);
export const remove = 'delete from hours_transactions where id = $1';
export const db = Kysely;
`;

describe('lint: SQL only in *.store.ts and migrations (local/sql-in-store)', () => {
  test('a use case that imports Sql or Kysely, or holds SQL text, fails with each place named', async () => {
    expect(await sqlProblems(WRONG, 'apps/hours-bank/src/hours-bank/read-hours-bank.ts')).toEqual([
      "'Sql' runs SQL: only a feature's *.store.ts (or a migration) uses it.",
      "'kysely' writes SQL: only a feature's *.store.ts (or a migration) imports it.",
      "SQL text belongs in the feature's *.store.ts (or a migration).",
      "SQL text belongs in the feature's *.store.ts (or a migration).",
    ]);
  });

  test('the same code in the feature\'s store, or in a migration, passes', async () => {
    expect(await sqlProblems(WRONG, 'apps/hours-bank/src/hours-bank/hours-bank.store.ts')).toEqual([]);
    expect(await sqlProblems(WRONG, 'apps/hours-bank/src/migrations/Migration20990101000000_x.ts')).toEqual([]);
  });

  test('incidents is kept too: SQL text in its use case fails, in its store passes', async () => {
    const code = "export const open = 'select id from time_records where employee_id = $1 and clock_out_at is null';\n";
    expect(await sqlProblems(code, 'apps/incidents/src/time-records/clock-in.ts')).toEqual(["SQL text belongs in the feature's *.store.ts (or a migration)."]);
    expect(await sqlProblems(code, 'apps/incidents/src/time-records/time-records.store.ts')).toEqual([]);
  });

  test('notifications is kept too: SQL text in its send use case fails, in the push store passes', async () => {
    const code = "export const tokens = 'select user_id, token from device_tokens where user_id = any(?::int[])';\n";
    expect(await sqlProblems(code, 'apps/notifications/src/push/send-push.ts')).toEqual(["SQL text belongs in the feature's *.store.ts (or a migration)."]);
    expect(await sqlProblems(code, 'apps/notifications/src/push/push.store.ts')).toEqual([]);
  });

  test('a sentence that starts like SQL is not SQL', async () => {
    expect(await sqlProblems("export const hint = 'Select one from the list';\n", 'apps/hours-bank/src/hours-bank/hints.ts')).toEqual([]);
  });
});
