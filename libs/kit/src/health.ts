/** A dependency that `/readyz` checks: its own database, the broker, the cache. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void> | void;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, { ok: boolean; error?: string; ms: number }>;
}

export async function runReadiness(checks: ReadinessCheck[], timeoutMs = 2000): Promise<ReadinessReport> {
  const entries = await Promise.all(
    checks.map(async ({ name, check }) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(check),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [name, { ok: true, ms: Math.round(performance.now() - started) }] as const;
      } catch (error) {
        return [name, { ok: false, error: (error as Error).message, ms: Math.round(performance.now() - started) }] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const report = Object.fromEntries(entries);
  return { status: entries.every(([, r]) => r.ok) ? 'ready' : 'not_ready', checks: report };
}
