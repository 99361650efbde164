import type { ReadinessCheck } from '@academy/kit';
import type { Upstreams } from './proxy.ts';

/**
 * A service is ready when its own `/readyz` says so (its database, broker and cache): 200 is ready
 * (a `degraded` service still serves, and the check shows what it lacks), anything else is not.
 */
export function upstreamReadiness(upstreams: Upstreams, timeoutMs = 1500): ReadinessCheck[] {
  return Object.entries(upstreams).map(([service, url]) => ({
    name: service,
    check: async () => {
      const res = await fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(timeoutMs) });
      const report = (await res.json().catch(() => null)) as { status?: unknown; checks?: Record<string, { ok?: boolean }> } | null;
      if (!res.ok) throw new Error(`${service} /readyz answered ${res.status}`);
      if (report?.status !== 'degraded') return;
      const failing = Object.entries(report.checks ?? {}).filter(([, check]) => check?.ok === false).map(([name]) => name);
      return { status: 'degraded', failing: failing.join(', ') };
    },
  }));
}
