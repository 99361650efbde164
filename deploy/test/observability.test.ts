// The dashboard and the alerts under deploy/observability name only metrics the services define, in
// valid PromQL shapes a reader can trust: a renamed metric fails here, not silently in Grafana.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '..', '..');
const dir = path.join(root, 'deploy/observability');

/** Every metric name the code registers (prom-client `name: '…'`), plus the histogram series and the default process metrics. */
function definedMetrics(): Set<string> {
  const names = new Set<string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory() && !['node_modules', 'test', 'migrations'].includes(entry.name)) walk(full);
      else if (entry.name.endsWith('.ts')) for (const match of readFileSync(full, 'utf8').matchAll(/name: '([a-z_]+)'/g)) names.add(match[1]);
    }
  };
  walk(path.join(root, 'libs'));
  walk(path.join(root, 'apps'));
  for (const name of [...names]) for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  return names;
}

/** The metric names of an expression: the academy's own families (the PromQL functions and labels in between are not names). */
const metricsIn = (expr: string) => [...expr.matchAll(/\b((?:http|messaging|notifications)_[a-z_]+)\b/g)].map((match) => match[1]);

/** The event pipeline as an operator watches it: each is on the dashboard and in an alert. */
const PIPELINE = [
  'messaging_outbox_backlog',
  'messaging_outbox_oldest_unsent_seconds',
  'messaging_delivery_delay_seconds_bucket',
  'messaging_retried_total',
  'messaging_dlq_depth',
  'notifications_mail_send_failures_total',
  'notifications_mail_oldest_waiting_seconds',
  'notifications_mail_parked',
  'notifications_push_failures_total',
];

describe('dashboards and alerts as code', () => {
  const defined = definedMetrics();

  test('the Grafana dashboard is JSON with unique panel ids, every panel queries metrics the code defines, and the event pipeline is on it', () => {
    const dashboard = JSON.parse(readFileSync(path.join(dir, 'dashboard.json'), 'utf8')) as { uid: string; panels: { id: number; targets: { expr: string }[] }[] };
    expect(dashboard.uid).toBe('academy-overview');
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    const used = dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricsIn(target.expr)));
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((name) => !defined.has(name))).toEqual([]);
    expect(PIPELINE.filter((name) => !used.includes(name))).toEqual([]);
  });

  test('the PrometheusRule names metrics the code defines, alerts on each part of the event pipeline, and every alert has a severity and a summary', () => {
    const rule = parse(readFileSync(path.join(dir, 'alerts.yaml'), 'utf8')) as { kind: string; spec: { groups: { rules: { alert: string; expr: string; labels: { severity: string }; annotations: { summary: string } }[] }[] } };
    expect(rule.kind).toBe('PrometheusRule');
    const rules = rule.spec.groups.flatMap((group) => group.rules);
    expect(rules.map((r) => r.alert)).toEqual(expect.arrayContaining(['AcademyOutboxStuck', 'AcademyDeadLetters', 'AcademyConsumerRetrying', 'AcademyEventsDelayed', 'AcademyDeadLettersWaiting', 'AcademyMailStuck', 'AcademyMailParked', 'AcademyPushFailing']));
    for (const r of rules) expect([r.alert, ['page', 'ticket'].includes(r.labels.severity), Boolean(r.annotations.summary)]).toEqual([r.alert, true, true]);
    const used = rules.flatMap((r) => metricsIn(r.expr));
    expect(used.filter((name) => !defined.has(name))).toEqual([]);
    expect(PIPELINE.filter((name) => !used.includes(name))).toEqual([]);
  });
});
