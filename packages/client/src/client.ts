import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { ClientError, GraphQLClient } from 'graphql-request';
import { graphqlError, isRecord, MdsError, restError, safeJson } from './errors';
import {
  CreateAccessTokenDocument,
  CreateTagDocument,
  DeleteTagDocument,
  GetTagDocument,
  ListAccessTokensDocument,
  MeDocument,
  RevokeAccessTokenDocument,
  SearchTagsDocument,
  SetTagColorDocument,
  UpdateDescriptionDocument,
  UpdateTagDocument,
  type AccessTokenDuration,
  type AccessTokenFieldsFragment,
  type CreateTagInput,
  type ListAccessTokenInput,
  type MeQuery,
  type TagFieldsFragment,
} from './generated/graphql';
import type { EsTaskStatus, IndexSize, MetadataChangeProposal, TruncateTimeseriesAspectParams } from './rest-types';

export interface MdsClientOptions {
  /** The server's base URL, e.g. `http://localhost:8080` (no path). */
  url: string;
  /** A personal access token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

export type Tag = TagFieldsFragment;
export type AccessTokenMetadata = AccessTokenFieldsFragment;
export type AuthenticatedUser = NonNullable<MeQuery['me']>;

type Variables = Record<string, unknown>;

/** A typed client for mds (and DataHub's same-named API): GraphQL through graphql-request, Rest.li through fetch. */
export function createMdsClient(options: MdsClientOptions) {
  const base = options.url.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const authorization = `Bearer ${options.token}`;
  const graphql = new GraphQLClient(`${base}/api/graphql`, { headers: { authorization }, fetch: fetchImpl });

  /** Runs one operation; every GraphQL error (HTTP 200 with `errors`, or a 4xx/5xx answer) becomes an MdsError. */
  async function request<Result, Vars extends Variables>(
    document: TypedDocumentNode<Result, Vars> | string,
    variables?: Vars,
  ): Promise<Result> {
    try {
      return await graphql.request<Result, Variables>(document, variables ?? {});
    } catch (error) {
      if (error instanceof ClientError) throw graphqlError(error.response.status, error.response.errors, error.response.body);
      throw error;
    }
  }

  /** POSTs a Rest.li action and unwraps `{"value": ...}`; `{message, status}` answers become an MdsError. */
  async function action<Value>(resource: 'operations' | 'aspects', name: string, params: object): Promise<Value> {
    const res = await fetchImpl(`${base}/gms/${resource}?action=${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(params),
    });
    const text = await res.text();
    const body = safeJson(text);
    if (!res.ok) throw restError(res.status, body, text);
    if (!isRecord(body) || !('value' in body))
      throw new MdsError(`Unexpected answer from ${resource}?action=${name}: ${text.slice(0, 200)}`, res.status, 500, 'SERVER_ERROR');
    return body.value as Value;
  }

  return {
    /** Any other operation (typed document or query text), with the same error mapping. */
    request,

    /** The user behind the token and what it may do. */
    async me(): Promise<AuthenticatedUser> {
      return required((await request(MeDocument)).me, 'me');
    },

    tags: {
      /** Creates a tag and returns its urn (`urn:li:tag:<id>`; a random UUID id when none is given). */
      async create(input: CreateTagInput): Promise<string> {
        return required((await request(CreateTagDocument, { input })).createTag, 'createTag');
      },
      /** The tag, or null when there is none with this urn. */
      async get(urn: string): Promise<Tag | null> {
        return (await request(GetTagDocument, { urn })).tag ?? null;
      },
      /** Sets the name and (when given; null removes it) the description. */
      async update(urn: string, input: { name: string; description?: string | null }): Promise<Tag> {
        return required((await request(UpdateTagDocument, { urn, input: { urn, ...input } })).updateTag, 'updateTag');
      },
      async delete(urn: string): Promise<boolean> {
        return (await request(DeleteTagDocument, { urn })).deleteTag === true;
      },
      /** `#RGB` or `#RRGGBB`. */
      async setColor(urn: string, colorHex: string): Promise<boolean> {
        return (await request(SetTagColorDocument, { urn, colorHex })).setTagColor === true;
      },
      /** updateDescription on a tag. */
      async describe(urn: string, description: string): Promise<boolean> {
        return (await request(UpdateDescriptionDocument, { input: { resourceUrn: urn, description } })).updateDescription === true;
      },
      /** searchAcrossEntities over tags: `*` lists all by name; other text matches name and description. */
      async search(input: { query?: string; start?: number; count?: number } = {}) {
        const { query = '*', ...page } = input;
        const result = required(
          (await request(SearchTagsDocument, { input: { types: ['TAG'], query, ...page } })).searchAcrossEntities,
          'searchAcrossEntities',
        );
        const results = result.searchResults.flatMap(({ entity, matchedFields }) =>
          'urn' in entity ? [{ tag: entity as Tag, matchedFields }] : [],
        );
        return { start: result.start, count: result.count, total: result.total, results };
      },
    },

    tokens: {
      /** Mints a personal access token; the token itself is shown only in this answer. */
      async create(input: { actorUrn: string; name: string; duration: AccessTokenDuration; description?: string }) {
        const created = required(
          (await request(CreateAccessTokenDocument, { input: { type: 'PERSONAL', ...input } })).createAccessToken,
          'createAccessToken',
        );
        return { accessToken: created.accessToken, metadata: required(created.metadata, 'createAccessToken.metadata') };
      },
      /** Token metadata (never the tokens); filters on `actorUrn`/`ownerUrn`. */
      async list(input: ListAccessTokenInput = {}) {
        return (await request(ListAccessTokensDocument, { input })).listAccessTokens;
      },
      /** Revokes by id (`metadata.id`); refused on the very next request. */
      async revoke(tokenId: string): Promise<boolean> {
        return (await request(RevokeAccessTokenDocument, { tokenId })).revokeAccessToken;
      },
    },

    operations: {
      /** Time-series index sizes, largest first. */
      async getIndexSizes(): Promise<IndexSize[]> {
        return (await action<{ indexSizes: IndexSize[] }>('operations', 'getIndexSizes', {})).indexSizes;
      },
      /** A dry run (the default) answers DataHub's summary text; `dryRun: false` answers a task id `<node>:<n>`. */
      async truncateTimeseriesAspect(params: TruncateTimeseriesAspectParams): Promise<string> {
        return action<string>('operations', 'truncateTimeseriesAspect', params);
      },
      /** The task's status, parsed from the JSON text the server sends. */
      async getEsTaskStatus(task: string): Promise<EsTaskStatus> {
        return JSON.parse(await action<string>('operations', 'getEsTaskStatus', { task })) as EsTaskStatus;
      },
    },

    /** Ingests one time-series proposal; answers its entity urn. */
    async ingestProposal(proposal: MetadataChangeProposal): Promise<string> {
      return action<string>('aspects', 'ingestProposal', { proposal });
    },
    /** Ingests up to 10,000 proposals, all or nothing; answers `success`. */
    async ingestProposalBatch(proposals: MetadataChangeProposal[]): Promise<string> {
      return action<string>('aspects', 'ingestProposalBatch', { proposals });
    },
  };
}

export type MdsClient = ReturnType<typeof createMdsClient>;

/** Fields DataHub declares nullable but that only come back null with an error (which was thrown already). */
function required<T>(value: T | null | undefined, field: string): T {
  if (value == null) throw new MdsError(`The server answered no ${field}`, 200, 500, 'SERVER_ERROR');
  return value;
}
