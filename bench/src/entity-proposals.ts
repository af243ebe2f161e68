import { schemaMetadataOf } from './dataset-fixture.ts';

/**
 * Versioned-aspect MetadataChangeProposals as DataHub's emitter sends them: dataset `k` gets four aspects
 * (properties, tags, ownership, status), each a JSON string in `aspect.value`.
 */
export const ENTITY_ASPECTS = ['datasetProperties', 'globalTags', 'ownership', 'status'] as const;

export const benchDatasetUrn = (runId: string, k: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench_${runId}.table_${k},PROD)`;

/** Words of the descriptions: dataset `k` has two of them, so a word matches about 5 % of the datasets. */
export const DESCRIPTION_WORDS = [
  'orders',
  'payments',
  'refunds',
  'invoices',
  'customers',
  'shipments',
  'returns',
  'ledger',
  'inventory',
  'suppliers',
  'campaigns',
  'clicks',
  'sessions',
  'churn',
  'forecast',
  'pricing',
  'discounts',
  'subscriptions',
  'tickets',
  'reviews',
  'warehouses',
  'carriers',
  'fraud',
  'chargebacks',
  'payouts',
  'budgets',
  'employees',
  'payroll',
  'contracts',
  'leads',
  'accounts',
  'balances',
  'transfers',
  'loans',
  'deposits',
  'audits',
  'metrics',
  'events',
  'devices',
  'regions',
];
const wordsOf = (k: number) => `${DESCRIPTION_WORDS[k % 40]} ${DESCRIPTION_WORDS[(Math.floor(k / 40) * 7 + 3) % 40]}`;

const VALUES: Record<(typeof ENTITY_ASPECTS)[number], (k: number) => unknown> = {
  datasetProperties: (k) => ({
    name: `table_${k}`,
    description: `Daily ${wordsOf(k)}, one row per record.`,
    customProperties: { owner_team: `team_${k % 20}` },
  }),
  globalTags: (k) => ({ tags: [{ tag: `urn:li:tag:tier_${k % 3}` }, { tag: 'urn:li:tag:pii' }] }),
  ownership: (k) => ({
    owners: [{ owner: `urn:li:corpuser:user_${k % 100}`, type: 'TECHNICAL_OWNER' }],
    lastModified: { time: 0, actor: 'urn:li:corpuser:etl' },
  }),
  status: () => ({ removed: false }),
};

/** Proposal `i`: aspect `i % 4` of dataset `floor(i / 4)`. */
export function entityProposal(runId: string, i: number) {
  const aspectName = ENTITY_ASPECTS[i % ENTITY_ASPECTS.length]!;
  const k = Math.floor(i / ENTITY_ASPECTS.length);
  return {
    entityType: 'dataset',
    entityUrn: benchDatasetUrn(runId, k),
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(VALUES[aspectName](k)) },
    systemMetadata: { lastObserved: Date.now(), runId: `bench-${runId}` },
  };
}

/** Fields of the schema each of those datasets gets for the UI's search page (issue 31: datasets with schemas). */
export const SEARCH_DATASET_FIELDS = 10;

/**
 * What the UI's search page shows of a dataset beyond the four aspects above: a schema of SEARCH_DATASET_FIELDS fields,
 * and lineage (dataset `k` is downstream of dataset `k - 1`, dataset 0 of nothing).
 */
export function searchPageProposals(runId: string, k: number) {
  const proposal = (aspectName: string, value: unknown) => ({
    entityType: 'dataset',
    entityUrn: benchDatasetUrn(runId, k),
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  });
  const schema = proposal('schemaMetadata', schemaMetadataOf(`table_${k}`, SEARCH_DATASET_FIELDS));
  if (k === 0) return [schema];
  const upstream = { dataset: benchDatasetUrn(runId, k - 1), type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:etl' } };
  return [schema, proposal('upstreamLineage', { upstreams: [upstream] })];
}
