import { Piscina } from 'piscina';
import type { Inspection, InspectTask, PageReading, ReadTask, SplitTask } from '../pdf.worker.ts';

export type { Inspection, PageReading, PdfProblem } from '../pdf.worker.ts';

/** How long one task may run before its worker is stopped (a PDF built to make the parser spin). */
const TASK_TIMEOUT_MS = { inspect: 60_000, read: 10 * 60_000, split: 10 * 60_000 };

/**
 * The worker threads that read and split PDFs (`pdf.worker.ts`), so the event loop keeps answering
 * while a 1,000-page PDF is read. Each worker's heap is bounded: a PDF that needs more ends its
 * task (and that worker), never the service.
 */
export class PdfPool {
  private readonly pool: Piscina;

  /** `worker`: the worker's entry point (`src/pdf.worker.ts`, or its bundle next to `main.js`). */
  constructor(worker: URL, threads: number) {
    this.pool = new Piscina({
      filename: worker.href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      resourceLimits: { maxOldGenerationSizeMb: 768 },
    });
  }

  private run<T>(name: keyof typeof TASK_TIMEOUT_MS, task: object): Promise<T> {
    return this.pool.run(task, { name, signal: AbortSignal.timeout(TASK_TIMEOUT_MS[name]) }) as Promise<T>;
  }

  /** A worker that fails (out of memory, too slow) makes the PDF unreadable. */
  async inspect(task: InspectTask): Promise<Inspection> {
    return this.run<Inspection>('inspect', task).catch(() => ({ ok: false, problem: 'PDF_UNREADABLE' }) as const);
  }

  read(task: ReadTask): Promise<PageReading[]> {
    return this.run('read', task);
  }

  split(task: SplitTask): Promise<Uint8Array[]> {
    return this.run('split', task);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
