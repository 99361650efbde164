import path from 'node:path';
import { diskStorage, type FileStorage } from '@academy/files';
import { implementFor, type ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { IncidentCache } from './cache.ts';
import { Sql } from './db.ts';

/** What the use cases of this service work with: the service's context and what its `setup` builds once per instance. */
export interface IncidentsContext extends ServiceContext<Config> {
  /** Prepared statements on the service's EntityManager (the request's transaction when there is one). */
  db: Sql;
  cache: IncidentCache;
  storage: FileStorage;
}

export function createIncidentsContext(ctx: ServiceContext<Config>): IncidentsContext {
  return {
    ...ctx,
    db: new Sql(ctx.orm.em),
    cache: new IncidentCache(ctx.redis, { prefix: ctx.config.CACHE_KEY_PREFIX, ttlSeconds: ctx.config.CACHE_TTL_SECONDS, logger: ctx.logger }),
    storage: diskStorage(path.resolve(ctx.config.FILES_DIR)),
  };
}

/** Implements a contract with handlers that take this service's context (each feature's `<feature>.routes.ts`). */
export const implement = implementFor<IncidentsContext>();
