import type { z } from 'zod';

/** The parsed body or query of a contract schema. */
export type Input<T extends z.ZodType> = z.infer<T>;
/** The row a get, update or remove names (the route's `:id`). */
export type ById = { id: number };
/** What a write that may record `employee.upserted` passes on: the key of the tax id's digest too. */
export type EmployeeMeta = { correlationId: string; taxIdDigestKey: string };
