import fc from 'fast-check';
import { edgeJson, edgeNumber, edgeString, wellFormed } from './fuzz-values';

// Requests generated from an OpenAPI 3 document (schemathesis-style): for every operation, its path parameters,
// query parameters and JSON body drawn from their schemas, with edge values mixed in at every level so that both
// accepted and refused requests are exercised.

type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}

export interface GeneratedRequest {
  method: string;
  /** The operation, as the document names it: `POST /openapi/v3/entity/dataset/{urn}/status`. */
  operation: string;
  path: string;
  /** JSON text, or deliberately broken text; absent: no body. */
  body?: string;
}

const METHODS = ['get', 'head', 'post', 'patch', 'delete', 'put'];
/** How deep a generated body goes before the rest is left to an edge value (aspects nest deeply). */
const MAX_DEPTH = 6;

/** URN-typed strings: mostly URNs of the entity type the schema asks for (`urns(type)`), some of others, some junk. */
export type UrnPool = (entityType: string | undefined) => readonly string[];

/** Every operation of the document with an arbitrary of its requests. */
export function operationRequests(document: OpenApiDocument, urns: UrnPool): fc.Arbitrary<GeneratedRequest>[] {
  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()]!) : schema);

  /** A value of `schema`, now and then an edge value in its place. */
  const value = (schema: Schema, depth: number): fc.Arbitrary<unknown> => {
    if (depth >= MAX_DEPTH) return fc.oneof(fc.constant({}), edgeJson);
    // Built when drawn (chain), so that a schema's nested schemas cost nothing until a value goes that deep.
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant(null).chain(() => valid(resolve(schema), depth)) },
      { weight: 1, arbitrary: edgeJson },
    );
  };

  const valid = (schema: Schema, depth: number): fc.Arbitrary<unknown> => {
    if (schema.oneOf) return fc.oneof(...(schema.oneOf as Schema[]).map((member) => value(member, depth + 1)));
    if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
    switch (schema.type) {
      case 'string':
        return typeof schema.pattern === 'string' && schema.pattern.startsWith('^urn:li:')
          ? fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...urns(/^\^urn:li:(\w+):/.exec(schema.pattern)?.[1])) },
              { weight: 1, arbitrary: edgeString },
            )
          : fc.oneof(fc.string({ maxLength: 12 }), edgeString);
      case 'integer':
        return fc.oneof(fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1_000 }), edgeNumber);
      case 'number':
        return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), edgeNumber);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(value(schema.items ?? {}, depth + 1), { maxLength: 3 });
      case 'object':
        return objectOf(schema, depth);
      default:
        return edgeJson;
    }
  };

  /** Required properties always, optional ones sometimes, and now and then a property the schema does not name. */
  const objectOf = (schema: Schema, depth: number): fc.Arbitrary<unknown> => {
    const properties = Object.entries<Schema>(schema.properties ?? {});
    const required = new Set<string>(schema.required ?? []);
    const named = fc.record(Object.fromEntries(properties.map(([name, property]) => [name, value(property, depth + 1)])), {
      requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
    });
    const extra = typeof schema.additionalProperties === 'object' ? value(schema.additionalProperties, depth + 1) : edgeJson;
    return fc
      .tuple(named, fc.dictionary(edgeString, extra, { maxKeys: properties.length ? 1 : 3 }))
      .map(([known, more]) => ({ ...more, ...known }));
  };

  /** A query or path parameter's text: a value of its schema, or an edge string. */
  const parameterText = (schema: Schema): fc.Arbitrary<string> =>
    fc.oneof(
      { weight: 4, arbitrary: valid(resolve(schema), MAX_DEPTH - 1).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
      { weight: 1, arbitrary: edgeString },
    );

  const requests: fc.Arbitrary<GeneratedRequest>[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    for (const method of METHODS.filter((m) => item[m])) {
      const operation = item[method] as Operation;
      const parameters = [...shared, ...(operation.parameters ?? [])];
      const pathParameters = parameters.filter((p) => p.in === 'path');
      const entityType = /\/entity\/(\w+)\/\{urn\}/.exec(template)?.[1];
      const pathValues = fc.record(
        Object.fromEntries(
          pathParameters.map((p) => [
            p.name,
            p.name === 'urn'
              ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...urns(entityType)) }, { weight: 1, arbitrary: edgeString })
              : parameterText(p.schema),
          ]),
        ),
      );
      const queryParameters = parameters.filter((p) => p.in === 'query');
      const query = queryParameters.length
        ? fc.array(
            fc
              .constantFrom(...queryParameters)
              .chain((p) =>
                resolve(p.schema).type === 'array'
                  ? fc
                      .array(parameterText(p.schema.items ?? {}), { minLength: 1, maxLength: 3 })
                      .map((values) => values.map((v) => [p.name, v] as const))
                  : parameterText(p.schema).map((v) => [[p.name, v] as const]),
              ),
            { maxLength: 3 },
          )
        : fc.constant([]);
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const body: fc.Arbitrary<string | undefined> = bodySchema
        ? fc.oneof(
            { weight: 10, arbitrary: value(bodySchema, 0).map((v) => JSON.stringify(v) ?? 'null') },
            { weight: 1, arbitrary: fc.constantFrom('', '{', '[1,', 'null', '"text"', '{"a":1}{') },
          )
        : fc.constant(undefined);
      requests.push(
        fc
          .record({ pathValues, query: query.map((pairs) => pairs.flat()), body })
          .map(({ pathValues: values, query: pairs, body: text }) => {
            const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(wellFormed(String(values[name]))));
            const search = new URLSearchParams(pairs.map(([k, v]) => [k, v])).toString();
            return {
              method: method.toUpperCase(),
              operation: `${method.toUpperCase()} ${template}`,
              path: search ? `${path}?${search}` : path,
              ...(text === undefined ? {} : { body: text }),
            };
          }),
      );
    }
  }
  return requests;
}
