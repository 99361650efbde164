import { z } from 'zod';

/** The default error body: `{ code, message, details?, requestId }`. */
export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
  requestId: z.string(),
});

/** Error body of the event-assignment routes, fixed by the spec. */
export const StatusErrorBody = z.object({ status: z.literal('error'), message: z.string(), code: z.string().optional(), requestId: z.string().optional() });

/** Error body of the notification routes, fixed by the spec. */
export const SuccessErrorBody = z.object({ success: z.literal(false), message: z.string(), code: z.string().optional(), requestId: z.string().optional() });

/** A response whose fields the spec does not show. */
export const UnspecifiedObject = z.record(z.string(), z.unknown());

export const IdPathParam = (name: string) => z.object({ [name]: z.coerce.number().int().positive() });

/** A JSON response of `schema`, for `registerPath` responses. */
export const jsonContent = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
