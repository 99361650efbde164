import { z } from 'zod';
import { parseFileKeys } from './encrypted-storage.ts';

/**
 * A configuration entry holding the keys of files encrypted at rest: `id:base64(32 bytes)` separated by
 * commas, the first encrypts new files, every one listed reads the files that name it (rotation). A
 * malformed value is a configuration error naming what is wrong, never a start with a broken key.
 */
export const fileKeysSetting = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      try {
        return parseFileKeys(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
