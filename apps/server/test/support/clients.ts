import { Client, fetchExchange } from '@urql/core';
import { getOperationAST, parse } from 'graphql';
import { ClientError, GraphQLClient } from 'graphql-request';

/** What a GraphQL client hands back, normalised so one scenario can run through every client. */
export interface Outcome {
  data: any;
  errors?: { message: string; extensions?: { code?: number; type?: string } }[];
}
export type RunGraphQL = (query: string, variables?: Record<string, unknown>) => Promise<Outcome>;

/** The GraphQL clients people use against DataHub, each pointed at mds with a bearer token. */
export const clients: Record<string, (url: string, token: string) => RunGraphQL> = {
  'graphql-request': (url, token) => {
    const client = new GraphQLClient(`${url}/api/graphql`, { headers: { authorization: `Bearer ${token}` }, errorPolicy: 'all' });
    return async (query, variables) => {
      try {
        const { data, errors } = await client.rawRequest<any>(query, variables);
        return { data, errors: errors as Outcome['errors'] };
      } catch (error) {
        if (error instanceof ClientError) return { data: error.response.data, errors: error.response.errors as Outcome['errors'] };
        throw error;
      }
    };
  },
  '@urql/core': (url, token) => {
    const client = new Client({
      url: `${url}/api/graphql`,
      exchanges: [fetchExchange],
      preferGetMethod: false,
      requestPolicy: 'network-only',
      fetchOptions: { headers: { authorization: `Bearer ${token}` } },
    });
    return async (query, variables) => {
      const isMutation = getOperationAST(parse(query))?.operation === 'mutation';
      const result = await (isMutation ? client.mutation(query, variables ?? {}) : client.query(query, variables ?? {})).toPromise();
      if (result.error?.networkError) throw result.error.networkError;
      return {
        data: result.data ?? null,
        errors: result.error?.graphQLErrors.map((e) => ({ message: e.message, extensions: e.extensions as never })),
      };
    };
  },
  fetch: (url, token) => async (query, variables) => {
    const res = await fetch(`${url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as Outcome;
  },
};
