import { decryptDatahubSecret } from '@mds/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { sendUiMutation, storedAspect } from './support/ui-mutations';
import { readUiDocuments } from './webui/ui-documents';
import { bootstrapPlaceholders, readUiVariables, runUiOperation } from './webui/ui-queries';

// Connections and asset settings (issue 33) as DataHub's web UI sends them (connection.graphql, settings.graphql,
// tag.graphql and the variables of variables.json) to a real mds started with DataHub's SECRET_SERVICE_ENCRYPTION_KEY.
const KEY = 'an e2e key for connections';
const DOMAIN = 'urn:li:domain:marketing';
const TEMPLATE_URN = 'urn:li:dataHubPageTemplate:marketing-summary';

let mds: Mds;
let reader: string;
let editor: string;
beforeAll(async () => {
  mds = await startMds({ SECRET_SERVICE_ENCRYPTION_KEY: KEY });
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
  editor = await mds.tokenFor('urn:li:corpuser:editor', 'urn:li:dataHubRole:Editor');
});
afterAll(() => mds?.close());

/** One of the UI's queries with the variables of variables.json (the placeholders in `overrides` replaced), as the holder of `token`. */
const sendUiQuery = (name: string, overrides: Record<string, unknown>, token: string) => {
  const op = readUiDocuments().operations.find((o) => o.kind === 'query' && o.name === name)!;
  const call = readUiVariables().queries[name]![0]!;
  return runUiOperation(async (body) => mds.clientFor(token).post('/api/graphql', body), op, call, {
    ...bootstrapPlaceholders().values,
    ...overrides,
  }) as Promise<{ status: number; body: any }>;
};
const readConnection = (urn: string, token: string) => sendUiQuery('connection', { $CONNECTION_URN: urn }, token);

describe('upsertConnection, connection (UpsertConnectionResolver, ConnectionMapper) with the host’s key', () => {
  it('stores the blob encrypted under SECRET_SERVICE_ENCRYPTION_KEY and shows it only to who manages connections', async () => {
    const upserted = await sendUiMutation(mds, 'upsertConnection');
    expect(upserted.body.errors).toBeUndefined();
    const connection = upserted.body.data.upsertConnection;
    expect(connection).toMatchObject({ details: { type: 'JSON', json: { blob: '{}' } }, platform: { urn: 'urn:li:dataPlatform:hive' } });
    const details = await storedAspect(mds, connection.urn, 'dataHubConnectionDetails');
    expect(decryptDatahubSecret(details!.json.encryptedBlob, KEY)).toBe('{}');

    expect((await readConnection(connection.urn, mds.rootToken)).body).toEqual({ data: { connection } });
    // An Editor holds no MANAGE_CONNECTIONS: the connection without its blob, and no upsert.
    const hidden = await readConnection(connection.urn, editor);
    expect(hidden.body).toEqual({ data: { connection: { ...connection, details: { type: 'JSON', json: null } } } });
    expect(graphqlError((await sendUiMutation(mds, 'upsertConnection', { token: editor })) as never)).toEqual({
      message: 'Unauthorized to upsert Connection. Please contact your DataHub administrator for more information.',
      code: 403,
    });
  });
});

describe('updateAssetSettings (UpdateAssetSettingsResolver) with the UI’s PageTemplate fragment', () => {
  it('sets a domain’s summary template, answered as the page template; refuses a Reader and the UI’s dataset urn', async () => {
    expect((await mds.graphql(`mutation { createDomain(input: { id: "marketing", name: "Marketing" }) }`)).body.errors).toBeUndefined();
    const template = await mds.graphql(
      `mutation { upsertPageTemplate(input: { urn: "${TEMPLATE_URN}", rows: [], scope: GLOBAL, surfaceType: ASSET_SUMMARY }) { urn } }`,
    );
    expect(template.body.errors).toBeUndefined();
    // The UI sends the urn of the page it is on; here a domain's (its variables name a dataset, which has no settings).
    const overrides = { $DATASET_URN: DOMAIN, $PAGE_TEMPLATE_URN: TEMPLATE_URN };
    const updated = await sendUiMutation(mds, 'updateAssetSettings', { overrides, token: editor });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateAssetSettings).toMatchObject({
      assetSummary: {
        templates: [
          {
            template: {
              urn: TEMPLATE_URN,
              type: 'DATAHUB_PAGE_TEMPLATE',
              properties: { rows: [], surface: { surfaceType: 'ASSET_SUMMARY' } },
            },
          },
        ],
      },
    });
    expect(await storedAspect(mds, DOMAIN, 'assetSettings')).toEqual({ assetSummary: { templates: [{ template: TEMPLATE_URN }] } });
    const read = await mds.graphql(`{ domain(urn: "${DOMAIN}") { settings { assetSummary { templates { template { urn } } } } } }`);
    expect(read.body.data.domain.settings).toEqual({ assetSummary: { templates: [{ template: { urn: TEMPLATE_URN } }] } });

    expect(graphqlError((await sendUiMutation(mds, 'updateAssetSettings', { overrides, token: reader })) as never)).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      code: 403,
    });
    const dataset = await sendUiMutation(mds, 'updateAssetSettings', { overrides: { $PAGE_TEMPLATE_URN: TEMPLATE_URN } });
    expect(graphqlError(dataset as never)).toEqual({
      message: 'Failed to update asset settings: dataset entities have no assetSettings aspect.',
      code: 400,
    });
  });
});

describe("Tag.aspects (WeaklyTypedAspectsResolver) on @mds/tags's Tag", () => {
  it("the UI's getTag answers, its auto-rendered aspects none (DataHub's model marks none); aspects lists the tag's", async () => {
    const tag = 'urn:li:tag:Legacy';
    expect((await mds.graphql(`mutation { createTag(input: { id: "Legacy", name: "Legacy" }) }`)).body.errors).toBeUndefined();
    const page = await sendUiQuery('getTag', { $TAG_URN: tag }, reader);
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.tag).toMatchObject({ urn: tag, properties: { name: 'Legacy' }, autoRenderAspects: [] });
    const { body } = await mds.graphql(
      `{ tag(urn: "${tag}") { aspects(input: { aspectNames: ["tagProperties"] }) { aspectName payload } } }`,
    );
    expect(body.data.tag.aspects).toEqual([{ aspectName: 'tagProperties', payload: expect.stringContaining('"name":"Legacy"') }]);
  });
});
