// test:compat's plan: as few system starts as show every pair of changed apps that talk, each one
// at its release beside the other at HEAD, both ways round.
import { describe, expect, test } from '@jest/globals';
import { APPS, APP_EVENTS, type AppName } from '@academy/contracts';
import { planRuns, uncovered, wires } from '../compat-plan.ts';

const subsets = (apps: readonly AppName[]): AppName[][] => apps.reduce<AppName[][]>((all, app) => [...all, ...all.map((subset) => [...subset, app])], [[]]).filter((s) => s.length);

describe('wires', () => {
  test('the gateway talks to every app, each publisher to the consumers of its events, nobody else', () => {
    expect(wires().map((edge) => edge.join('–'))).toEqual([
      'gateway–academic',
      'gateway–hours-bank',
      'gateway–incidents',
      'gateway–notifications',
      'gateway–payslips',
      'academic–hours-bank',
      'academic–incidents',
      'academic–notifications',
      'academic–payslips',
      'incidents–notifications',
      'notifications–payslips',
    ]);
  });
});

describe('planRuns', () => {
  test('no app changed: no run', () => {
    expect(planRuns([])).toEqual([]);
  });

  test('one changed app: one run, that app at its release beside everything at HEAD', () => {
    expect(planRuns(['hours-bank'])).toEqual([{ atRelease: ['hours-bank'] }]);
  });

  test('changed apps that do not talk share a run; two that talk get one each', () => {
    expect(planRuns(['payslips', 'hours-bank', 'incidents'])).toEqual([{ atRelease: ['hours-bank', 'incidents', 'payslips'] }]);
    expect(planRuns(['academic', 'notifications'])).toEqual([{ atRelease: ['academic'] }, { atRelease: ['notifications'] }]);
  });

  test('every app changed: four runs (gateway, academic, incidents and notifications all talk to each other), the three that do not talk together', () => {
    expect(planRuns(APPS)).toEqual([{ atRelease: ['gateway'] }, { atRelease: ['academic'] }, { atRelease: ['hours-bank', 'incidents', 'payslips'] }, { atRelease: ['notifications'] }]);
  });

  test('for each of the 63 sets of changed apps, the plan shows every pair both ways round, with at most four runs and no two apps that talk in one run', () => {
    const edges = wires();
    for (const changed of subsets(APPS)) {
      const runs = planRuns(changed);
      expect({ changed, missing: uncovered(runs, changed) }).toEqual({ changed, missing: [] });
      expect(runs.length).toBeLessThanOrEqual(4);
      for (const run of runs) for (const [a, b] of edges) expect({ run: run.atRelease, together: run.atRelease.includes(a) && run.atRelease.includes(b) }).toEqual({ run: run.atRelease, together: false });
    }
  });

  test('a new subscription is a new wire: hours-bank consuming incident.created no longer shares a run with incidents', () => {
    const events = { ...APP_EVENTS, 'hours-bank': { ...APP_EVENTS['hours-bank'], consumes: [...APP_EVENTS['hours-bank'].consumes, { queue: 'hours-bank.incidents', types: ['incident.created' as const] }] } };
    expect(planRuns(['hours-bank', 'incidents'], wires(events))).toEqual([{ atRelease: ['hours-bank'] }, { atRelease: ['incidents'] }]);
  });
});

describe('uncovered', () => {
  test('one run with every app at its release shows no app beside another at HEAD: it names each missing pair', () => {
    const missing = uncovered([{ atRelease: [...APPS] }], APPS);
    expect(missing).toHaveLength(wires().length * 2);
    expect(missing).toContain('academic at its release beside notifications at HEAD');
    expect(missing).toContain('notifications at its release beside academic at HEAD');
  });

  test('a changed app never at its release is named', () => {
    expect(uncovered([], ['payslips'])).toEqual(['payslips never at its release', 'payslips at its release beside gateway at HEAD', 'payslips at its release beside academic at HEAD', 'payslips at its release beside notifications at HEAD']);
  });
});
