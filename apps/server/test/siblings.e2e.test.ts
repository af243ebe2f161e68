import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestGolden } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { sendUiMutation } from './support/ui-mutations';
import { readUiDocuments } from './webui/ui-documents';
import { fillPlaceholders, readUiVariables } from './webui/ui-queries';

// A dataset's siblings as DataHub's web UI reads them (dataset.graphql getDatasetAssertions*, incident.graphql
// getEntityIncidents, with the variables of variables.json) from a real mds holding DataHub's dbt golden with the
// target platform primary (packages/entities/test/fixtures/datahub/SOURCES.md): each postgres table is the primary
// sibling of its dbt model. The UI shows a table's assertions and incidents together with its siblings', read through
// `siblings` (DataHub's SiblingsMapper) and `siblingsSearch` (SiblingsSearchResolver).
const MODEL = 'urn:li:dataset:(urn:li:dataPlatform:dbt,pagila.public.actor,PROD)';
const TABLE = 'urn:li:dataset:(urn:li:dataPlatform:postgres,pagila.public.actor,PROD)';
const CHECK = 'urn:li:assertion:dbt-actor-not-null';

const ui = readUiDocuments();
const variables = readUiVariables();
const uiQuery = (name: string) => print(ui.operations.find((op) => op.name === name)!.document);
/** The variables the UI sends for query `name`, its dataset the one given. */
const uiVariables = (name: string, urn: string) =>
  fillPlaceholders(variables.queries[name]![0]!.variables, { $DATASET_URN: urn }) as Record<string, unknown>;

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  await ingestGolden(mds, 'dbt_test_target_platform_primary_siblings_golden.json');
  // A dbt test on the model, as DataHub's dbt source reports one (an assertion on the model's dataset).
  const assertionInfo = {
    type: 'DATASET',
    datasetAssertion: { dataset: MODEL, scope: 'DATASET_COLUMN', aggregation: 'IDENTITY', operator: 'NOT_NULL', nativeType: 'not_null' },
  };
  const res = await mds.post('/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'assertion',
      entityUrn: CHECK,
      changeType: 'UPSERT',
      aspectName: 'assertionInfo',
      aspect: { value: JSON.stringify(assertionInfo), contentType: 'application/json' },
    },
  });
  expect(res.status).toBe(200);
});
afterAll(() => mds?.close());

/** The urns of a list of entities (or of search results' entities). */
const urns = (list: { urn?: string; entity?: { urn: string } }[]) => list.map((item) => item.urn ?? item.entity!.urn);

describe("a dataset's siblings through the UI's own documents", () => {
  it("getDatasetAssertions: the table's page shows the assertion of its dbt sibling, through siblings and siblingsSearch", async () => {
    const res = await mds.graphql(uiQuery('getDatasetAssertions'), uiVariables('getDatasetAssertions', TABLE));
    expect(res.body.errors).toBeUndefined();
    const { dataset } = res.body.data;
    // The table has no assertion of its own; its sibling (SiblingsMapper: primary, the model's urn) has one.
    expect(dataset.assertions.total).toBe(0);
    expect(dataset.siblings.isPrimary).toBe(true);
    expect(urns(dataset.siblings.siblings)).toEqual([MODEL]);
    expect(urns(dataset.siblings.siblings[0].assertions.assertions)).toEqual([CHECK]);
    expect(dataset.siblings.siblings[0].assertions.assertions[0].info.datasetAssertion).toMatchObject({
      datasetUrn: MODEL,
      operator: 'NOT_NULL',
    });
    // The UI's siblingsSearch (`*`, 5): the model names the table among its siblings.
    expect(dataset.siblingsSearch).toMatchObject({ count: 1, total: 1 });
    expect(urns(dataset.siblingsSearch.searchResults)).toEqual([MODEL]);
    expect(urns(dataset.siblingsSearch.searchResults[0].entity.assertions.assertions)).toEqual([CHECK]);
  });

  it("getDatasetAssertionsWithRunEvents: isPrimary, and the sibling's assertion through siblingsSearch", async () => {
    const res = await mds.graphql(uiQuery('getDatasetAssertionsWithRunEvents'), uiVariables('getDatasetAssertionsWithRunEvents', MODEL));
    expect(res.body.errors).toBeUndefined();
    const { dataset } = res.body.data;
    // From the model's side: its own assertion, not the primary sibling, and the table found with none.
    expect(urns(dataset.assertions.assertions)).toEqual([CHECK]);
    expect(dataset.siblings).toEqual({ isPrimary: false });
    expect(urns(dataset.siblingsSearch.searchResults)).toEqual([TABLE]);
    expect(dataset.siblingsSearch.searchResults[0].entity.assertions.total).toBe(0);
  });

  it("getEntityIncidents: an incident raised on the model (the UI's raiseIncident) shows on the table's siblings", async () => {
    const raised = await sendUiMutation(mds, 'raiseIncident', { overrides: { $DATASET_URN: MODEL } });
    expect(raised.body.errors).toBeUndefined();
    const incident = raised.body.data.raiseIncident as string;
    const res = await mds.graphql(uiQuery('getEntityIncidents'), uiVariables('getEntityIncidents', TABLE));
    expect(res.body.errors).toBeUndefined();
    const { entity } = res.body.data;
    expect(entity.incidents.total).toBe(0);
    expect(entity.siblings.isPrimary).toBe(true);
    const [sibling] = entity.siblings.siblings;
    expect(sibling.urn).toBe(MODEL);
    expect(sibling.incidents).toMatchObject({ total: 1, incidents: [{ urn: incident, title: 'Late data', incidentType: 'OPERATIONAL' }] });
    expect(
      entity.siblingsSearch.searchResults.map((r: { entity: { urn: string; incidents: { total: number } } }) => [
        r.entity.urn,
        r.entity.incidents.total,
      ]),
    ).toEqual([[MODEL, 1]]);
    // From the model's side: it is not the primary one, and its sibling (the table) has no incident.
    const fromModel = await mds.graphql(uiQuery('getEntityIncidents'), uiVariables('getEntityIncidents', MODEL));
    expect(fromModel.body.errors).toBeUndefined();
    expect(fromModel.body.data.entity.incidents.total).toBe(1);
    expect(fromModel.body.data.entity.siblings).toMatchObject({ isPrimary: false, siblings: [{ urn: TABLE, incidents: { total: 0 } }] });
  });
});

