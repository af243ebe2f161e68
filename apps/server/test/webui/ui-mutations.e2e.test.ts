import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSampleData } from '../support/graphql-docs';
import { startMds, type Mds } from '../support/mds';
import { sendUiMutation } from '../support/ui-mutations';
import { readUiVariables } from './ui-queries';

// Every mutation of DataHub's web UI, sent as its pages send it (the document of fixtures/datahub-web-react, the
// variables of variables.json), one after the other against one real mds holding DataHub's bootstrap sample, as the
// root user (issue 33). Each must answer without `errors`, but the few whose answer is a documented refusal (listed
// below with the text the user reads). What each writes is read back by the tests of its family (label-mutations,
// glossary-mutations, … and the packages' tests, each naming DataHub's resolver); this one proves that the whole set,
// as the UI sends it, runs in a plausible order on one installation: things are created before they are used, edited,
// then removed, and what a create answers (an urn, a token) is what the later calls name.
const { mutations } = readUiVariables();

/** Creations first, in dependency order, each naming the placeholder its answer fills (a urn, or a field of the answer). */
const CREATE: readonly [mutation: string, placeholder?: string, field?: string][] = [
  ['createTag'],
  ['createGroup'],
  ['createGlossaryNode'],
  ['createGlossaryTerm'],
  ['createDomain', '$DOMAIN_URN'],
  ['createDataProduct', '$DATA_PRODUCT_URN', 'urn'],
  ['createApplication', '$APPLICATION_URN', 'urn'],
  ['createBusinessAttribute', '$BUSINESS_ATTRIBUTE_URN', 'urn'],
  ['createStructuredProperty', '$STRUCTURED_PROPERTY_URN', 'urn'],
  ['createOwnershipType', '$OWNERSHIP_TYPE_URN', 'urn'],
  ['createQuery', '$QUERY_URN', 'urn'],
  ['createERModelRelationship', '$ER_MODEL_RELATIONSHIP_URN', 'urn'],
  ['createIngestionSource', '$INGESTION_SOURCE_URN'],
  ['createSecret', '$SECRET_URN'],
  ['createView', '$VIEW_URN', 'urn'],
  ['createPost'],
  ['createPolicy', '$POLICY_URN'],
  ['createTest', '$TEST_URN'],
  ['raiseIncident', '$INCIDENT_URN'],
  ['upsertConnection', '$CONNECTION_URN', 'urn'],
  ['upsertPageModule', '$PAGE_MODULE_URN', 'urn'],
  ['upsertPageTemplate', '$PAGE_TEMPLATE_URN', 'urn'],
  ['createAccessToken'],
  ['createInviteToken', '$INVITE_TOKEN', 'inviteToken'],
  ['createNativeUserResetToken'],
];

/** Removals and deletions last, after every edit: a removal of what the edits added, then the entities themselves. */
const REMOVE: readonly string[] = [
  'removeTag',
  'batchRemoveTags',
  'removeTerm',
  'batchRemoveTerms',
  'removeOwner',
  'batchRemoveOwners',
  'removeLink',
  'removeRelatedTerms',
  'removeBusinessAttribute',
  'removeStructuredProperties',
  'removeGroupMembers',
  'unsetDomain',
  'unlinkAssetVersion',
  'revokeAccessToken',
  'deletePageTemplate',
  'deletePageModule',
  'deleteView',
  'deletePost',
  'deletePolicy',
  'deleteTest',
  'deleteQuery',
  'deleteSecret',
  'deleteIngestionSource',
  'deleteOwnershipType',
  'deleteBusinessAttribute',
  'deleteStructuredProperty',
  'deleteDataProduct',
  'deleteApplication',
  'deleteDomain',
  'deleteGlossaryEntity',
  'deleteTag',
  'deleteAssertion',
  'removeGroup',
  'removeUser',
];

/**
 * What any signed-in user may do, role or not, as DataHub's resolvers decide: accept an invite, keep their own
 * settings, step states, personal views and personal home-page modules and templates. Every other mutation needs a
 * privilege a user without a role does not hold.
 */
const EVERY_USER = [
  'acceptRole',
  'batchUpdateStepStates',
  'createView',
  'updateCorpUserViewsSettings',
  'updateUserHomePageSettings',
  'updateUserSetting',
  'upsertPageModule',
  'upsertPageTemplate',
];

