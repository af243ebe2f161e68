import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';
import { fillPlaceholders, readUiVariables } from './webui/ui-queries';

// Column-level lineage as DataHub's web UI reads it (lineage.graphql getLineageCounts from a column of the lineage
// graph, getBulkEntityLineageV2 for a column's neighbours, search.graphql searchAcrossLineageStructure from a column,
// with the variables of variables.json and the ghost flag the UI computes from schemaFieldLineageIgnoreStatus) from a
// real mds: `revenue` is computed from `orders` and `customers`, its fields from theirs (upstreamLineage
// .fineGrainedLineages). DataHub's graph indexing adds a DownstreamOf edge from each downstream field to each upstream
// one (UpdateGraphIndicesService), its lineage registry walks a field's lineage over fields only, and
// EntityLineageResultResolver answers the `lineage` of a SchemaFieldEntity as of any entity.
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,shop.${name},PROD)`;
const ORDERS = ds('orders');
const CUSTOMERS = ds('customers');
const REVENUE = ds('revenue');
const REPORT = ds('report');
const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;

const ui = readUiDocuments();
const variables = readUiVariables();
const uiQuery = (name: string) => print(ui.operations.find((op) => op.name === name)!.document);
/** The variables the UI sends for query `name` (its `index`th call site), placeholders filled as given. */
const uiVariables = (name: string, placeholders: Record<string, unknown>, index = 0) =>
  fillPlaceholders(variables.queries[name]![index]!.variables, placeholders) as Record<string, unknown>;

const fineGrained = (downstreams: string[], upstreams: string[]) => ({
  upstreamType: 'FIELD_SET',
  downstreamType: 'FIELD',
  upstreams,
  downstreams,
  transformOperation: 'SUM',
  confidenceScore: 1,
});
const upstream = (dataset: string) => ({ dataset, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } });

let mds: Mds;
async function ingest(urn: string, aspectName: string, value: unknown) {
  const res = await mds.post('/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    },
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  mds = await startMds();
  for (const urn of [ORDERS, CUSTOMERS, REVENUE, REPORT]) await ingest(urn, 'status', { removed: false });
  await ingest(REVENUE, 'upstreamLineage', {
    upstreams: [upstream(ORDERS), upstream(CUSTOMERS)],
    fineGrainedLineages: [
      fineGrained([field(REVENUE, 'total')], [field(ORDERS, 'amount'), field(ORDERS, 'tax')]),
      fineGrained([field(REVENUE, 'customer')], [field(CUSTOMERS, 'name')]),
    ],
  });
  await ingest(REPORT, 'upstreamLineage', {
    upstreams: [upstream(REVENUE)],
    fineGrainedLineages: [fineGrained([field(REPORT, 'total')], [field(REVENUE, 'total')])],
  });
});
afterAll(() => mds?.close());

const urns = (relationships: { entity: { urn: string } }[]) => relationships.map((r) => r.entity.urn);

describe('column-level lineage through the UI’s own documents', () => {
  it('getLineageCounts from a column (Column.tsx): its upstream and downstream fields; fields never stored are ghosts', async () => {
    const query = uiQuery('getLineageCounts');
    const counts = async (urn: string, includeGhostEntities: boolean) => {
      const res = await mds.graphql(query, { ...uiVariables('getLineageCounts', { $SCHEMA_FIELD_URN: urn }), includeGhostEntities });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.entity;
    };
    // The UI sends includeGhostEntities = schemaFieldLineageIgnoreStatus (true by default): fields are seldom stored.
    expect(await counts(field(REVENUE, 'total'), true)).toMatchObject({
      type: 'SCHEMA_FIELD',
      upstream: { total: 2, filtered: 0 },
      downstream: { total: 1, filtered: 0 },
    });
    expect(await counts(field(REVENUE, 'customer'), true)).toMatchObject({ upstream: { total: 1 }, downstream: { total: 0 } });
    // Without ghosts, the fields (no aspect stored) are left out and counted as filtered (ValidationUtils).
    expect(await counts(field(REVENUE, 'total'), false)).toMatchObject({
      upstream: { total: 0, filtered: 2 },
      downstream: { filtered: 1 },
    });
  });

  it('getBulkEntityLineageV2 from columns: each field’s neighbours are fields only, never the datasets', async () => {
    const res = await mds.graphql(uiQuery('getBulkEntityLineageV2'), {
      ...uiVariables('getBulkEntityLineageV2', { $DATASET_URN: field(REVENUE, 'total'), $UPSTREAM_DATASET_URN: field(ORDERS, 'amount') }),
      // useBulkEntityLineage.ts: a schema field root keeps ghosts when schemaFieldLineageIgnoreStatus is on.
      includeGhostEntities: true,
    });
    expect(res.body.errors).toBeUndefined();
    const [total, amount] = res.body.data.entities;
    expect(total).toMatchObject({ urn: field(REVENUE, 'total'), type: 'SCHEMA_FIELD', fieldPath: 'total', parent: { urn: REVENUE } });
    expect(urns(total.upstream.relationships)).toEqual([field(ORDERS, 'amount'), field(ORDERS, 'tax')]);
    expect(total.upstream.relationships.map((r: { type: string }) => r.type)).toEqual(['DownstreamOf', 'DownstreamOf']);
    expect(urns(total.downstream.relationships)).toEqual([field(REPORT, 'total')]);
    // The orders amount feeds revenue.total only; revenue itself (whose aspect names the field) is not a field's lineage.
    expect(urns(amount.downstream.relationships)).toEqual([field(REVENUE, 'total')]);
    expect(amount.upstream.relationships).toEqual([]);
  });

  it('searchAcrossLineageStructure from a column (types SCHEMA_FIELD, as useSearchAcrossLineage sends), over every hop', async () => {
    const recorded = uiVariables('searchAcrossLineageStructure', { $DATASET_URN: field(REPORT, 'total') }, 1).input as Record<
      string,
      unknown
    >;
    const res = await mds.graphql(uiQuery('searchAcrossLineageStructure'), {
      input: { ...recorded, direction: 'UPSTREAM', types: ['SCHEMA_FIELD'] },
    });
    expect(res.body.errors).toBeUndefined();
    const found = res.body.data.searchAcrossLineage;
    expect(found.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn)).toEqual([
      field(REVENUE, 'total'),
      field(ORDERS, 'amount'),
      field(ORDERS, 'tax'),
    ]);
    expect(found.searchResults[2].paths).toEqual([
      {
        path: [field(REPORT, 'total'), field(REVENUE, 'total'), field(ORDERS, 'tax')].map((urn) => ({ urn, type: 'SCHEMA_FIELD' })),
      },
    ]);
  });

  it('a dataset’s own lineage is unchanged by its columns’, and a new upstreamLineage replaces the column edges', async () => {
    const lineage = async (urn: string) => {
      const res = await mds.graphql(uiQuery('getLineageCounts'), { urn, separateSiblings: true, includeGhostEntities: false });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.entity;
    };
    expect(await lineage(REVENUE)).toMatchObject({ upstream: { total: 2 }, downstream: { total: 1 } });
    await ingest(REVENUE, 'upstreamLineage', {
      upstreams: [upstream(ORDERS)],
      fineGrainedLineages: [fineGrained([field(REVENUE, 'total')], [field(ORDERS, 'amount')])],
    });
    const res = await mds.graphql(uiQuery('getBulkEntityLineageV2'), {
      ...uiVariables('getBulkEntityLineageV2', {
        $DATASET_URN: field(REVENUE, 'total'),
        $UPSTREAM_DATASET_URN: field(REVENUE, 'customer'),
      }),
      includeGhostEntities: true,
    });
    expect(res.body.errors).toBeUndefined();
    const [total, customer] = res.body.data.entities;
    expect(urns(total.upstream.relationships)).toEqual([field(ORDERS, 'amount')]);
    expect(customer.upstream.relationships).toEqual([]);
  });
});
