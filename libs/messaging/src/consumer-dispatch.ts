import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@academy/kit';

/** Handles deliveries of one channel together; settles each of them (ack, retry or DLQ). */
export type HandleDeliveries = (ch: ConfirmChannel, messages: ConsumeMessage[]) => Promise<void>;

export interface Dispatcher {
  /** Hands a delivery to `handle`: at once with a batch size of 1, else with those that arrive in the same turn. */
  deliver(ch: ConfirmChannel, message: ConsumeMessage): void;
  /** Hands what is waiting, then waits for every delivery in hand to settle, `graceMs` at most. */
  drain(graceMs: number): Promise<void>;
  /** Deliveries received and not settled yet. */
  readonly inFlight: number;
}

export function createDispatcher(batchSize: number, handle: HandleDeliveries, log: Logger): Dispatcher {
  const inFlight = new Set<Promise<void>>();
  let busy = 0;
  let waiting: { ch: ConfirmChannel; message: ConsumeMessage }[] = [];
  let flushScheduled = false;

  const run = (work: Promise<void>, size: number) => {
    busy += size;
    const settled = work.catch((error: unknown) => {
      log.error({ err: error }, 'could not settle a message; it will be redelivered');
    });
    inFlight.add(settled);
    void settled.finally(() => {
      inFlight.delete(settled);
      busy -= size;
    });
  };

  /** Hands the deliveries that arrived meanwhile to `handle`, at most `batchSize` at a time and one channel's together. */
  const flush = () => {
    flushScheduled = false;
    const taken = waiting;
    waiting = [];
    for (let i = 0; i < taken.length; i += batchSize) {
      const chunk = taken.slice(i, i + batchSize);
      const ch = chunk[0].ch;
      const same = chunk.filter((entry) => entry.ch === ch).map((entry) => entry.message);
      run(handle(ch, same), same.length);
      const others = chunk.filter((entry) => entry.ch !== ch);
      for (const entry of others) run(handle(entry.ch, [entry.message]), 1);
    }
  };

  return {
    deliver(ch, message) {
      if (batchSize === 1) {
        run(handle(ch, [message]), 1);
        return;
      }
      waiting.push({ ch, message });
      if (waiting.length >= batchSize) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flush);
      }
    },
    async drain(graceMs) {
      flush();
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          graceTimer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(graceTimer);
    },
    get inFlight() {
      return busy + waiting.length;
    },
  };
}
