// Checks real answers against the OpenAPI document the gateway serves, as an outside validator (or
// a generated client) reads it: OpenAPI 3.1 schemas are JSON Schema 2020-12, so Ajv's 2020 dialect
// with its formats validates them as written, `$ref`s into `components` resolved in the document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument, type OpenApiDocument } from '@academy/contracts';

// ajv-formats is CommonJS: its function is the default export's default under native ES modules.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const DOCUMENT_ID = 'https://academy.local/openapi.json';

/** A JSON Pointer segment: `/` and `~` escaped (RFC 6901). */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export interface OpenApiAnswer {
  status: number;
  body: unknown;
}

export interface OpenApiResponseValidator {
  /**
   * Where `answer` departs from what the document says `method path` answers with its status
   * (`path` as the document writes it, `{param}` and all): each a line naming the place and the
   * rule broken; empty when it matches. An undocumented status or a documented one without a JSON
   * body is a departure too.
   */
  departures(method: string, path: string, answer: OpenApiAnswer): string[];
}

/** A validator of answers against `document` (the gateway's, by default). */
export function openApiResponseValidator(document: OpenApiDocument = buildOpenApiDocument()): OpenApiResponseValidator {
  // strict: false, since OpenAPI adds its own keywords (`example`, …) beside JSON Schema's.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID } as object);
  const compiled = new Map<string, ValidateFunction>();

  return {
    departures(method, path, answer) {
      const operation = document.paths?.[path]?.[method.toLowerCase() as 'get'];
      if (!operation) return [`${method.toUpperCase()} ${path} is not in the document`];
      const own = operation.responses?.[String(answer.status)] as { content?: Record<string, unknown>; $ref?: string } | undefined;
      // A shared answer (the Idempotency-Key's 409 and 422) is a `$ref` to `#/components/responses/…`.
      const shared = own?.$ref?.startsWith('#/components/responses/') ? own.$ref.slice('#/components/responses/'.length) : undefined;
      const response = (shared === undefined ? own : document.components?.responses?.[shared]) as { content?: Record<string, unknown> } | undefined;
      if (!response) return [`${method.toUpperCase()} ${path} does not document status ${answer.status}`];
      if (!response.content?.['application/json']) return [`${method.toUpperCase()} ${path} documents no JSON body for status ${answer.status}`];
      const at = shared === undefined ? `paths/${pointer(path)}/${method.toLowerCase()}/responses/${answer.status}` : `components/responses/${pointer(shared)}`;
      const ref = `${DOCUMENT_ID}#/${at}/content/${pointer('application/json')}/schema`;
      let validate = compiled.get(ref);
      if (!validate) {
        validate = ajv.compile({ $ref: ref });
        compiled.set(ref, validate);
      }
      if (validate(answer.body)) return [];
      return (validate.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message} (${error.schemaPath})`);
    },
  };
}