/** The entities REMOVE deletes, by the placeholder that names them. */
const DELETED = [
  '$DOMAIN_URN',
  '$DATA_PRODUCT_URN',
  '$APPLICATION_URN',
  '$BUSINESS_ATTRIBUTE_URN',
  '$STRUCTURED_PROPERTY_URN',
  '$OWNERSHIP_TYPE_URN',
  '$QUERY_URN',
  '$INGESTION_SOURCE_URN',
  '$SECRET_URN',
  '$VIEW_URN',
  '$POST_URN',
  '$POLICY_URN',
  '$TEST_URN',
  '$PAGE_MODULE_URN',
  '$PAGE_TEMPLATE_URN',
  '$ASSERTION_URN',
];

/**
 * The mutations whose answer is a refusal by design, with what the user reads: running an ingestion or testing a
 * connection needs DataHub's Python executor, which mds does not ship (ingestion.ts says how to run the recipe instead).
 */
const REFUSED: Record<string, RegExp> = {
  createIngestionExecutionRequest: /datahub ingest -c recipe\.yml/,
  cancelIngestionExecutionRequest: /is cancelled where it runs/,
  createTestConnectionRequest: /--dry-run/,
};

/**
 * What the bootstrap sample lacks and no UI mutation's answer names: a post and a token (createPost answers true,
 * createAccessToken the token itself: the UI lists them to find them), an assertion (written by DataHub's sources),
 * a form on the dataset (made by DataHub's forms API).
 */
async function provision(mds: Mds, values: Record<string, unknown>) {
  const posts = await mds.graphql('{ listPosts(input: { start: 0, count: 10 }) { posts { urn } } }');
  values.$POST_URN = posts.body.data.listPosts.posts[0].urn;
  const tokens = await mds.graphql(
    `{ listAccessTokens(input: { start: 0, count: 10, filters: [{ field: "ownerUrn", values: ["urn:li:corpuser:datahub"] }] }) { tokens { id name } } }`,
  );
  values.$ACCESS_TOKEN_ID = tokens.body.data.listAccessTokens.tokens.find((t: { name: string }) => t.name === 'my token').id;
  const assertion = 'urn:li:assertion:freshness_of_hive';
  const hive = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
  const ingest = await mds.post('/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'assertion',
      entityUrn: assertion,
      changeType: 'UPSERT',
      aspectName: 'assertionInfo',
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({
          type: 'FRESHNESS',
          freshnessAssertion: { entity: hive, type: 'DATASET_CHANGE', schedule: { type: 'FIXED_INTERVAL' } },
        }),
      },
    },
  });
  expect(ingest.status).toBe(200);
  values.$ASSERTION_URN = assertion;
  // A verification form on the dataset whose prompt asks for the structured property the UI created (its Prompt.tsx answers it).
  const form = await mds.graphql(`mutation($input: CreateFormInput!) { createForm(input: $input) { urn } }`, {
    input: {
      id: 'governance',
      name: 'Governance',
      type: 'VERIFICATION',
      prompts: [
        {
          id: 'prompt_1',
          title: 'How long is it kept?',
          type: 'STRUCTURED_PROPERTY',
          structuredPropertyParams: { urn: values.$STRUCTURED_PROPERTY_URN },
          required: true,
        },
      ],
      actors: { owners: true },
    },
  });
  expect(form.body.errors).toBeUndefined();
  values.$FORM_URN = form.body.data.createForm.urn;
  const assigned = await mds.graphql(`mutation($input: BatchAssignFormInput!) { batchAssignForm(input: $input) }`, {
    input: { formUrn: values.$FORM_URN, entityUrns: [hive] },
  });
  expect(assigned.body.errors).toBeUndefined();
}

const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | null | undefined)?.[key], value);

