import { z } from 'zod';
import type { Actor, ApiContext } from './context';
import { badRequest } from './errors';

/** Rest.li resources this server answers actions on (`/<resource>?action=<name>`). */
export type RestliResource = 'operations' | 'aspects' | 'entities' | 'runs';

/** Rest.li resources read with GET: `/<resource>/<key>` or `/<resource>?<query>` (entities-api §7). */
export type RestliReadResource = 'aspects' | 'entities' | 'entitiesV2' | 'relationships';

/**
 * A Rest.li GET, registered by a domain package. `key` is the path segment after the resource, still percent-encoded
 * (absent for `/<resource>?...`); `query` is the raw query string, since Rest.li lists (`List(a,b)`) are split before
 * they are decoded. The result is the JSON body of a 200.
 */
export interface RestliRead {
  resource: RestliReadResource;
  /** The ways it is called, as `GET /restli/docs` lists them. */
  forms?: readonly RestliReadForm[];
  handler(key: string | undefined, query: string, context: ApiContext): unknown;
}

/** One way of calling a Rest.li read: with a key (`/<resource>/{key}`) or without, and its query parameters. */
export interface RestliReadForm {
  /** What the path segment after the resource holds (`urn`); absent: the form has none. */
  key?: string;
  query: readonly { name: string; required?: boolean; /** A Rest.li array: `List(a,b)`, bare, or repeated. */ array?: boolean }[];
}

/**
 * One Rest.li action, registered by a domain package and dispatched by the host.
 * The handler's result is sent wrapped as `{"value": result}`.
 */
export interface RestliAction<Params extends z.ZodType = z.ZodType> {
  resource: RestliResource;
  name: string;
  /** Validates the JSON body; a failure answers 400 naming the parameter. */
  params: Params;
  /**
   * Ingestion: takes the operator's larger body limit (MAX_INGEST_BODY_BYTES) instead of MAX_BODY_BYTES, and is read
   * in one of the MAX_CONCURRENT_INGESTS slots, which bound the memory bodies that large take. `'when-large'`: only
   * a body over MAX_BODY_BYTES (or of unknown length) waits for a slot; ordinary ones are read at once, so that
   * single proposals from many clients share their commits.
   */
  bulk?: boolean | 'when-large';
  /**
   * Whether `actor` could write anything through this action, asked from the request's headers before its body takes
   * an ingestion slot or more than MAX_BODY_BYTES. When not, the host reads at most MAX_BODY_BYTES of it, outside any
   * slot, and the handler refuses it as it would anyway (a larger body is refused with a 403 unread). Absent: always.
   */
  admit?(actor: Actor): boolean | Promise<boolean>;
  handler(params: z.infer<Params>, context: ApiContext): unknown;
}

/** Keeps the params/handler pairing typed at the definition site. */
export function defineAction<Params extends z.ZodType>(action: RestliAction<Params>): RestliAction<Params> {
  return action;
}

/** Validates an action's body, turning the first problem into a 400 that names the parameter and the rule. */
export function parseActionParams<Params extends z.ZodType>(action: RestliAction<Params>, body: unknown): z.infer<Params> {
  const result = action.params.safeParse(body ?? {}, { reportInput: true });
  if (result.success) return result.data;
  throw invalidParameter(action.name, result.error);
}

/**
 * The 400 for the first problem zod found, naming the parameter: `Parameter 'proposals.3.aspect' of action
 * 'ingestProposalBatch': is required`. `within` is the path of the parsed value inside the action's body.
 */
export function invalidParameter(actionName: string, error: z.ZodError, within: readonly PropertyKey[] = []) {
  const issue = error.issues[0]!;
  const path = [...within, ...issue.path];
  const where = path.length ? `Parameter '${path.map(String).join('.')}'` : 'Body';
  return badRequest(`${where} of action '${actionName}': ${describeIssue(issue)}`);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
  }
  if (issue.code === 'unrecognized_keys') return `unknown key(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
  return issue.message;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
