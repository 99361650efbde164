// `npm run trace -- <request id | trace id>`: the span tree of one request, with times, from the
// spans `npm start`'s local OTLP receiver stored (tools/dev/otlp-receiver.ts). With no argument: the
// latest traces. `--file <spans.jsonl>` reads another store (a system test's).
import path from 'node:path';
import { repoRoot } from '@academy/infra';
import { readSpans, type StoredSpan } from './dev/otlp-receiver.ts';

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/** The trace ids a request id or trace id names (a request id is on its HTTP spans as `academy.request_id`). */
export function traceIdsFor(all: StoredSpan[], id: string): string[] {
  if (/^[0-9a-f]{32}$/i.test(id)) return [id.toLowerCase()];
  return [...new Set(all.filter((span) => span.attributes['academy.request_id'] === id).map((span) => span.traceId))];
}

/** The tree of one trace as lines: offset from the trace's start, duration, name, service, and what went wrong. */
export function renderTrace(all: StoredSpan[], traceId: string): string[] {
  const trace = all.filter((span) => span.traceId === traceId).sort((a, b) => a.startMs - b.startMs);
  if (!trace.length) return [`trace ${traceId}: no spans (yet: spans are exported in batches, up to a few seconds late)`];
  const ids = new Set(trace.map((span) => span.spanId));
  const children = new Map<string | null, StoredSpan[]>();
  for (const span of trace) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const start = trace[0].startMs;
  const end = Math.max(...trace.map((span) => span.endMs));
  const lines = [`trace ${traceId}: ${trace.length} spans, ${fmt(end - start)}, services ${[...new Set(trace.map((span) => span.service))].join(', ')}`];
  const walk = (parent: string | null, depth: number) => {
    for (const span of children.get(parent) ?? []) {
      const orphan = depth === 0 && span.parentSpanId ? ' (parent not received)' : '';
      const error = span.status.code === 2 ? `  ERROR ${span.status.message ?? ''}` : '';
      const links = span.links.length ? `  links ${span.links.map((link) => `${link.traceId}/${link.spanId}`).join(', ')}` : '';
      lines.push(`${`+${fmt(span.startMs - start)}`.padStart(11)} ${fmt(span.endMs - span.startMs).padStart(9)}  ${'  '.repeat(depth)}${span.name} [${span.service}]${orphan}${error}${links}`);
      walk(span.spanId, depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const fileAt = args.indexOf('--file');
  const file = fileAt >= 0 ? path.resolve(args.splice(fileAt, 2)[1]) : path.join(repoRoot, '.local/dev/traces/spans.jsonl');
  const wanted = args[0];
  const spans = readSpans(file);
  if (!wanted) {
    const roots = spans.filter((span) => !span.parentSpanId).slice(-20);
    if (!roots.length) console.log(`no spans in ${path.relative(process.cwd(), file)} (is \`npm start\` running, with tracing on?)`);
    for (const root of roots) console.log(`${new Date(root.startMs).toISOString()} ${root.traceId} ${fmt(root.endMs - root.startMs).padStart(9)}  ${root.name} [${root.service}]${root.attributes['academy.request_id'] ? ` request ${root.attributes['academy.request_id']}` : ''}`);
  } else {
    const traceIds = traceIdsFor(spans, wanted);
    if (!traceIds.length) {
      console.error(`no trace for request id ${wanted} in ${path.relative(process.cwd(), file)}`);
      process.exit(1);
    }
    for (const traceId of traceIds) console.log(renderTrace(spans, traceId).join('\n'));
  }
}
