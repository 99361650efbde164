// A render counter for the production build, for the review queue's rows: React calls the DevTools
// hook on every commit (in production too). After each commit it walks what React entered: a fiber
// rendered in that commit when React flagged it PerformedWork (flags & 1); a subtree React did not
// enter keeps its fibers (the same child as before) and is skipped, so its old flags are not read.
// A row is a component whose element is <li class="row"> (the queue's PendingRow).
import type { Page } from '@playwright/test';

interface Fiber {
  tag: number;
  type: unknown;
  flags: number;
  child: Fiber | null;
  sibling: Fiber | null;
  alternate: Fiber | null;
  memoizedProps: { className?: unknown } | null;
}

interface Counter {
  rendered: number;
  mounted: number;
}

/** Runs in the page before React loads (page.addInitScript): the hook React finds and reports its commits to. */
function install(): void {
  const counter: Counter = { rendered: 0, mounted: 0 };
  const FUNCTION = 0;
  const SIMPLE_MEMO = 15;
  const HOST = 5;
  const PERFORMED_WORK = 1;
  const isRow = (fiber: Fiber) =>
    (fiber.tag === FUNCTION || fiber.tag === SIMPLE_MEMO) && fiber.child?.tag === HOST && fiber.child.type === 'li' && fiber.child.memoizedProps?.className === 'row';
  const walk = (next: Fiber, previous: Fiber | null) => {
    if (isRow(next)) {
      if (!previous) counter.mounted++;
      else if (next.flags & PERFORMED_WORK) counter.rendered++;
    }
    if (previous && next.child === previous.child) return;
    for (let child = next.child; child; child = child.sibling) walk(child, child.alternate);
  };
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.__rowRenders = counter;
  scope.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_renderer: number, root: { current: Fiber }) => walk(root.current, root.current.alternate),
  };
}

/** Counts the review queue's row renders in this page from its next load on. */
export const countRowRenders = async (page: Page): Promise<void> => {
  await page.addInitScript(install);
};

/** The rows rendered again (not mounted) since the last reset, and the rows mounted. */
export const rowRenders = (page: Page): Promise<Counter> => page.evaluate(() => ({ ...(globalThis as unknown as { __rowRenders: Counter }).__rowRenders }));

export const resetRowRenders = (page: Page): Promise<void> =>
  page.evaluate(() => {
    const counter = (globalThis as unknown as { __rowRenders: Counter }).__rowRenders;
    counter.rendered = 0;
    counter.mounted = 0;
  });
