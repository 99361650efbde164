import type { RequestHandler } from 'express';
import { z } from 'zod';
import { IdText, NoQuery } from '@academy/contracts';

/**
 * The one reader of ids in paths (and other text): the contracts' `IdText` grammar, digits only,
 * no sign, no leading zero, below 2^31. `undefined` when `value` is not such an id.
 */
export function readId(value: unknown): number | undefined {
  const parsed = IdText.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

// One schema per parameter name, built once: zod compiles an object schema on its first parse, which
// per request cost as much CPU as the rest of a hours-bank POST's validation.
const paramSchemas = new Map<string, z.ZodObject>();
function paramSchema(name: string): z.ZodObject {
  let schema = paramSchemas.get(name);
  if (!schema) paramSchemas.set(name, (schema = z.object({ [name]: IdText })));
  return schema;
}

/**
 * Reads path parameter `name` as an id. A malformed one is a 400: by default a VALIDATION_ERROR
 * naming the parameter; where the spec fixes the error of a route family ("Employee ID is
 * required", STUDENT_BLOCK_ID_REQUIRED), `invalid` builds it from what was wrong.
 */
export function idParam(params: Record<string, unknown>, name: string, invalid?: (details: string[]) => Error): number {
  const parsed = paramSchema(name).safeParse(params);
  if (parsed.success) return parsed.data[name] as number;
  if (invalid) throw invalid(parsed.error.issues.map((issue) => issue.message));
  throw parsed.error;
}

/**
 * Mounted before the handler of a route that takes no query: any query parameter is a 400 naming
 * it, as the routes with a query refuse the ones they do not read (their `queryObject` schemas).
 */
export const noQuery: RequestHandler = (req, _res, next) => {
  NoQuery.parse(req.query);
  next();
};
