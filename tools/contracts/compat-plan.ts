// Which mixed-version systems `test:compat` starts. An app meets another app only over a wire: the
// gateway proxies HTTP to every service, and an event goes from its publisher to its consumers
// (APP_EVENTS). Two versions can only disagree across such a wire, so what has to be proven is
// pairwise: for every pair of apps that talk and have both changed since their releases, each one
// at its release beside the other at HEAD (both ways round), and every changed app at its release
// beside every app it talks to at HEAD. An app unchanged since its release is the same code either
// way.
//
// So the changed apps are coloured so that no two apps that talk share a colour, with as few
// colours as possible, and each colour is one system start: the apps of that colour at their last
// release, every other app at HEAD. An app of colour A beside a neighbour of colour B is then seen
// old-beside-new in A's run and new-beside-old in B's. Every app at its release also runs on HEAD's
// schema of its own database (its HEAD migrations applied first: expand/contract), since that is
// the schema the old pods of a rolling deploy keep running on once the first new pod has migrated.
// Six changed apps take four runs (gateway, academic, notifications and incidents all talk to each
// other); one changed app takes one (beside everything at HEAD; "HEAD beside the releases" is then
// `test:system` itself, every other app being its release's code).
import { APPS, APP_EVENTS, type AppName } from '@academy/contracts';

/** Unordered pairs of apps that talk, `a < b` in APPS' order. */
export type Edge = readonly [AppName, AppName];

const ordered = (a: AppName, b: AppName): Edge => (APPS.indexOf(a) < APPS.indexOf(b) ? [a, b] : [b, a]);

/** Who talks to whom: the gateway to every other app (HTTP), each publisher to the consumers of its types (APP_EVENTS). */
export function wires(events = APP_EVENTS): Edge[] {
  const edges = new Map<string, Edge>();
  const add = (a: AppName, b: AppName) => {
    if (a === b) return;
    const edge = ordered(a, b);
    edges.set(edge.join('|'), edge);
  };
  for (const app of APPS) if (app !== 'gateway') add('gateway', app);
  for (const publisher of APPS) {
    for (const type of events[publisher].publishes) {
      for (const consumer of APPS) if (events[consumer].consumes.some((queue) => queue.types.includes(type))) add(publisher, consumer);
    }
  }
  return [...edges.values()].sort((x, y) => APPS.indexOf(x[0]) - APPS.indexOf(y[0]) || APPS.indexOf(x[1]) - APPS.indexOf(y[1]));
}

export interface CompatRun {
  /** The apps at their last release (on HEAD's schema); every other app at HEAD. */
  atRelease: AppName[];
}

/**
 * The fewest runs (a minimum colouring of the changed apps, no two that talk in one run), the apps
 * of each run in APPS' order, the runs ordered by their first app. Exact: at most six apps.
 */
export function planRuns(changed: readonly AppName[], edges: readonly Edge[] = wires()): CompatRun[] {
  const apps = APPS.filter((app) => changed.includes(app));
  if (!apps.length) return [];
  const talks = (a: AppName, b: AppName) => edges.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  for (let colours = 1; colours <= apps.length; colours++) {
    const colour: number[] = [];
    const assign = (i: number): boolean => {
      if (i === apps.length) return true;
      // Colour c is only tried after c − 1 is in use: the same colouring is not tried under another numbering.
      const used = Math.max(-1, ...colour.slice(0, i));
      for (let c = 0; c <= Math.min(used + 1, colours - 1); c++) {
        if (apps.slice(0, i).some((other, j) => colour[j] === c && talks(other, apps[i]))) continue;
        colour[i] = c;
        if (assign(i + 1)) return true;
      }
      return false;
    };
    if (assign(0)) return Array.from({ length: colours }, (_, c) => ({ atRelease: apps.filter((_, i) => colour[i] === c) }));
  }
  throw new Error('unreachable: one colour per app always fits');
}

/**
 * Every ordered pair (old, new) of apps that talk which the runs show, for the test and for
 * `--plan`: what the runs leave unshown (empty when the plan is sound).
 */
export function uncovered(runs: readonly CompatRun[], changed: readonly AppName[], edges: readonly Edge[] = wires()): string[] {
  const missing: string[] = [];
  const old = (run: CompatRun, app: AppName) => run.atRelease.includes(app);
  for (const app of changed) if (!runs.some((run) => old(run, app))) missing.push(`${app} never at its release`);
  for (const [a, b] of edges) {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      if (!changed.includes(x)) continue;
      // y unchanged: its HEAD is its release, any run with x old shows the pair.
      if (!runs.some((run) => old(run, x) && !old(run, y))) missing.push(`${x} at its release beside ${y} at HEAD`);
    }
  }
  return missing;
}
