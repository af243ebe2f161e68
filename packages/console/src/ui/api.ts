import { forgetToken, readToken } from './session';

/** The server answered, but not with a success: `message` is the server's own text. */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** No answer came back (server down, connection cut, request blocked). */
export class NetworkError extends Error {}

let signedOut: (message: string) => void = () => {};
/** Called with the server's message when any request answers 401: the token is forgotten, sign-in is due again. */
export function onSignedOut(handler: (message: string) => void): void {
  signedOut = handler;
}

/** A request with the session's Bearer token; the parsed JSON answer, or a ServerError / NetworkError. */
export async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const token = readToken();
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  let status: number;
  let text: string;
  try {
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw new NetworkError(`No answer from the server (${error instanceof Error ? error.message : String(error)}).`);
  }
  const json = parseJson(text);
  if (status === 401) {
    forgetToken();
    signedOut(messageOf(json, text, status));
  }
  if (status < 200 || status > 299) throw new ServerError(messageOf(json, text, status), status);
  return json;
}

/** A GraphQL operation's `data`; its first error, as the server wrote it, when there is one. */
export async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answer = (await request('POST', '/api/graphql', { query, variables })) as { data?: T; errors?: { message: string }[] };
  if (answer.errors?.length) throw new ServerError(answer.errors[0]!.message, 200);
  return answer.data as T;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The message of every error shape the server uses: GraphQL `errors`, Rest.li and JSON `message`, OpenAPI `error`. */
export function messageOf(json: unknown, text: string, status: number): string {
  const body = (json ?? {}) as { errors?: { message?: unknown }[]; message?: unknown; error?: unknown };
  const message = body.errors?.[0]?.message ?? body.message ?? body.error;
  if (typeof message === 'string' && message) return message;
  return text.trim() || `HTTP ${status}`;
}
