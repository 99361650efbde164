// APP_EVENTS (libs/contracts) is the table the contracts, the AsyncAPI document and the README are
// built from: this keeps it true to the apps' code.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { APPS, APP_EVENTS, eventSchemas } from '@academy/contracts';
import { replicaHandlers, timetableReplicaHandlers } from '@academy/replicas';
import { repoRoot } from '../records.ts';

const TYPES = Object.keys(eventSchemas);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The catalogue types quoted in an app's code (comments left out), in the files `only` keeps. */
function quotedTypes(app: string, only: (file: string) => boolean = () => true, pattern = /'([a-z][a-z.-]+)'/g): Set<string> {
  const found = new Set<string>();
  for (const file of sources(path.join(repoRoot, 'apps', app, 'src')).filter(only)) {
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:])\/\/.*$/gm, '$1');
    for (const [, type] of code.matchAll(pattern)) if (TYPES.includes(type)) found.add(type);
  }
  return found;
}

const consumed = (app: (typeof APPS)[number]) => new Set(APP_EVENTS[app].consumes.flatMap((queue) => queue.types));

/** The code of an app's subscriptions.ts files. */
const subscriptionsOf = (app: string) =>
  sources(path.join(repoRoot, 'apps', app, 'src'))
    .filter((file) => file.endsWith('subscriptions.ts'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
/** `subscribePrivacy` (@academy/privacy) consumes `privacy.request.opened` and records `privacy.part.answered` for the app. */
const answersPrivacy = (app: string) => subscriptionsOf(app).includes('subscribePrivacy(');

describe('APP_EVENTS matches the code', () => {
  test.each(APPS.filter((app) => app !== 'notifications'))('%s publishes exactly the types its code records', (app) => {
    const recorded = new Set([...quotedTypes(app), ...(answersPrivacy(app) ? ['privacy.part.answered'] : [])]);
    expect([...recorded].sort()).toEqual([...APP_EVENTS[app].publishes].sort());
  });

  test('notifications publishes only its privacy answers and consumes exactly the types its handlers are keyed by (and subscribePrivacy binds)', () => {
    expect(answersPrivacy('notifications')).toBe(true);
    expect(APP_EVENTS.notifications.publishes).toEqual(['privacy.part.answered']);
    // The keys of the handler maps: subscriptions.ts and the *.handler.ts files it spreads in.
    const handlerKeys = quotedTypes('notifications', (file) => /(subscriptions|\.handler)\.ts$/.test(file), /'([a-z][a-z.-]+)':/g);
    expect([...consumed('notifications')].sort()).toEqual([...handlerKeys, 'privacy.request.opened'].sort());
  });

  test.each(['hours-bank', 'incidents', 'payslips'] as const)('%s consumes what its subscribeReplicas (and subscribePrivacy) binds', (app) => {
    const subscriptions = subscriptionsOf(app);
    expect(subscriptions).toContain('subscribeReplicas(');
    const handlers = /timetable:\s*true/.test(subscriptions) ? timetableReplicaHandlers : replicaHandlers;
    expect([...consumed(app)].sort()).toEqual([...Object.keys(handlers), ...(answersPrivacy(app) ? ['privacy.request.opened'] : [])].sort());
  });
});
