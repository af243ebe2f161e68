import { describe, expect, it } from 'vitest';
import { GLOBAL_SETTINGS_URN } from '../src/index';
import { as, ingested, setup } from './fixtures';
import { ui, uiVariables } from './ui-documents';

const admin = as('datahub', 'Admin');
const alice = as('alice', 'Editor');
const bob = as('bob', 'Reader');
const DEFAULT_TEMPLATE = 'urn:li:dataHubPageTemplate:home_default_1';
const YOUR_ASSETS = 'urn:li:dataHubPageModule:your_assets';
const BOOT = { actor: 'urn:li:corpuser:__datahub_system', time: 1_700_000_000_000 };

// The selection of the UI's PageTemplate fragment (template.graphql), without the structured property's fields.
const TEMPLATE = `urn type properties {
  rows { modules { urn type exists properties { name type visibility { scope } params {
    richTextParams { content } assetCollectionParams { assetUrns dynamicFilterJson }
    linkParams { linkUrl imageUrl description } hierarchyViewParams { assetUrns showRelatedEntities relatedEntitiesFilterJson }
  } created { time actor { urn } } } } }
  assetSummary { summaryElements { elementType structuredProperty { urn } } }
  surface { surfaceType } visibility { scope } created { time actor { urn } } lastModified { time }
}`;

// The UI's upsertPageTemplate with that selection: its fragment's structured property fields are not all served yet.
const UPSERT_TEMPLATE = `mutation upsertPageTemplate($input: UpsertPageTemplateInput!) { upsertPageTemplate(input: $input) { ${TEMPLATE} } }`;

