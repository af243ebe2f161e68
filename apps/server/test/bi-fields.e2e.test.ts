import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestGolden } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';
import { fillPlaceholders, readUiVariables } from './webui/ui-queries';

// The UI's own data flow and data job pages (dataFlow.graphql: getDataFlow, getDataFlowChildJobs; dataJob.graphql:
// getDataJob; apps/server/test/fixtures/datahub-web-react, DataHub c731e725) sent with the variables its pages send
// (variables.json) to a real mds holding DataHub's MySQL stored-procedure ingestion (mysql_table_level_only.json) and
// a Fivetran sync (fivetran_snowflake_golden.json); the fields the page draws from browsePathsV2 and dataTransformLogic
// are compared with what DataFlowMapper, DataJobMapper, BrowsePathsV2Mapper and DataTransformLogicMapper give.
const FLOW = 'urn:li:dataFlow:(mysql,northwind.northwind.stored_procedures,PROD)';
const JOB = `urn:li:dataJob:(${FLOW},AddCustomer)`;
const NORTHWIND = 'urn:li:container:dc2ae101b66746b9c2b6df8ee89ca88f';
const PROCEDURES = 'urn:li:container:7b677d9de1e980494659f0959b716bae';
const FIVETRAN_FLOW = 'urn:li:dataFlow:(fivetran,calendar_elected,PROD)';
const FIVETRAN_JOB = `urn:li:dataJob:(${FIVETRAN_FLOW},calendar_elected)`;

const ui = readUiDocuments();
const variables = readUiVariables();
/** The UI's operation `name` as it sends it: its document, and the variables of its page with the urns given. */
const uiCall = (name: string, urns: Record<string, string>) => ({
  query: print(ui.operations.find((op) => op.name === name)!.document),
  variables: fillPlaceholders(variables.queries[name]![0]!.variables, urns) as Record<string, unknown>,
});

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  await ingestGolden(mds, 'mysql_table_level_only.json');
  await ingestGolden(mds, 'fivetran_snowflake_golden.json');
});
afterAll(() => mds?.close());

/** The answer of the UI's operation, which must carry no error. */
async function send(name: string, urns: Record<string, string>) {
  const { query, variables } = uiCall(name, urns);
  const result = await mds.graphql(query, variables);
  expect(graphqlError(result)).toBeUndefined();
  return result.body.data;
}

/** A browse path entry as browsePathV2Fields reads it, for a container (its entityDisplayNameFields). */
const containerEntry = (urn: string, name: string | null) => ({
  name: urn,
  entity: expect.objectContaining({ urn, type: 'CONTAINER', properties: name === null ? null : expect.objectContaining({ name }) }),
});

describe("the data flow page (DataFlowMapper's browsePathV2)", () => {
  it('getDataFlow answers the flow with the path of containers it is browsed under', async () => {
    const { dataFlow } = await send('getDataFlow', { $DATA_FLOW_URN: FLOW });
    expect(dataFlow).toMatchObject({
      urn: FLOW,
      orchestrator: 'mysql',
      properties: { name: 'northwind.northwind.stored_procedures' },
      subTypes: { typeNames: ['Procedures Container'] },
    });
    expect(dataFlow.browsePathV2).toEqual({ path: [containerEntry(NORTHWIND, 'northwind')] });
  });

  it('getDataFlowChildJobs lists the job under the flow, and a flow with no browsePathsV2 answers none', async () => {
    const { dataFlow } = await send('getDataFlowChildJobs', { $DATA_FLOW_URN: FLOW });
    expect(dataFlow.childJobs.relationships.map((r: { entity: { urn: string } }) => r.entity.urn)).toEqual([JOB]);
    const fivetran = await send('getDataFlow', { $DATA_FLOW_URN: FIVETRAN_FLOW });
    expect(fivetran.dataFlow).toMatchObject({ urn: FIVETRAN_FLOW, browsePathV2: null });
  });
});

describe("the data job page (DataJobMapper's browsePathV2 and dataTransformLogic)", () => {
  it("getDataJob answers the stored procedure's SQL and its path (a container not stored still answers its urn)", async () => {
    const { dataJob } = await send('getDataJob', { $DATA_JOB_URN: JOB });
    expect(dataJob).toMatchObject({ urn: JOB, jobId: 'AddCustomer', properties: { name: 'AddCustomer' } });
    expect(dataJob.dataTransformLogic).toEqual({
      transforms: [
        {
          queryStatement: {
            value:
              'BEGIN\n    INSERT INTO customers (id, last_name, first_name, email_address, priority)\n    VALUES (id, in_last_name, in_first_name, in_email_address, in_priority);\nEND',
            language: 'SQL',
          },
        },
      ],
    });
    expect(dataJob.browsePathV2).toEqual({ path: [containerEntry(PROCEDURES, null)] });
  });

  it('a job browsed under its flow: the entry names the flow entity; no transform logic stored, none answered', async () => {
    const { dataJob } = await send('getDataJob', { $DATA_JOB_URN: FIVETRAN_JOB });
    expect(dataJob.browsePathV2).toEqual({
      path: [{ name: 'calendar_elected', entity: expect.objectContaining({ urn: FIVETRAN_FLOW, type: 'DATA_FLOW' }) }],
    });
    expect(dataJob.dataTransformLogic).toBeNull();
  });
});
