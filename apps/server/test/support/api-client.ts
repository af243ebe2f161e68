/** An answer: its HTTP status and its JSON body (undefined when the body is empty). */
interface Reply {
  status: number;
  body: any;
}

/** JSON over HTTP with one Authorization header (null: none); a refused or reset connection rejects, as fetch does. */
export function apiClient(url: string, authorization: string | null) {
  const send = async (path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Reply> => {
    const res = await fetch(url + path, { ...init, headers: { ...init.headers, ...(authorization && { authorization }) } });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** POSTs `text` as it is, as a JSON body: for bodies JSON.stringify cannot write (nested too deep for its stack). */
  const postText = (path: string, text: string) =>
    send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  const post = (path: string, body: unknown) => postText(path, JSON.stringify(body));
  return {
    post,
    postText,
    get: (path: string) => send(path, { method: 'GET' }),
    /** Any method; a body is sent as JSON. */
    request: (method: string, path: string, body?: unknown) =>
      send(path, body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    graphql: (query: string, variables: Record<string, unknown> = {}) => post('/api/graphql', { query, variables }),
    operation: (action: string, params: unknown) => post(`/gms/operations?action=${action}`, params),
    ingest: (proposals: unknown[]) =>
      proposals.length === 1
        ? post('/aspects?action=ingestProposal', { proposal: proposals[0] })
        : post('/aspects?action=ingestProposalBatch', { proposals }),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** What the JSON helpers need: an ApiClient, or the in-process server of mds.ts. */
export interface JsonPoster {
  post(path: string, body: unknown): Promise<Reply>;
}
