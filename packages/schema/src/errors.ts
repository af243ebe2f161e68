import { GraphQLError } from 'graphql';

/** DataHub's error kinds (spec 4), each with the HTTP-like code clients read from `extensions.code`. */
export const errorKinds = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  UNAUTHORIZED: 403,
  NOT_FOUND: 404,
  /** A request body that came too slowly (the host's body deadline). */
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Rest.li's answer to a value that fails validation (DataHub 1.x). */
  UNPROCESSABLE_ENTITY: 422,
  SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorKind = keyof typeof errorKinds;

export const UNAUTHENTICATED_MESSAGE = 'Unauthorized to perform this action.';
export const FORBIDDEN_MESSAGE = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred.';

/**
 * An error meant for the caller. It is a GraphQLError so GraphQL answers carry `extensions {code, type}` and error
 * masking lets it through; REST paths answer with `status` and `{message, status}`. Anything else is masked.
 */
export class ApiError extends GraphQLError {
  readonly status: number;
  readonly kind: ErrorKind;

  constructor(kind: ErrorKind, message: string) {
    const status = errorKinds[kind];
    super(message, { extensions: { code: status, type: kind } });
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
  }
}

export const badRequest = (message: string) => new ApiError('BAD_REQUEST', message);
export const notFound = (message: string) => new ApiError('NOT_FOUND', message);
export const forbidden = (message: string = FORBIDDEN_MESSAGE) => new ApiError('UNAUTHORIZED', message);
export const conflict = (message: string) => new ApiError('CONFLICT', message);
export const preconditionFailed = (message: string) => new ApiError('PRECONDITION_FAILED', message);
export const unprocessable = (message: string) => new ApiError('UNPROCESSABLE_ENTITY', message);
export const unavailable = (message: string) => new ApiError('SERVICE_UNAVAILABLE', message);

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
