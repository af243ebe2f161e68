import type { JsonSchema } from './json-schema';

// The building blocks of the OpenAPI document's operations (api-docs.ts, api-docs-v1.ts).

export const upperFirst = (name: string) => name[0]!.toUpperCase() + name.slice(1);
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** Query parameters, by name, as DataHub's controller declares them. */
export const query = (name: string, schema: JsonSchema, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
export const bool = (name: string, fallback: boolean, description: string) =>
  query(name, { type: 'boolean', default: fallback }, description);

/** Error answers, shared by every operation: DataHub OpenAPI's `{"error": "<message>"}`. */
export const ERRORS = {
  400: 'Bad request: a bad URN, parameter or body',
  401: 'No or bad credentials',
  403: 'The caller lacks the privilege',
  404: 'Unknown entity type, entity or aspect',
  422: 'The aspect value fails validation, or a conditional write fails',
};
export const errorResponses = (...codes: (keyof typeof ERRORS)[]) =>
  Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/responses/Error${code}` }]));
export const answer = (description: string, schema?: JsonSchema) => ({ description, ...(schema ? { content: jsonContent(schema) } : {}) });
