import { decryptDatahubSecret } from '@mds/auth';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';

// DataHub's Ingestion page on a real mds (issue 33): the host hands SECRET_SERVICE_ENCRYPTION_KEY to the secrets'
// resolvers (DataHub's CreateSecretResolver encrypts with it), sources are stored as UpsertIngestionSourceResolver
// writes them, runs recorded by DataHub's executor or CLI are read back, and starting a run is refused with how to run it.
const KEY = 'e2e-secret-service-encryption-key';
const ui = readUiDocuments();
const uiDocument = (name: string) => print(ui.operations.find((op) => op.file === 'ingestion.graphql' && op.name === name)!.document);

let mds: Mds;
beforeAll(async () => {
  mds = await startMds({ SECRET_SERVICE_ENCRYPTION_KEY: KEY });
});
afterAll(() => mds?.close());

describe('Ingestion sources, runs and secrets over HTTP', () => {
  it("createSecret stores the value encrypted under the host's SECRET_SERVICE_ENCRYPTION_KEY; Rest.li shows only the ciphertext", async () => {
    const created = await mds.graphql(uiDocument('createSecret'), {
      input: { name: 'PG_PASSWORD', value: 'pa55', description: 'warehouse' },
    });
    expect(graphqlError(created)).toBeUndefined();
    const urn = created.body.data.createSecret;
    expect(urn).toBe('urn:li:dataHubSecret:PG_PASSWORD');

    const res = await mds.clientFor(mds.rootToken).get(`/aspects/${encodeURIComponent(urn)}?aspect=dataHubSecretValue&version=0`);
    expect(res.status).toBe(200);
    const stored = res.body.aspect['com.linkedin.secret.DataHubSecretValue'];
    expect(stored).toMatchObject({ name: 'PG_PASSWORD', description: 'warehouse' });
    expect(stored.value).toMatch(/^v2:/);
    expect(decryptDatahubSecret(stored.value, KEY)).toBe('pa55');

    const listed = await mds.graphql(uiDocument('listSecrets'), { input: { start: 0, count: 25 } });
    expect(listed.body.data.listSecrets.secrets).toEqual([{ urn, name: 'PG_PASSWORD', description: 'warehouse' }]);
    expect(JSON.stringify(listed.body)).not.toContain('pa55');
  });

  it('a source created from the UI lists with the run a CLI recorded for it; starting a run is refused with how to run the recipe', async () => {
    const input = {
      name: 'Warehouse',
      type: 'postgres',
      schedule: { interval: '0 0 * * *', timezone: 'UTC' },
      config: { recipe: '{"source":{"type":"postgres","config":{"password":"${PG_PASSWORD}"}}}', executorId: 'default', debugMode: false },
    };
    const created = await mds.graphql(uiDocument('createIngestionSource'), { input });
    expect(graphqlError(created)).toBeUndefined();
    const source = created.body.data.createIngestionSource;

    // A run's input and result as the executor records them (Rest.li ingestProposal).
    const run = 'urn:li:dataHubExecutionRequest:e2e-run';
    const aspect = (aspectName: string, value: object) => ({
      entityType: 'dataHubExecutionRequest',
      entityUrn: run,
      aspectName,
      changeType: 'UPSERT',
      aspect: { contentType: 'application/json', value: JSON.stringify(value) },
    });
    const ingested = await mds.post('/aspects?action=ingestProposalBatch', {
      proposals: [
        aspect('dataHubExecutionRequestInput', {
          task: 'RUN_INGEST',
          args: {},
          executorId: 'default',
          source: { type: 'MANUAL_INGESTION_SOURCE', ingestionSource: source },
          requestedAt: 1000,
        }),
        aspect('dataHubExecutionRequestResult', { status: 'SUCCESS', startTimeMs: 1000, durationMs: 10 }),
      ],
    });
    expect(ingested.status).toBe(200);

    const listed = await mds.graphql(uiDocument('listIngestionSources'), { input: { start: 0, count: 25 } });
    expect(graphqlError(listed)).toBeUndefined();
    expect(listed.body.data.listIngestionSources).toMatchObject({
      total: 1,
      ingestionSources: [
        {
          urn: source,
          name: 'Warehouse',
          executions: { total: 1, executionRequests: [{ urn: run, id: 'e2e-run', result: { status: 'SUCCESS', durationMs: 10 } }] },
        },
      ],
    });

    const started = await mds.graphql(uiDocument('createIngestionExecutionRequest'), { input: { ingestionSourceUrn: source } });
    expect(graphqlError(started)).toMatchObject({ code: 400 });
    expect(graphqlError(started)!.message).toContain('`datahub ingest -c recipe.yml`');
    const runs = await mds.graphql(uiDocument('listIngestionExecutionRequests'), {
      input: { start: 0, count: 25, filters: [], systemSources: false },
    });
    expect(runs.body.data.listExecutionRequests.total).toBe(1);
  });
});