describe("every mutation of DataHub's web UI, as its pages send them, on one installation", () => {
  let mds: Mds;
  const values: Record<string, unknown> = {};
  const answers = new Map<string, { status: number; body: any }>();
  let newcomer: string;
  // The summary tab's template is set on the entity whose page it is: a domain, glossary term or node, data product
  // (the aspect assetSettings is theirs); variables.json names a dataset, which DataHub refuses as mds does.
  const overridesFor = (name: string) => (name === 'updateAssetSettings' ? { ...values, $DATASET_URN: values.$DOMAIN_URN } : values);
  /** Whether each entity REMOVE deletes exists (entityExists). */
  const existence = async () => {
    const exists: Record<string, boolean> = {};
    for (const placeholder of DELETED) {
      const { body } = await mds.graphql('query ($urn: String!) { entityExists(urn: $urn) }', { urn: values[placeholder] });
      exists[placeholder] = body.data.entityExists;
    }
    return exists;
  };
  const send = async (name: string) => {
    // An invite is accepted by someone who signs up with it: not the root user, whose Admin role no invite changes.
    const token = name === 'acceptRole' ? newcomer : undefined;
    const answer = await sendUiMutation(mds, name, { overrides: overridesFor(name), ...(token && { token }) });
    answers.set(name, answer);
    return answer;
  };

  beforeAll(async () => {
    // A secret key, as a DataHub with secrets and connections has one.
    mds = await startMds({ SECRET_SERVICE_ENCRYPTION_KEY: 'a key of the installation, not a default' });
    await ingestSampleData(mds);
    // jdoe signs in with a password, so an Admin can make a reset link for them (createNativeUserResetToken).
    await mds.domains.auth.service.credentials.setPassword('urn:li:corpuser:jdoe', 'correct horse battery staple');
    newcomer = await mds.tokenFor('urn:li:corpuser:newcomer', null);
  });
  afterAll(() => mds?.close());

  it('orders every one of them: creations, edits, removals', () => {
    const named = [...CREATE.map(([name]) => name), ...REMOVE];
    expect(named.filter((name) => !(name in mutations))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
  });

  it('creates what the later calls name, each answering without errors', async () => {
    const failed: string[] = [];
    for (const [name, placeholder, field] of CREATE) {
      const { status, body } = await send(name);
      if (status !== 200 || body?.errors) {
        failed.push(`${name}: ${status} ${JSON.stringify(body?.errors ?? body)}`);
        continue;
      }
      if (placeholder) {
        const answer = body.data[name];
        const value = field ? at(answer, field) : answer;
        if (typeof value !== 'string') failed.push(`${name}: no ${field ?? 'urn'} in ${JSON.stringify(answer)}`);
        else values[placeholder] = value;
      }
    }
    await provision(mds, values);
    expect(failed).toEqual([]);
    expect(await existence()).toEqual(Object.fromEntries(DELETED.map((p) => [p, true])));
  });

  it('refuses a user without a role every mutation but those DataHub lets every user make', async () => {
    const nobody = await mds.tokenFor('urn:li:corpuser:nobody', null);
    // acceptRole last: accepting the invite gives the user its role.
    const names = Object.keys(mutations)
      .filter((name) => name !== 'acceptRole')
      .sort();
    const outcome: Record<string, string> = {};
    for (const name of [...names, 'acceptRole']) {
      const { status, body } = await sendUiMutation(mds, name, { overrides: overridesFor(name), token: nobody });
      const codes = (body?.errors ?? []).map((e: { extensions?: { code?: number } }) => e.extensions?.code);
      outcome[name] =
        status !== 200
          ? `HTTP ${status}`
          : codes.length === 0
            ? 'allowed'
            : codes.every((c: unknown) => c === 403)
              ? 'refused'
              : JSON.stringify(body.errors);
    }
    const expected = Object.fromEntries(Object.keys(mutations).map((name) => [name, EVERY_USER.includes(name) ? 'allowed' : 'refused']));
    expect(outcome).toEqual(expected);
  });

  it('edits: every other mutation answers without errors, but the refusals by design, which say what to do instead', async () => {
    const ordered = new Set([...CREATE.map(([name]) => name), ...REMOVE]);
    const edits = Object.keys(mutations)
      .filter((name) => !ordered.has(name))
      .sort();
    expect(edits.length).toBeGreaterThan(60);
    const failed: string[] = [];
    for (const name of edits) {
      const { status, body } = await send(name);
      const messages = (body?.errors ?? []).map((e: { message: string }) => e.message).join(' | ');
      if (REFUSED[name]) {
        if (!REFUSED[name].test(messages)) failed.push(`${name}: expected a refusal matching ${REFUSED[name]}, got ${status} ${messages}`);
      } else if (status !== 200 || body?.errors) failed.push(`${name}: ${status} ${messages || JSON.stringify(body)}`);
    }
    expect(failed).toEqual([]);
  });

  it('removes and deletes, each answering without errors', async () => {
    const failed: string[] = [];
    for (const name of REMOVE) {
      const { status, body } = await send(name);
      if (status !== 200 || body?.errors) failed.push(`${name}: ${status} ${JSON.stringify(body?.errors ?? body)}`);
    }
    expect(failed).toEqual([]);
  });

  it('leaves none of the entities the deletions named', async () => {
    expect(await existence()).toEqual(Object.fromEntries(DELETED.map((p) => [p, false])));
  });

  it('sent every one of the UI’s mutations', () => {
    expect([...answers.keys()].sort()).toEqual(Object.keys(mutations).sort());
  });
});
