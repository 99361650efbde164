import type { ReadinessCheck } from '@academy/kit';
import type { Upstreams } from './proxy.ts';

/** A service is ready when its own `/readyz` says so (its database, broker and cache). */
export function upstreamReadiness(upstreams: Upstreams, timeoutMs = 1500): ReadinessCheck[] {
  return Object.entries(upstreams).map(([service, url]) => ({
    name: service,
    check: async () => {
      const res = await fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`${service} /readyz answered ${res.status}`);
    },
  }));
}
