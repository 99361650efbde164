import { z } from 'zod';
import { IdText } from '@academy/contracts';

/** Ids are positive integers: `0`, `-1`, `1.5`, `abc` and values past 2^31-1 are refused. */
export const positiveInt = IdText;

/** Reads a path parameter as an id; a malformed one is a 400 naming the parameter. */
export function idParam(params: Record<string, string | undefined>, name: string) {
  return z.object({ [name]: positiveInt }).parse(params)[name] as number;
}
