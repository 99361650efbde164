import type { Readable } from 'node:stream';

/**
 * A JSON answer already serialized (a cached report or listing) or a file of the route's other
 * content type (CSV): the router sends bytes and streams as they are, while the contract types only
 * the route's JSON body, which this body stands for.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the router sends it untouched; its JSON schema types an object
export const sentAsIs = (body: Buffer | Readable): any => body;

/** The content type of a JSON answer sent as text. */
export const JSON_TEXT: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