async function withHome() {
  const fixture = await setup();
  const latest = async (urn: string, aspect: string) =>
    (await fixture.entities.service.reader(admin.actor, { api: 'graphql' }).latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  return { ...fixture, latest };
}

/** DataHub's bootstrap data (bootstrap_mcps/page-modules.yaml, page-templates.yaml, boot/global_settings.json). */
async function bootstrapped(fixture: Awaited<ReturnType<typeof withHome>>) {
  const module = (name: string, type: string) => ({
    name,
    type,
    visibility: { scope: 'GLOBAL' },
    params: {},
    created: BOOT,
    lastModified: BOOT,
  });
  await ingested(fixture.entities, [
    { urn: YOUR_ASSETS, aspect: 'dataHubPageModuleProperties', value: module('Your Assets', 'OWNED_ASSETS') },
    { urn: 'urn:li:dataHubPageModule:top_domains', aspect: 'dataHubPageModuleProperties', value: module('Domains', 'DOMAINS') },
    {
      urn: DEFAULT_TEMPLATE,
      aspect: 'dataHubPageTemplateProperties',
      value: {
        rows: [{ modules: [YOUR_ASSETS] }, { modules: ['urn:li:dataHubPageModule:top_domains'] }],
        surface: { surfaceType: 'HOME_PAGE' },
        visibility: { scope: 'GLOBAL' },
        created: BOOT,
        lastModified: BOOT,
      },
    },
    { urn: GLOBAL_SETTINGS_URN, aspect: 'globalSettingsInfo', value: { homePage: { defaultTemplate: DEFAULT_TEMPLATE } } },
  ]);
}

describe('globalHomePageSettings (GlobalHomePageSettingsResolver, PageTemplateMapper, PageModuleMapper)', () => {
  it('answers null while no default template is stored, then the stored template with its modules', async () => {
    const fixture = await withHome();
    const QUERY = `{ globalHomePageSettings { defaultTemplate { ${TEMPLATE} } } }`;
    expect(await fixture.run(bob, QUERY)).toEqual({ data: { globalHomePageSettings: { defaultTemplate: null } } });
    await bootstrapped(fixture);
    const { data, errors } = await fixture.run(bob, QUERY);
    expect(errors).toBeUndefined();
    const template = data!.globalHomePageSettings.defaultTemplate;
    expect(template).toMatchObject({
      urn: DEFAULT_TEMPLATE,
      type: 'DATAHUB_PAGE_TEMPLATE',
      properties: {
        surface: { surfaceType: 'HOME_PAGE' },
        visibility: { scope: 'GLOBAL' },
        assetSummary: null,
        created: { time: BOOT.time, actor: { urn: BOOT.actor } },
      },
    });
    expect(template.properties.rows[0].modules).toEqual([
      {
        urn: YOUR_ASSETS,
        type: 'DATAHUB_PAGE_MODULE',
        exists: true,
        properties: {
          name: 'Your Assets',
          type: 'OWNED_ASSETS',
          visibility: { scope: 'GLOBAL' },
          params: { richTextParams: null, assetCollectionParams: null, linkParams: null, hierarchyViewParams: null },
          created: { time: BOOT.time, actor: { urn: BOOT.actor } },
        },
      },
    ]);
  });
});

describe('upsertPageModule, upsertPageTemplate, deletePageModule, deletePageTemplate (their DataHub resolvers and services)', () => {
  it("writes a personal module and template as DataHub's services do, answering the template as the UI's fragment selects it", async () => {
    const fixture = await withHome();
    const { run, latest } = fixture;
    await bootstrapped(fixture);
    const module = await run(bob, ui('upsertPageModule'), uiVariables('upsertPageModule'));
    expect(module.errors).toBeUndefined();
    const moduleUrn = module.data!.upsertPageModule.urn as string;
    expect(moduleUrn).toMatch(/^urn:li:dataHubPageModule:[0-9a-f-]{36}$/);
    const stamp = { actor: bob.actor.urn, time: expect.any(Number) };
    expect(await latest(moduleUrn, 'dataHubPageModuleProperties')).toEqual({
      name: 'Docs',
      type: 'RICH_TEXT',
      visibility: { scope: 'PERSONAL' },
      params: { richTextParams: { content: 'Welcome' } },
      created: stamp,
      lastModified: stamp,
    });

    const template = await run(bob, UPSERT_TEMPLATE, uiVariables('upsertPageTemplate', { $PAGE_MODULE_URN: moduleUrn }));
    expect(template.errors).toBeUndefined();
    const templateUrn = template.data!.upsertPageTemplate.urn as string;
    expect(await latest(templateUrn, 'dataHubPageTemplateProperties')).toEqual({
      rows: [{ modules: [moduleUrn] }],
      surface: { surfaceType: 'HOME_PAGE' },
      visibility: { scope: 'PERSONAL' },
      created: stamp,
      lastModified: stamp,
    });
    const answered = await run(bob, `{ globalHomePageSettings { defaultTemplate { urn } } }`);
    expect(answered.data!.globalHomePageSettings.defaultTemplate).toEqual({ urn: DEFAULT_TEMPLATE });
    const read = await run(bob, UPSERT_TEMPLATE, {
      input: { urn: templateUrn, rows: [{ modules: [moduleUrn, YOUR_ASSETS] }], scope: 'PERSONAL', surfaceType: 'HOME_PAGE' },
    });
    expect(
      read.data!.upsertPageTemplate.properties.rows[0].modules.map((m: { properties: { name: string } }) => m.properties.name),
    ).toEqual(['Docs', 'Your Assets']);

    // Another user may neither change nor delete Bob's; Bob may delete both; DataHub's defaults are never deleted.
    const refusedModule = await run(alice, ui('deletePageModule'), { input: { urn: moduleUrn } });
    expect(refusedModule.errors?.[0]).toMatchObject({
      message: 'Attempted to delete personal a page module that was not created by the actor',
      extensions: { code: 403 },
    });
    const refusedEdit = await run(alice, ui('upsertPageModule'), {
      input: { ...(uiVariables('upsertPageModule').input as object), urn: moduleUrn },
    });
    expect(refusedEdit.errors?.[0]).toMatchObject({ extensions: { code: 403 } });
    expect(await run(bob, ui('deletePageTemplate'), uiVariables('deletePageTemplate', { $PAGE_TEMPLATE_URN: templateUrn }))).toEqual({
      data: { deletePageTemplate: true },
    });
    expect(await run(bob, ui('deletePageModule'), uiVariables('deletePageModule', { $PAGE_MODULE_URN: moduleUrn }))).toEqual({
      data: { deletePageModule: true },
    });
    expect(await latest(moduleUrn, 'dataHubPageModuleProperties')).toBeUndefined();
    expect(await latest(templateUrn, 'dataHubPageTemplateProperties')).toBeUndefined();
    expect((await run(admin, ui('deletePageTemplate'), { input: { urn: DEFAULT_TEMPLATE } })).errors?.[0]).toMatchObject({
      message: 'Attempted to delete the default page template',
      extensions: { code: 403 },
    });
    expect((await run(admin, ui('deletePageModule'), { input: { urn: YOUR_ASSETS } })).errors?.[0]).toMatchObject({
      message: `Cannot delete default page module with urn ${YOUR_ASSETS}`,
      extensions: { code: 400 },
    });
  });

  it('needs MANAGE_HOME_PAGE_TEMPLATES for global ones, existing modules in rows and the params of the module type', async () => {
    const fixture = await withHome();
    const { run, latest } = fixture;
    await bootstrapped(fixture);
    const global = { rows: [{ modules: [YOUR_ASSETS] }], scope: 'GLOBAL', surfaceType: 'HOME_PAGE' };
    const refused = await run(alice, UPSERT_TEMPLATE, { input: global });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'User does not have permission to update global templates.',
      extensions: { code: 403 },
    });
    const edited = await run(admin, UPSERT_TEMPLATE, { input: { ...global, urn: DEFAULT_TEMPLATE } });
    expect(edited.errors).toBeUndefined();
    expect(await latest(DEFAULT_TEMPLATE, 'dataHubPageTemplateProperties')).toMatchObject({
      rows: [{ modules: [YOUR_ASSETS] }],
      created: BOOT,
      lastModified: { actor: admin.actor.urn },
    });
    const link = { name: 'Wiki', type: 'LINK', scope: 'GLOBAL', params: { linkParams: { linkUrl: 'https://wiki' } } };
    expect((await run(alice, ui('upsertPageModule'), { input: link })).errors?.[0]?.message).toBe(
      'User does not have permission to update global modules.',
    );
    expect((await run(admin, ui('upsertPageModule'), { input: link })).errors).toBeUndefined();

    const absent = 'urn:li:dataHubPageModule:absent';
    const noModule = await run(bob, UPSERT_TEMPLATE, {
      input: { rows: [{ modules: [absent] }], scope: 'PERSONAL', surfaceType: 'HOME_PAGE' },
    });
    expect(noModule.errors?.[0]).toMatchObject({ message: `Module with urn ${absent} does not exist`, extensions: { code: 400 } });
    const noParams = await run(bob, ui('upsertPageModule'), { input: { name: 'x', type: 'LINK', scope: 'PERSONAL', params: {} } });
    expect(noParams.errors?.[0]).toMatchObject({ message: 'Did not provide link params for link module', extensions: { code: 400 } });
    const unsupported = await run(bob, ui('upsertPageModule'), { input: { name: 'x', type: 'DOMAINS', scope: 'PERSONAL', params: {} } });
    expect(unsupported.errors?.[0]).toMatchObject({
      message: 'Attempted to create an unsupported module type.',
      extensions: { code: 400 },
    });
  });
});
