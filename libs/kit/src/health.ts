/** What a readiness check may add to the report besides ok/error (a backlog, an age). */
export type ReadinessDetails = Record<string, string | number | boolean | null>;

/** A dependency that `/readyz` checks: its own database, the broker, the cache, the outbox. */
export interface ReadinessCheck {
  name: string;
  /** Resolves (optionally with details for the report) when healthy, throws when not. */
  check: () => Promise<ReadinessDetails | void> | ReadinessDetails | void;
  /**
   * Whether the service cannot serve without it (default true). A failing non-critical check (a
   * cache, an outbox backlog) makes the report `degraded`, still answered 200: the service works,
   * with less, and a load balancer must not take it out of rotation.
   */
  critical?: boolean;
}

export interface ReadinessCheckResult {
  ok: boolean;
  error?: string;
  ms: number;
  /** Present (false) on non-critical checks only. */
  critical?: false;
  details?: ReadinessDetails;
}

export interface ReadinessReport {
  status: 'ready' | 'degraded' | 'not_ready';
  checks: Record<string, ReadinessCheckResult>;
}

/** `not_ready` when a critical check fails, `degraded` when only non-critical ones do, else `ready`. */
export async function runReadiness(checks: ReadinessCheck[], timeoutMs = 2000): Promise<ReadinessReport> {
  const entries = await Promise.all(
    checks.map(async ({ name, check, critical = true }): Promise<[string, ReadinessCheckResult]> => {
      const started = performance.now();
      const flags = critical ? {} : { critical: false as const };
      let timer: NodeJS.Timeout | undefined;
      try {
        const details = await Promise.race([
          Promise.resolve().then(check),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return [name, { ok: true, ms: Math.round(performance.now() - started), ...flags, ...(details ? { details } : {}) }];
      } catch (error) {
        const details = (error as { details?: ReadinessDetails }).details;
        return [name, { ok: false, error: (error as Error).message, ms: Math.round(performance.now() - started), ...flags, ...(details ? { details } : {}) }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const failed = entries.filter(([, result]) => !result.ok);
  const status = failed.length === 0 ? 'ready' : failed.some(([, result]) => result.critical !== false) ? 'not_ready' : 'degraded';
  return { status, checks: Object.fromEntries(entries) };
}

/** The HTTP status of `/readyz`: 503 only when not ready (a degraded service still serves). */
export const readinessHttpStatus = (report: ReadinessReport) => (report.status === 'not_ready' ? 503 : 200);

/** An error whose details go into the readiness report (e.g. the outbox backlog that made it fail). */
export class ReadinessError extends Error {
  readonly details: ReadinessDetails;
  constructor(message: string, details: ReadinessDetails) {
    super(message);
    this.name = 'ReadinessError';
    this.details = details;
  }
}
