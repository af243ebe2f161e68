import { describe, expect, it } from 'vitest';
import { GLOBAL_SETTINGS_URN } from '../src/index';
import { as, ingested, setup } from './fixtures';
import { ui, uiVariables } from './ui-documents';

const admin = as('datahub', 'Admin');
const alice = as('alice', 'Editor');
const bob = as('bob', 'Reader');
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales,PROD)';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,events,PROD)';

async function withDatasets() {
  const fixture = await setup();
  await ingested(fixture.entities, [
    { urn: HIVE, aspect: 'datasetProperties', value: { name: 'sales', customProperties: {} } },
    { urn: KAFKA, aspect: 'datasetProperties', value: { name: 'events', customProperties: {} } },
  ]);
  const latest = async (urn: string, aspect: string) =>
    (await fixture.entities.service.reader(admin.actor, { api: 'graphql' }).latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  return { ...fixture, latest };
}

describe('createView, updateView, deleteView (CreateViewResolver, UpdateViewResolver, DeleteViewResolver)', () => {
  it("writes dataHubViewInfo as DataHub's ViewService does, answers the view, lists it and narrows search by it", async () => {
    const { run, latest } = await withDatasets();
    const created = await run(bob, ui('createView'), uiVariables('createView'));
    expect(created.errors).toBeUndefined();
    const view = created.data!.createView;
    expect(view).toMatchObject({
      urn: expect.stringMatching(/^urn:li:dataHubView:[0-9a-f-]{36}$/),
      type: 'DATAHUB_VIEW',
      viewType: 'PERSONAL',
      name: 'Hive tables',
      description: '',
      definition: {
        entityTypes: ['DATASET'],
        filter: {
          operator: 'AND',
          filters: [{ field: 'platform', condition: 'EQUAL', values: ['urn:li:dataPlatform:hive'], negated: false }],
        },
      },
    });
    const stamp = { actor: bob.actor.urn, time: expect.any(Number) };
    expect(await latest(view.urn, 'dataHubViewInfo')).toEqual({
      type: 'PERSONAL',
      name: 'Hive tables',
      description: '',
      definition: {
        entityTypes: ['dataset'],
        filter: {
          or: [{ and: [{ field: 'platform', condition: 'EQUAL', negated: false, values: ['urn:li:dataPlatform:hive'], value: '' }] }],
        },
      },
      created: stamp,
      lastModified: stamp,
    });
    const mine = await run(bob, '{ listMyViews(input: {}) { total views { urn } } }');
    expect(mine.data!.listMyViews).toEqual({ total: 1, views: [{ urn: view.urn }] });
    const search = await run(
      bob,
      `{ searchAcrossEntities(input: { query: "*", viewUrn: "${view.urn}" }) { total searchResults { entity { urn } } } }`,
    );
    expect(search.data!.searchAcrossEntities).toEqual({ total: 1, searchResults: [{ entity: { urn: HIVE } }] });
  });

  it('refuses a global view without MANAGE_GLOBAL_VIEWS, and an edit of a personal view by anyone but its creator', async () => {
    const { run, latest } = await withDatasets();
    const global = uiVariables('createView') as { input: Record<string, unknown> };
    global.input.viewType = 'GLOBAL';
    const refused = await run(alice, ui('createView'), global);
    expect(refused.errors?.[0]).toMatchObject({ message: UNAUTHORIZED, extensions: { code: 403 } });
    const shared = (await run(admin, ui('createView'), global)).data!.createView.urn as string;
    const personal = (await run(bob, ui('createView'), uiVariables('createView'))).data!.createView.urn as string;

    // Admin may edit the global view; Alice (no MANAGE_GLOBAL_VIEWS, not its creator) neither it nor Bob's.
    const update = (urn: string) => uiVariables('updateView', { $VIEW_URN: urn });
    for (const urn of [shared, personal]) {
      const answer = await run(alice, ui('updateView'), update(urn));
      expect(answer.errors?.[0]).toMatchObject({ message: UNAUTHORIZED, extensions: { code: 403 } });
      expect((await run(alice, ui('deleteView'), { urn })).errors?.[0]?.message).toBe(UNAUTHORIZED);
    }
    const edited = await run(admin, ui('updateView'), update(shared));
    expect(edited.data!.updateView).toMatchObject({ urn: shared, viewType: 'GLOBAL', description: 'Every Hive table' });
    const info = await latest(shared, 'dataHubViewInfo');
    expect(info).toMatchObject({
      description: 'Every Hive table',
      created: { actor: admin.actor.urn },
      lastModified: { actor: admin.actor.urn },
    });
    expect((await run(bob, ui('updateView'), update(personal))).data!.updateView.description).toBe('Every Hive table');

    const absent = await run(admin, ui('updateView'), update('urn:li:dataHubView:absent'));
    expect(absent.errors?.[0]).toMatchObject({
      message: 'Failed to modify View. View with urn urn:li:dataHubView:absent does not exist.',
      extensions: { code: 400 },
    });
  });

  it('deletes the view and clears the global default view that named it', async () => {
    const { run, latest } = await withDatasets();
    const global = uiVariables('createView') as { input: Record<string, unknown> };
    global.input.viewType = 'GLOBAL';
    const urn = (await run(admin, ui('createView'), global)).data!.createView.urn as string;
    expect((await run(admin, ui('updateGlobalViewsSettings'), uiVariables('updateGlobalViewsSettings', { $VIEW_URN: urn }))).data).toEqual({
      updateGlobalViewsSettings: true,
    });
    expect((await run(bob, '{ globalViewsSettings { defaultView } }')).data!.globalViewsSettings).toEqual({ defaultView: urn });

    expect(await run(admin, ui('deleteView'), uiVariables('deleteView', { $VIEW_URN: urn }))).toEqual({ data: { deleteView: true } });
    expect(await latest(urn, 'dataHubViewInfo')).toBeUndefined();
    expect((await run(bob, '{ globalViewsSettings { defaultView } }')).data!.globalViewsSettings).toEqual({ defaultView: null });
    expect(await latest(GLOBAL_SETTINGS_URN, 'globalSettingsInfo')).toEqual({ views: {} });
  });
});

describe('createPost, updatePost, deletePost (CreatePostResolver, UpdatePostResolver, DeletePostResolver)', () => {
  const LIST = ui('listPosts');

  it("writes postInfo as DataHub's PostService does, for the home page and for an entity, and lists both", async () => {
    const { run, latest } = await withDatasets();
    expect(await run(admin, ui('createPost'), uiVariables('createPost'))).toEqual({ data: { createPost: true } });
    expect(await run(admin, ui('createPost'), uiVariables('createPost', { $DATASET_URN: HIVE }, 1))).toEqual({
      data: { createPost: true },
    });
    const posts = (await run(bob, LIST, { input: { start: 0, count: 10 } })).data!.listPosts;
    expect(posts.total).toBe(2);
    const home = posts.posts.find((p: { postType: string }) => p.postType === 'HOME_PAGE_ANNOUNCEMENT');
    expect(home).toMatchObject({
      type: 'POST',
      content: { contentType: 'TEXT', title: 'Maintenance tonight', description: 'Search may be slow', link: null, media: null },
    });
    const stored = await latest(home.urn, 'postInfo');
    expect(stored).toEqual({
      type: 'HOME_PAGE_ANNOUNCEMENT',
      content: { type: 'TEXT', title: 'Maintenance tonight', description: 'Search may be slow' },
      created: expect.any(Number),
      lastModified: expect.any(Number),
      auditStamp: { actor: admin.actor.urn, time: expect.any(Number) },
    });
    const about = await run(bob, LIST, { input: { resourceUrn: HIVE } });
    expect(about.data!.listPosts.posts).toMatchObject([{ postType: 'ENTITY_ANNOUNCEMENT', content: { title: 'Schema change' } }]);

    // updatePost replaces the content; deletePost removes the post.
    const update = uiVariables('updatePost', { $POST_URN: home.urn });
    expect(await run(admin, ui('updatePost'), update)).toEqual({ data: { updatePost: true } });
    expect(await latest(home.urn, 'postInfo')).toMatchObject({
      content: { type: 'TEXT', title: 'Maintenance tonight', description: 'Search may be slow until 2am' },
    });
    expect(await run(admin, ui('deletePost'), uiVariables('deletePost', { $POST_URN: home.urn }))).toEqual({ data: { deletePost: true } });
    expect(await latest(home.urn, 'postInfo')).toBeUndefined();
    expect((await run(bob, LIST, { input: {} })).data!.listPosts.total).toBe(1);
  });

  it("refuses callers without the announcement privileges with DataHub's texts, and an absent post with a 400", async () => {
    const { run } = await withDatasets();
    const refused = await run(bob, ui('createPost'), uiVariables('createPost'));
    expect(refused.errors?.[0]).toMatchObject({
      message: 'Unauthorized to create posts. Please contact your DataHub administrator if this needs corrective action.',
      extensions: { code: 403 },
    });
    const absent = 'urn:li:post:absent';
    expect((await run(bob, ui('updatePost'), uiVariables('updatePost', { $POST_URN: absent }))).errors?.[0]?.message).toBe(
      'Unauthorized to update posts. Please contact your DataHub administrator if this needs corrective action.',
    );
    expect((await run(bob, ui('deletePost'), { urn: absent })).errors?.[0]?.message).toBe(
      'Unauthorized to delete posts. Please contact your DataHub administrator if this needs corrective action.',
    );
    expect((await run(admin, ui('updatePost'), uiVariables('updatePost', { $POST_URN: absent }))).errors?.[0]).toMatchObject({
      message: `Failed to edit/update post for urn ${absent} as post doesn't exist`,
      extensions: { code: 400 },
    });
    expect((await run(admin, ui('deletePost'), { urn: absent })).errors?.[0]).toMatchObject({ extensions: { code: 400 } });
    expect((await run(bob, LIST, { input: {} })).data!.listPosts.total).toBe(0);
  });
});

describe('batchUpdateStepStates (BatchUpdateStepStatesResolver)', () => {
  it("lets any signed-in user record a step's properties, replaced whole, stamped by the caller", async () => {
    const { run, latest } = await setup().then(async (f) => ({
      ...f,
      latest: async (urn: string) =>
        (await f.entities.service.reader(admin.actor, { api: 'graphql' }).latest([urn], ['dataHubStepStateProperties']))
          .get(urn)
          ?.get('dataHubStepStateProperties')?.value,
    }));
    const variables = uiVariables('batchUpdateStepStates', { $ME_URN: 'urn:li:corpuser:bob' });
    const answer = await run(bob, ui('batchUpdateStepStates'), variables);
    expect(answer).toEqual({
      data: { batchUpdateStepStates: { results: [{ id: 'urn:li:corpuser:bob-last-viewed-announcement-time', succeeded: true }] } },
    });
    expect(await latest('urn:li:dataHubStepState:urn:li:corpuser:bob-last-viewed-announcement-time')).toEqual({
      properties: { lastViewedAnnouncementTime: '1700000000000' },
      lastModified: { actor: bob.actor.urn, time: expect.any(Number) },
    });
    const read = await run(
      bob,
      '{ batchGetStepStates(input: { ids: ["urn:li:corpuser:bob-last-viewed-announcement-time"] }) { results { id properties { key value } } } }',
    );
    expect(read.data!.batchGetStepStates.results).toEqual([
      {
        id: 'urn:li:corpuser:bob-last-viewed-announcement-time',
        properties: [{ key: 'lastViewedAnnouncementTime', value: '1700000000000' }],
      },
    ]);
    // A second write replaces the properties.
    await run(as('carol', 'none'), ui('batchUpdateStepStates'), {
      input: { states: [{ id: 'urn:li:corpuser:bob-last-viewed-announcement-time', properties: [{ key: 'done', value: 'true' }] }] },
    });
    expect(await latest('urn:li:dataHubStepState:urn:li:corpuser:bob-last-viewed-announcement-time')).toMatchObject({
      properties: { done: 'true' },
    });
  });
});

describe('updateGlobalViewsSettings, updateDocPropagationSettings, updateApplicationsSettings (Update*SettingsResolver)', () => {
  it('changes one part of globalSettingsInfo each, keeping the others, as an Admin; refuses others', async () => {
    const { run, latest, entities } = await withDatasets();
    await ingested(entities, [{ urn: GLOBAL_SETTINGS_URN, aspect: 'globalSettingsInfo', value: { sso: { baseUrl: 'https://sso' } } }]);
    expect(await run(admin, ui('updateDocPropagationSettings'), uiVariables('updateDocPropagationSettings'))).toEqual({
      data: { updateDocPropagationSettings: true },
    });
    expect(await run(admin, ui('updateApplicationsSettings'), uiVariables('updateApplicationsSettings'))).toEqual({
      data: { updateApplicationsSettings: true },
    });
    expect(await latest(GLOBAL_SETTINGS_URN, 'globalSettingsInfo')).toEqual({
      sso: { baseUrl: 'https://sso' },
      docPropagation: { enabled: true, columnPropagationEnabled: true },
      applications: { enabled: true },
    });
    expect((await run(bob, '{ docPropagationSettings { docColumnPropagation } }')).data).toEqual({
      docPropagationSettings: { docColumnPropagation: true },
    });
    const shown = await run(bob, '{ appConfig { visualConfig { application { showApplicationInNavigation } } } }');
    expect(shown.data!.appConfig.visualConfig.application).toEqual({ showApplicationInNavigation: true });
    await run(admin, ui('updateDocPropagationSettings'), { input: { docColumnPropagation: false } });
    expect((await run(bob, '{ docPropagationSettings { docColumnPropagation } }')).data!.docPropagationSettings).toEqual({
      docColumnPropagation: false,
    });

    for (const name of ['updateDocPropagationSettings', 'updateApplicationsSettings', 'updateGlobalViewsSettings']) {
      const refused = await run(bob, ui(name), uiVariables(name, { $VIEW_URN: 'urn:li:dataHubView:x' }));
      expect(refused.errors?.[0]).toMatchObject({ message: UNAUTHORIZED, extensions: { code: 403 } });
    }
    const nulled = await run(admin, ui('updateApplicationsSettings'), { input: { enabled: null } });
    expect(nulled.errors?.[0]).toMatchObject({ message: "Field 'enabled' must be true or false.", extensions: { code: 400 } });
    const noView = await run(admin, ui('updateGlobalViewsSettings'), { input: { defaultView: 'urn:li:dataHubView:absent' } });
    expect(noView.errors?.[0]).toMatchObject({ extensions: { code: 400 } });
  });
});
