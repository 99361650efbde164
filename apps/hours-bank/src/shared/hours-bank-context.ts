import { implementFor, type ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';

/** What hours-bank's use cases work with: the service's context (its ORM, its clock). Nothing per instance beyond it. */
export type HoursBankContext = ServiceContext<Config>;

/** Implements a contract with handlers that take this service's context (`hours-bank.routes.ts`). */
export const implement = implementFor<HoursBankContext>();
