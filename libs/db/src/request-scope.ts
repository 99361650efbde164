import { AsyncLocalStorage } from 'node:async_hooks';
import { RequestContext, TransactionContext, type EntityManager } from '@mikro-orm/postgresql';

// One EntityManager per HTTP request, as MikroORM's RequestContext gives, but forked on first use:
// a request that never reaches the ORM (a read in plain SQL through `Sql`, a refusal before any
// query) does not pay for a fork. On `GET /payslips/my` through the gateway the fork was the
// largest single cost left in the service (`npm run bench:payslips`: p99 23 → 18 ms with it lazy).

class RequestForks {
  private fork: EntityManager | undefined;
  /** While the fork is being made, its constructor resolves the context too: that is the root. */
  private forking = false;

  readonly root: EntityManager;

  constructor(root: EntityManager) {
    this.root = root;
  }

  /** The request's fork, made now if it was not yet (undefined only while it is being made). */
  get em(): EntityManager | undefined {
    if (this.fork || this.forking) return this.fork;
    this.forking = true;
    try {
      this.fork = this.root.fork({ useContext: true, disableContextResolution: true });
    } finally {
      this.forking = false;
    }
    return this.fork;
  }

  /** The request's fork if something already made it. */
  get made(): EntityManager | undefined {
    return this.fork;
  }
}

const requests = new AsyncLocalStorage<RequestForks>();

/** Runs `work` (and what it starts) as one request of the ORM whose root EntityManager is `root`. */
export function runInRequestScope<T>(root: EntityManager, work: () => T): T {
  return requests.run(new RequestForks(root), work);
}

/**
 * MikroORM's `context` option of an ORM (how its global EntityManager finds the current one): a
 * RequestContext someone opened (a detached piece of work), else this request's fork, made on first use.
 * `root()` is the ORM's own EntityManager: several ORMs may share a process (tests start several services).
 */
export function requestScopedContext(root: () => EntityManager | undefined): (name: string) => EntityManager | undefined {
  return (name) => {
    const opened = RequestContext.getEntityManager(name) as EntityManager | undefined;
    if (opened) return opened;
    const request = requests.getStore();
    return request && request.root === root() ? request.em : undefined;
  };
}

/** The current request's EntityManager (made now if needed), or undefined outside a request. */
export function requestEntityManager(root: EntityManager): EntityManager | undefined {
  const request = requests.getStore();
  return request && request.root === root ? request.em : undefined;
}

/**
 * The EntityManager `em` resolves to right now, without making a request's fork that does not exist
 * yet (none exists: so no transaction either). For `Sql`, which only needs to know whether a
 * transaction is open.
 */
export function currentEntityManagerIfAny(em: EntityManager): EntityManager | undefined {
  if (!em.global) return em;
  const opened = (TransactionContext.getEntityManager(em.name) ?? RequestContext.getEntityManager(em.name)) as EntityManager | undefined;
  if (opened) return opened;
  const request = requests.getStore();
  if (request && request.root === em) return request.made;
  return undefined;
}
