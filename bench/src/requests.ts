import type { LoadRequest } from './load.ts';
import { batchBody } from './proposals.ts';
import { CREATE_TAG, DATASET, LINEAGE_SEARCH, SEARCH, TAG, WORDS, graphqlBody } from './queries.ts';

/** The requests load runs send, shared by the scenarios that mix them (the soak, the reader during truncations). */

const rotate = (bodies: string[]): (() => string) => {
  let n = 0;
  return () => bodies[n++ % bodies.length]!;
};

const graphqlRequest = (body: LoadRequest['body']): LoadRequest => ({ method: 'POST', path: '/api/graphql', body });

/** tag(urn) over existing tags, in turn. */
export const tagRead = (urns: string[]) => graphqlRequest(rotate(urns.map((urn) => graphqlBody(TAG, { urn }))));

/** dataset(urn) over existing datasets, in turn. */
export const datasetRead = (urns: string[]) => graphqlRequest(rotate(urns.map((urn) => graphqlBody(DATASET, { urn }))));

/** searchAcrossLineage's input downstream of `urn`: the UI's degree filter with every degree selected, 10 results. */
export const lineageInput = (urn: string) => ({
  urn,
  direction: 'DOWNSTREAM',
  query: '*',
  start: 0,
  count: 10,
  orFilters: [{ and: [{ field: 'degree', condition: 'EQUAL', values: ['1', '2', '3+'] }] }],
});

/** searchAcrossLineage downstream of each root in turn (lineageInput). */
export const lineageSearch = (roots: string[]) =>
  graphqlRequest(rotate(roots.map((urn) => graphqlBody(LINEAGE_SEARCH, { input: lineageInput(urn) }))));

/** Shared by every createTag generator of a run, so that no two ever send the same id. */
let createdTags = 0;

/** createTag with an id never used before. */
export function createTag(runId: string): LoadRequest {
  return graphqlRequest(() => {
    const i = createdTags++;
    return graphqlBody(CREATE_TAG, { input: { id: `bench-${runId}-new-${i}`, name: `Created by bench ${i}`, description: 'load test' } });
  });
}

/** searchAcrossEntities for one of the fixture words in turn, first page of 10, as DataHub's UI asks. */
export const search = () =>
  graphqlRequest(rotate(WORDS.map((query) => graphqlBody(SEARCH, { input: { types: ['TAG'], query, start: 0, count: 10 } }))));

export const indexSizes = (): LoadRequest => ({ method: 'POST', path: '/gms/operations?action=getIndexSizes', body: '{}' });

/** Small ingestProposalBatch requests of fresh rows (timestamps far after the fixture's) into one aspect. */
export function ingestBatch(aspectNo: number, proposals: number): LoadRequest {
  let n = 0;
  const later = 10 * 365 * 86_400_000;
  return {
    method: 'POST',
    path: '/aspects?action=ingestProposalBatch',
    body: () => {
      const from = proposals * n++;
      return batchBody(aspectNo, from, from + proposals, later);
    },
  };
}