// Lineage through siblings (DataHub's SiblingGraphService, which EntityLineageResultResolver asks unless separateSiblings):
// in the dbt golden, the postgres table payments_by_customer_by_month (primary) is built by its dbt model (the table
// DownstreamOf the model, by the golden's patch), the model reads the postgres view an-aliased-view-for-payments, and
// the dbt model an-aliased-view-for-monthly-billing reads the table.
const pagila = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},pagila.dbt_postgres.${name},PROD)`;
const PBM_TABLE = pagila('postgres', 'payments_by_customer_by_month');
const PBM_MODEL = pagila('dbt', 'payments_by_customer_by_month');
const PAYMENTS_VIEW = pagila('postgres', 'an-aliased-view-for-payments');
const BILLING_MODEL = pagila('dbt', 'an-aliased-view-for-monthly-billing');

describe('lineage through siblings, with the UI’s own documents', () => {
  /** getBulkEntityLineageV2 (useBulkEntityLineage.ts) with separateSiblings as given: each entity's neighbours. */
  const bulk = async (asked: string[], separateSiblings: boolean) => {
    const res = await mds.graphql(uiQuery('getBulkEntityLineageV2'), {
      ...(fillPlaceholders(variables.queries.getBulkEntityLineageV2![0]!.variables, {
        $DATASET_URN: asked[0],
        $UPSTREAM_DATASET_URN: asked[1],
      }) as Record<string, unknown>),
      urns: asked,
      separateSiblings,
    });
    expect(res.body.errors).toBeUndefined();
    type Side = { total: number; filtered: number; relationships: { entity: { urn: string } }[] };
    return (res.body.data.entities as { upstream: Side; downstream: Side }[]).map(({ upstream, downstream }) => ({
      upstream: urns(upstream.relationships.map((r) => r.entity)),
      downstream: urns(downstream.relationships.map((r) => r.entity)),
      filtered: [upstream.filtered, downstream.filtered],
    }));
  };

  it('separateSiblings false: the table shows its model’s upstream and no edge to the model; the model the same', async () => {
    const [table, model] = await bulk([PBM_TABLE, PBM_MODEL], false);
    // The pair's own edge (the table DownstreamOf its model) is hidden; the model's upstream is the table's.
    // Left out: the pair's edge, and both siblings' 3 ghost fields upstream; the model's edge to the table downstream.
    expect(table).toEqual({ upstream: [PAYMENTS_VIEW], downstream: [BILLING_MODEL], filtered: [1 + 3 + 3, 1] });
    expect(model).toEqual({ upstream: [PAYMENTS_VIEW], downstream: [BILLING_MODEL], filtered: [1 + 3 + 3, 1] });
  });

  it('separateSiblings true: each answers its own edges, the pair’s edge included', async () => {
    const [table, model] = await bulk([PBM_TABLE, PBM_MODEL], true);
    // Each upstream also names the 3 fields its fineGrainedLineages read, never stored: left out as ghosts.
    expect(table).toEqual({ upstream: [PBM_MODEL], downstream: [BILLING_MODEL], filtered: [3, 0] });
    expect(model).toEqual({ upstream: [PAYMENTS_VIEW], downstream: [PBM_TABLE], filtered: [3, 0] });
  });

  it('getLineageCounts from the lineage tab selector (LineageSelector.tsx, separateSiblings false) counts the merged lineage', async () => {
    const res = await mds.graphql(
      uiQuery('getLineageCounts'),
      fillPlaceholders(variables.queries.getLineageCounts![1]!.variables, { $DATASET_URN: PBM_MODEL }) as Record<string, unknown>,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.entity).toMatchObject({ upstream: { total: 1, filtered: 7 }, downstream: { total: 1, filtered: 1 } });
  });
});
