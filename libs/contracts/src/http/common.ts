import { z } from 'zod';

/**
 * How a route family shapes its error bodies, where the spec fixes one: `default` is `ErrorBody`,
 * `status` is `StatusErrorBody` (event assignment), `success` is `SuccessErrorBody` (notifications).
 */
export type ErrorStyle = 'default' | 'status' | 'success';

/** The default error body: `{ code, message, details?, requestId }`. The one schema of each error style, for every service's docs. */
export const ErrorBody = z
  .object({
    code: z.string().meta({ example: 'VALIDATION_ERROR' }),
    message: z.string(),
    details: z.unknown().optional(),
    requestId: z.string(),
  })
  .meta({ id: 'Error' });

/** Error body of the event-assignment routes, fixed by the spec. */
export const StatusErrorBody = z
  .object({ status: z.literal('error'), message: z.string(), code: z.string().optional(), requestId: z.string().optional() })
  .meta({ id: 'StatusError' });

/** Error body of the notification routes, fixed by the spec. */
export const SuccessErrorBody = z
  .object({ success: z.literal(false), message: z.string(), code: z.string().optional(), requestId: z.string().optional() })
  .meta({ id: 'SuccessError' });

const MAX_ID = 2_147_483_647;

/** Ids are positive integers below 2^31: `0`, `-1`, `1.5`, `abc` and huge values are refused. */
export const Id = z
  .number({ error: 'must be a number' })
  .int({ error: 'must be an integer' })
  .positive({ error: 'must be a positive integer' })
  .max(MAX_ID, { error: 'is too large' });

/**
 * An id written in a path or query string: decimal digits only, no sign, no leading zero, no
 * spaces (`0x1`, `1e0`, `+1`, `01`, ` 1` are refused, not read as 1), with the same bounds.
 */
const idText = (max: number, params?: { error?: string }) =>
  z
    .string({ error: 'must be a positive integer' })
    .regex(/^[1-9][0-9]*$/, { error: 'must be a positive integer in decimal digits (no sign, no leading zero)' })
    .transform(Number)
    .pipe(max === MAX_ID ? Id : Id.max(max, params));
/** `IdText.max(n, { error })` is the same grammar with a lower bound (page sizes). */
export const IdText = Object.assign(idText(MAX_ID), { max: (max: number, params?: { error?: string }) => idText(max, params) });

export const IdPathParam = (name: string) => z.object({ [name]: IdText });

/**
 * The schema of a query string: strict, so a parameter the route does not read (a typo, `foo=1`)
 * is a 400 naming it, never silently ignored. Every route's query goes through one of these.
 */
export const queryObject = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown query parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}` : undefined),
  });

/** The query of a route that takes none: any parameter is a 400. */
export const NoQuery = queryObject({});

/**
 * The `meta` of every paged listing, computed by `pageMeta` (@academy/kit). The spec fixes it for
 * the administrative student listing (`meta.totalItems`, `meta.totalPages`, `meta.currentPage`,
 * `meta.pageSize`; "`totalPages` is totalItems divided by limit, rounded up; it is 1 when that is
 * 0"); every other listing answers the same shape by the same rule.
 */
export const PageMeta = z
  .object({ totalItems: z.number().int(), totalPages: z.number().int(), currentPage: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'PageMeta' });
export type PageMeta = z.infer<typeof PageMeta>;

/**
 * `schema` or null. Use it instead of `.nullable()` on a schema registered with `.meta({ id })`:
 * zod-to-openapi 9 with zod 4 documents that as `allOf: [{$ref}, {type: ['object', 'null']}]`,
 * which no null satisfies (the `$ref` half requires an object); this documents it as
 * `anyOf: [{$ref}, {type: 'null'}]`, exactly one of which any value matches.
 */
export const nullableRef = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

/** A JSON response of `schema`, for `registerPath` responses. */
export const jsonContent = <S extends z.ZodType>(schema: S, description: string) => ({ description, content: { 'application/json': { schema } } });

const errorBodies: Record<ErrorStyle, z.ZodType> = { default: ErrorBody, status: StatusErrorBody, success: SuccessErrorBody };

/**
 * Error responses for `registerPath`, one per status (`{ 401: 'UNAUTHORIZED: …' }`), each with the
 * error body of the route family's `style`.
 */
export const errorResponses = (descriptions: Record<number, string>, style: ErrorStyle = 'default') =>
  Object.fromEntries(Object.entries(descriptions).map(([status, description]) => [status, jsonContent(errorBodies[style], description)]));
