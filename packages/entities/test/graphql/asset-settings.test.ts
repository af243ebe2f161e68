import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { actor, ds, errorOf, upsert } from './edit-support';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DOMAIN = 'urn:li:domain:marketing';
const PRODUCT = 'urn:li:dataProduct:c360';
const TERM = 'urn:li:glossaryTerm:Revenue';
const NODE = 'urn:li:glossaryNode:Finance';
const TEMPLATE = 'urn:li:dataHubPageTemplate:finance-summary';
const OTHER_TEMPLATE = 'urn:li:dataHubPageTemplate:plain';
const FORBIDDEN = { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 };

// The UI's mutation (settings.graphql, DataHub c731e725) with what these tests can answer of its PageTemplate fragment:
// the template's own fields come from the host's home-page package (apps/server/test/asset-settings.e2e.test.ts).
const UPDATE = `mutation updateAssetSettings($input: UpdateAssetSettingsInput!) {
  updateAssetSettings(input: $input) { assetSummary { templates { template { urn type } } } }
}`;
const SETTINGS = `settings { assetSummary { templates { template { urn type } } } }`;

const TEMPLATE_PROPERTIES = {
  rows: [],
  surface: { surfaceType: 'ASSET_SUMMARY' },
  visibility: { scope: 'GLOBAL' },
  created: { time: 1, actor: 'urn:li:corpuser:datahub' },
  lastModified: { time: 1, actor: 'urn:li:corpuser:datahub' },
};

async function setup() {
  const api = await goldenGraphql(databases, []);
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      upsert(DOMAIN, 'domainProperties', { name: 'Marketing' }),
      upsert(PRODUCT, 'dataProductProperties', { name: 'Customer 360' }),
      upsert(TERM, 'glossaryTermInfo', { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL' }),
      upsert(NODE, 'glossaryNodeInfo', { name: 'Finance', definition: 'Money' }),
      upsert(TEMPLATE, 'dataHubPageTemplateProperties', TEMPLATE_PROPERTIES),
      upsert(OTHER_TEMPLATE, 'dataHubPageTemplateProperties', TEMPLATE_PROPERTIES),
      upsert(ds('hive', 'orders'), 'status', { removed: false }),
    ],
    { batch: false },
  );
  const stored = async (urn: string) => (await api.store.latest([urn], ['assetSettings'])).get(urn)?.get('assetSettings')?.value;
  const update = (urn: string, templateUrn: string | undefined, as = actor('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY)) =>
    api.run(UPDATE, { input: { urn, ...(templateUrn ? { summary: { template: templateUrn } } : {}) } }, as);
  return { ...api, stored, update };
}

const summary = (urn: string) => ({ assetSummary: { templates: [{ template: { urn, type: 'DATAHUB_PAGE_TEMPLATE' } }] } });

describe("Asset settings, as DataHub's UpdateAssetSettingsResolver and AssetSettingsMapper answer them", () => {
  it('updateAssetSettings writes assetSettings with the one template, answered on every type that carries it', async () => {
    const { update, stored, query } = await setup();
    for (const urn of [DOMAIN, PRODUCT, TERM, NODE]) {
      const result = await update(urn, TEMPLATE);
      expect(errorOf(result)).toBeUndefined();
      expect(result.data!.updateAssetSettings).toEqual(summary(TEMPLATE));
      expect(await stored(urn)).toEqual({ assetSummary: { templates: [{ template: TEMPLATE }] } });
    }
    // A second template replaces the first, as the resolver builds a new one-element list.
    expect((await update(DOMAIN, OTHER_TEMPLATE)).data!.updateAssetSettings).toEqual(summary(OTHER_TEMPLATE));
    expect(await stored(DOMAIN)).toEqual({ assetSummary: { templates: [{ template: OTHER_TEMPLATE }] } });
    // Without a summary the settings are written as they are.
    expect((await update(PRODUCT, undefined)).data!.updateAssetSettings).toEqual(summary(TEMPLATE));

    const read = await query(`{
      domain(urn: "${DOMAIN}") { ${SETTINGS} } dataProduct(urn: "${PRODUCT}") { ${SETTINGS} }
      glossaryTerm(urn: "${TERM}") { ${SETTINGS} } glossaryNode(urn: "${NODE}") { ${SETTINGS} }
    }`);
    expect(read).toEqual({
      domain: { settings: summary(OTHER_TEMPLATE) },
      dataProduct: { settings: summary(TEMPLATE) },
      glossaryTerm: { settings: summary(TEMPLATE) },
      glossaryNode: { settings: summary(TEMPLATE) },
    });
  });

  it('settings is null where none are stored; stored settings without templates answer an empty list (the PDL default)', async () => {
    const { service, query } = await setup();
    await service.ingest(SYSTEM_ACTOR, [upsert(TERM, 'assetSettings', { assetSummary: {} })], { batch: false });
    const read = await query(`{ domain(urn: "${DOMAIN}") { ${SETTINGS} } glossaryTerm(urn: "${TERM}") { ${SETTINGS} } }`);
    expect(read).toEqual({ domain: { settings: null }, glossaryTerm: { settings: { assetSummary: { templates: [] } } } });
  });

  it('asks EDIT_ENTITY or MANAGE_ASSET_SUMMARY on the asset (what the UI asks, canManageAssetSummary)', async () => {
    const { update, stored } = await setup();
    expect(errorOf(await update(DOMAIN, TEMPLATE, actor('urn:li:corpuser:rita')))).toEqual([FORBIDDEN]);
    expect(errorOf(await update(DOMAIN, TEMPLATE, actor('urn:li:corpuser:tina', Privilege.EDIT_ENTITY_TAGS)))).toEqual([FORBIDDEN]);
    expect(await stored(DOMAIN)).toBeUndefined();
    expect(errorOf(await update(DOMAIN, TEMPLATE, actor('urn:li:corpuser:sam', Privilege.MANAGE_ASSET_SUMMARY)))).toBeUndefined();
    expect(await stored(DOMAIN)).toEqual({ assetSummary: { templates: [{ template: TEMPLATE }] } });
  });

  it('refuses with a 400 what would leave a bad record, and writes nothing', async () => {
    const { update, stored } = await setup();
    const cases: [string, string, string][] = [
      [ds('hive', 'orders'), TEMPLATE, 'Failed to update asset settings: dataset entities have no assetSettings aspect.'],
      ['urn:li:domain:absent', TEMPLATE, 'Failed to update asset settings: urn:li:domain:absent does not exist.'],
      [
        DOMAIN,
        'urn:li:dataHubPageTemplate:absent',
        'Failed to update asset settings: urn:li:dataHubPageTemplate:absent is no stored page template.',
      ],
      [DOMAIN, TERM, `Failed to update asset settings: ${TERM} is no stored page template.`],
      [DOMAIN, 'template', 'Invalid urn: template'],
      ['marketing', TEMPLATE, 'Invalid urn: marketing'],
    ];
    for (const [urn, templateUrn, message] of cases) expect(errorOf(await update(urn, templateUrn))).toEqual([{ message, code: 400 }]);
    expect(await stored(DOMAIN)).toBeUndefined();
  });
});
