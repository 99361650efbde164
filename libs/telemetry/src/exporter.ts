import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * An exporter whose failures (collector unreachable, refusing, too slow) drop the batch and say so
 * on stderr at most once a minute, with how many spans were lost since the last warning. A request
 * never waits for it: spans reach it through the batch processor, off the request's path.
 */
export class DroppingExporter implements SpanExporter {
  private dropped = 0;
  private lastWarning = 0;
  private readonly inner: SpanExporter;
  private readonly service: string;
  private readonly now: () => number;

  constructor(inner: SpanExporter, service: string, now: () => number = Date.now) {
    this.inner = inner;
    this.service = service;
    this.now = now;
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== 0) this.drop(spans.length, result.error);
      done(result);
    });
  }

  private drop(count: number, error: Error | undefined): void {
    this.dropped += count;
    const now = this.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    const line = { level: 40, time: new Date(now).toISOString(), service: this.service, msg: `telemetry: ${this.dropped} span(s) dropped, the collector did not take them`, err: error?.message };
    this.dropped = 0;
    process.stderr.write(`${JSON.stringify(line)}\n`);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
