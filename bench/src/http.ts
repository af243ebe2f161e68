import type { Target } from './load.ts';
import { graphqlBody } from './queries.ts';

/** One JSON POST with the target's bearer token; any non-2xx is an error carrying the body. */
export async function postJson<T = unknown>(target: Target, path: string, body: string): Promise<T> {
  const response = await fetch(new URL(path, target.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    body,
  }).catch((error: Error) => {
    // fetch's own message is only "fetch failed"; the reason (a reset, a closed socket) is its cause.
    throw new Error(`POST ${path} failed: ${String((error.cause as Error | undefined)?.message ?? error.message)}`, { cause: error });
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** A GraphQL call whose `errors` are thrown. */
export async function graphql<T>(target: Target, query: string, variables: Record<string, unknown>): Promise<T> {
  const result = await postJson<{ data?: T; errors?: { message: string }[] }>(target, '/api/graphql', graphqlBody(query, variables));
  if (result.errors?.length) throw new Error(`GraphQL error: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.data as T;
}

/** A Rest.li action; resolves to its `value`. */
export async function restli<T>(target: Target, resource: string, action: string, params: Record<string, unknown>): Promise<T> {
  const result = await postJson<{ value: T }>(target, `/gms/${resource}?action=${action}`, JSON.stringify(params));
  return result.value;
}

/** Runs `work(0..count-1)` with at most `concurrency` in flight. */
export async function inPool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
