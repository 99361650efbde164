import path from 'node:path';
import { diskStorage, type FileStorage } from '@academy/files';
import { Sql } from '@academy/db';
import type { Clock, Logger } from '@academy/kit';
import type { OutboxRelay } from '@academy/messaging';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';
import { IncidentCache } from './cache.ts';

/** What the use cases of this service work with, built once per running service. */
export interface Incidents {
  db: Sql;
  cache: IncidentCache;
  storage: FileStorage;
  relay: OutboxRelay;
  config: Config;
  logger: Logger;
  /** "Now" for the clock-ins and -outs, incidents, the check and the history (the service's clock). */
  clock: Clock;
}

const built = new WeakMap<ServiceContext<Config>, Incidents>();

export function incidentsOf(ctx: ServiceContext<Config>): Incidents {
  let incidents = built.get(ctx);
  if (!incidents) {
    incidents = {
      db: new Sql(ctx.orm.em),
      cache: new IncidentCache(ctx.redis, { prefix: ctx.config.CACHE_KEY_PREFIX, ttlSeconds: ctx.config.CACHE_TTL_SECONDS, logger: ctx.logger }),
      storage: diskStorage(path.resolve(ctx.config.FILES_DIR)),
      relay: ctx.relay,
      config: ctx.config,
      logger: ctx.logger,
      clock: ctx.clock,
    };
    built.set(ctx, incidents);
  }
  return incidents;
}
