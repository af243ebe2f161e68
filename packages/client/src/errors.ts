import { errorKinds, type ErrorKind } from '@mds/schema';

/**
 * Every error the server answered with, GraphQL or REST, in one shape.
 * `status` is the HTTP status of the response (200 for a GraphQL operation that ran and reported an error);
 * `code` and `type` are DataHub's (`extensions.code`/`type` in GraphQL; derived from the status for REST), so
 * `code === 403` means "forbidden" on both paths.
 */
export class MdsError extends Error {
  override readonly name = 'MdsError';

  constructor(
    message: string,
    readonly status: number,
    readonly code: number,
    readonly type: ErrorKind,
    /** The GraphQL path of the field that failed, when there is one. */
    readonly path?: readonly (string | number)[],
  ) {
    super(message);
  }
}

/** A REST error body (`{message, status}`), or whatever a proxy in between sent. */
export function restError(status: number, body: unknown, text: string): MdsError {
  const message = isRecord(body) && typeof body.message === 'string' ? body.message : text.trim().slice(0, 200) || `HTTP ${status}`;
  return new MdsError(message, status, status, kindOfStatus(status));
}

interface GraphQLErrorJson {
  message?: unknown;
  path?: unknown;
  extensions?: { readonly [key: string]: unknown };
}

/** The first error of a GraphQL answer (DataHub clients read that one); the body text when it is not GraphQL. */
export function graphqlError(status: number, errors: readonly GraphQLErrorJson[] | undefined, text: string): MdsError {
  const first = errors?.[0];
  if (!first) return restError(status, safeJson(text), text);
  const code = typeof first.extensions?.code === 'number' ? first.extensions.code : status >= 400 ? status : 500;
  const type = isErrorKind(first.extensions?.type) ? first.extensions.type : kindOfStatus(code);
  const path = Array.isArray(first.path) ? (first.path as (string | number)[]) : undefined;
  return new MdsError(typeof first.message === 'string' ? first.message : 'GraphQL error', status, code, type, path);
}

const kinds = Object.entries(errorKinds) as [ErrorKind, number][];

function kindOfStatus(status: number): ErrorKind {
  return kinds.find(([, code]) => code === status)?.[0] ?? (status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST');
}

function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && value in errorKinds;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
