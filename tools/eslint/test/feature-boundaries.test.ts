import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { ESLint } from 'eslint';

// The repository's own eslint.config.js on deliberately wrong imports, placed (by name only) in
// incidents' features: a feature imports no sibling feature, and shared/ imports no feature.
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });
const boundaryProblems = async (code: string, file: string) => {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
};

describe('lint: feature boundaries (no-restricted-imports per feature folder)', () => {
  test('a feature that imports a sibling feature fails, naming shared/ as the way out', async () => {
    const code = "import { clockIn } from '../time-records/clock-in.ts';\nexport const use = clockIn;\n";
    expect(await boundaryProblems(code, 'apps/incidents/src/incidents/close-incident.ts')).toEqual([
      "'../time-records/clock-in.ts' import is restricted from being used by a pattern. A feature imports no sibling feature: move what both need to apps/incidents/src/shared/.",
    ]);
  });

  test('shared/ that imports a feature fails', async () => {
    const code = "import { readIncident } from '../incidents/read-incident.ts';\nexport const use = readIncident;\n";
    expect(await boundaryProblems(code, 'apps/incidents/src/shared/record-incident.ts')).toEqual([
      "'../incidents/read-incident.ts' import is restricted from being used by a pattern. shared/ imports no feature.",
    ]);
  });

  test('a service of one feature (hours-bank) is kept too: its shared/ imports no feature', async () => {
    const code = "import { hoursBankRoutes } from '../hours-bank/hours-bank.routes.ts';\nexport const use = hoursBankRoutes;\n";
    expect(await boundaryProblems(code, 'apps/hours-bank/src/shared/hours-bank-context.ts')).toEqual([
      "'../hours-bank/hours-bank.routes.ts' import is restricted from being used by a pattern. shared/ imports no feature.",
    ]);
  });

  test('a feature that imports its own files and shared/ passes', async () => {
    const code = "import { readIncident } from './read-incident.ts';\nimport { recordIncident } from '../shared/record-incident.ts';\nexport const use = [readIncident, recordIncident];\n";
    expect(await boundaryProblems(code, 'apps/incidents/src/incidents/close-incident.ts')).toEqual([]);
  });
});
