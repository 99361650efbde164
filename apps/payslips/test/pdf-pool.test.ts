import { once } from 'node:events';
import { describe, expect, test } from '@jest/globals';
import { PdfPool } from '../src/shared/pdf-pool.ts';

const WORKER = new URL('../src/pdf.worker.ts', import.meta.url);

describe('the PDF worker pool', () => {
  // Node 22 aborts the whole process (v8::Module::IsGraphAsync, "must be used on an instantiated
  // module") when a thread is terminated while `require` instantiates its ES module: a pool closed
  // just after it started a thread (a test's service, a shutdown right after a worker was replaced)
  // once took CI's payslips suite down with it.
  test('closing the pool waits for a starting thread to load its module before stopping it', async () => {
    const pool = new PdfPool(WORKER, 1, 60_000);
    const threads = (pool as unknown as { pool: { threads: { threadId: number }[] } }).pool.threads;
    expect(threads).toHaveLength(1);
    const starting = threads[0].threadId; // a stopped thread's id reads -1
    const loaded: number[] = [];
    (pool as unknown as { pool: NodeJS.EventEmitter }).pool.on('message', (message: { pdfWorkerLoaded?: number }) => {
      if (typeof message?.pdfWorkerLoaded === 'number') loaded.push(message.pdfWorkerLoaded);
    });
    await pool.close();
    expect(loaded).toEqual([starting]);
  });

  test('a closed pool has stopped its threads', async () => {
    const pool = new PdfPool(WORKER, 1, 60_000);
    const [thread] = (pool as unknown as { pool: { threads: NodeJS.EventEmitter[] } }).pool.threads;
    const exited = once(thread, 'exit');
    await pool.close();
    await expect(exited).resolves.toBeDefined();
  });
});
