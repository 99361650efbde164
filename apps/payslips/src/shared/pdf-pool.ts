import { once } from 'node:events';
import { Piscina } from 'piscina';
import { inSpan } from '@academy/kit';
import type { Inspection, InspectTask, LOADED as WorkerLoaded, PageReading, ReadTask, SplitTask } from '../pdf.worker.ts';

export type { Inspection, PageReading, PdfProblem } from '../pdf.worker.ts';

/** What a thread posts once its module has loaded (the worker's own constant, checked by the compiler; imported as a value it would load pdf.js here). */
const LOADED: typeof WorkerLoaded = 'pdfWorkerLoaded';

/** How long `close` waits for a starting thread to finish loading its module before stopping it anyway. */
const LOAD_WAIT_MS = 15_000;

/** How long a read or a split (off the request path) may run before its worker is stopped (a PDF built to make the parser spin). */
const BACKGROUND_TIMEOUT_MS = 10 * 60_000;

/** The check was given up: its request went away (`signal`). */
export class PdfCheckAborted extends Error {}
/** The check passed its time limit (waiting for a busy worker included). */
export class PdfCheckTimedOut extends Error {}

/**
 * The worker threads that read and split PDFs (`pdf.worker.ts`), so the event loop keeps answering
 * while a 1,000-page PDF is read. Each worker's heap is bounded: a PDF that needs more ends its
 * task (and that worker), never the service.
 */
export class PdfPool {
  private readonly pool: Piscina;
  private readonly inspectTimeoutMs: number;
  /** The threads (by id) whose module has loaded: the only ones `close` may stop at once. */
  private readonly loaded = new Set<number>();

  /**
   * `worker`: the worker's entry point (`src/pdf.worker.ts`, or its bundle next to `main.js`);
   * `inspectTimeoutMs`: the time limit of an upload's check, queueing included (below the gateway's timeout).
   */
  constructor(worker: URL, threads: number, inspectTimeoutMs: number) {
    this.inspectTimeoutMs = inspectTimeoutMs;
    this.pool = new Piscina({
      filename: worker.href,
      // One thread is kept started, its PDF libraries loaded: an upload's check does not wait for a cold start.
      minThreads: 1,
      maxThreads: threads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: 768 },
    });
    this.pool.on('message', (message: unknown) => {
      const id = (message as Record<string, unknown> | null)?.[LOADED];
      if (typeof id === 'number') {
        this.loaded.add(id);
        this.pool.emit(LOADED);
      }
    });
  }

  /** One task in a worker thread, in a span of its own (`pdf read`, …): its time, queueing included, shows in the request's or the event's trace. */
  private run<T>(name: 'inspect' | 'read' | 'split', task: object, signal: AbortSignal): Promise<T> {
    return inSpan(`pdf ${name}`, { attributes: { 'academy.pdf.task': name } }, () => this.pool.run(task, { name, signal }) as Promise<T>);
  }

  /**
   * An upload's check, given up (its task dequeued, or its worker stopped) when `signal` aborts (the
   * request went away: `PdfCheckAborted`) or after the check's time limit (`PdfCheckTimedOut`). A
   * worker that fails otherwise (out of memory) makes the PDF unreadable.
   */
  async inspect(task: InspectTask, signal: AbortSignal): Promise<Inspection> {
    const timeout = AbortSignal.timeout(this.inspectTimeoutMs);
    try {
      return await this.run<Inspection>('inspect', task, AbortSignal.any([signal, timeout]));
    } catch {
      if (signal.aborted) throw new PdfCheckAborted('the request went away during its PDF check');
      if (timeout.aborted) throw new PdfCheckTimedOut(`the PDF check took over ${this.inspectTimeoutMs} ms`);
      return { ok: false, problem: 'PDF_UNREADABLE' };
    }
  }

  read(task: ReadTask): Promise<PageReading[]> {
    return this.run('read', task, AbortSignal.timeout(BACKGROUND_TIMEOUT_MS));
  }

  split(task: SplitTask): Promise<Uint8Array[]> {
    return this.run('split', task, AbortSignal.timeout(BACKGROUND_TIMEOUT_MS));
  }

  /**
   * Stops every thread, once each has loaded its module (at most `LOAD_WAIT_MS`): Node 22 aborts the
   * whole process (`v8::Module::IsGraphAsync`) when a thread is terminated while `require`
   * instantiates its ES module, which a thread started just before shutdown (or replacing one
   * stopped by a time limit) may be doing.
   */
  async close(): Promise<void> {
    const deadline = AbortSignal.timeout(LOAD_WAIT_MS);
    while (!deadline.aborted && this.pool.threads.some((thread) => !this.loaded.has(thread.threadId))) {
      await once(this.pool, LOADED, { signal: AbortSignal.any([deadline, AbortSignal.timeout(100)]) }).catch(() => {});
    }
    await this.pool.destroy();
  }
}
