import { Privilege } from '@mds/auth';
import type { ApiContext } from '@mds/schema';
import { readFileSync } from 'node:fs';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { MAX_DYNAMIC_ASSETS } from '../../src/graphql/form-mutations';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const CHART = 'urn:li:chart:(looker,baz1)';
const FORM = 'urn:li:form:retention';
const VERIFIED = 'urn:li:form:verified';
const stamp = (time: number) => ({ time, actor: 'urn:li:corpuser:jdoe' });

const FORMS = `query($urn: String!) { entity(urn: $urn) { ... on Dataset { forms { ...forms } } ... on Chart { forms { ...forms } } } }
fragment forms on Forms {
  incompleteForms { associatedUrn form { urn } incompletePrompts { id lastModified { time actor { urn } } } completedPrompts { id } }
  completedForms { associatedUrn form { urn } completedPrompts { id fieldAssociations { completedFieldPrompts { fieldPath lastModified { time } } } } }
  verifications { form { urn } lastModified { time actor { urn } } }
}`;

describe("Entity.forms, as DataHub's FormsMapper gives an asset's forms aspect", () => {
  it('answers the incomplete and completed forms with their prompts, and the verifications', async () => {
    const { entities, query } = await goldenGraphql(databases, ['bootstrap_mce.json'], {
      keep: (urn, aspect) =>
        (urn === DATASET || urn === CHART) && !['datasetProfile', 'operation', 'datasetUsageStatistics'].includes(aspect),
    });
    const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, [DATASET], []);
    await entities.service.write(grant, [
      {
        urn: DATASET,
        aspect: 'forms',
        changeType: 'UPSERT',
        value: {
          incompleteForms: [{ urn: FORM, incompletePrompts: [{ id: 'retention', lastModified: stamp(1) }], completedPrompts: [] }],
          completedForms: [
            {
              urn: VERIFIED,
              incompletePrompts: [],
              completedPrompts: [
                {
                  id: 'owner',
                  lastModified: stamp(2),
                  fieldAssociations: { completedFieldPrompts: [{ fieldPath: 'field_foo', lastModified: stamp(3) }] },
                },
              ],
            },
          ],
          verifications: [{ form: VERIFIED, lastModified: stamp(4) }],
        },
      },
    ]);
    const { entity } = await query(FORMS, { urn: DATASET });
    expect(entity.forms).toEqual({
      incompleteForms: [
        {
          associatedUrn: DATASET,
          form: { urn: FORM },
          incompletePrompts: [{ id: 'retention', lastModified: { time: 1, actor: { urn: 'urn:li:corpuser:jdoe' } } }],
          completedPrompts: [],
        },
      ],
      completedForms: [
        {
          associatedUrn: DATASET,
          form: { urn: VERIFIED },
          completedPrompts: [
            { id: 'owner', fieldAssociations: { completedFieldPrompts: [{ fieldPath: 'field_foo', lastModified: { time: 3 } }] } },
          ],
        },
      ],
      verifications: [{ form: { urn: VERIFIED }, lastModified: { time: 4, actor: { urn: 'urn:li:corpuser:jdoe' } } }],
    });
    // An asset with no forms aspect answers null, as DataHub's mapper leaves it unset.
    expect((await query(FORMS, { urn: CHART })).entity).toEqual({ forms: null });
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Forms themselves and their mutations (DataHub's FormType/FormMapper, IsFormAssignedToMeResolver, the resolvers of
// resolvers/form and FormService).

const TEAM = 'urn:li:structuredProperty:io.acryl.dataManagement.team';
const PROJECTS = 'urn:li:structuredProperty:projectNames';
const CERTIFIER = 'urn:li:structuredProperty:io.acryl.dataManagement.certifier';
const NOW = 1_700_000_000_000;
const ADMIN = 'urn:li:corpuser:datahub';
const OWNER = 'urn:li:corpuser:jdoe';
const STRANGER = 'urn:li:corpuser:sam';
const MEMBER = 'urn:li:corpuser:mia';
const STEWARDS = 'urn:li:corpGroup:stewards';

const as = (urn: string, ...privileges: Privilege[]): ApiContext => ({
  actor: { urn, privileges: new Set([Privilege.VIEW_ENTITY_PAGE, ...privileges]) },
  requestId: `test-${urn}`,
});
const admin = as(ADMIN, Privilege.MANAGE_DOCUMENTATION_FORMS);
const owner = as(OWNER);
const stranger = as(STRANGER);
const member = as(MEMBER);

// The UI's form.graphql (apps/server/test/fixtures/datahub-web-react/graphql, DataHub c731e725): submitFormPrompt and
// verifyForm, sent with the variables of its Prompt.tsx and VerificationPrompt.tsx (variables.json).
const UI_FORM = readFileSync(
  new URL('../../../../apps/server/test/fixtures/datahub-web-react/graphql/form.graphql', import.meta.url),
  'utf8',
);

// What the UI's formsFields / formAssociationFields fragments read of a form.
const FORM_FIELDS = `urn type info { name description type
  prompts { id formUrn title description type required structuredPropertyParams { structuredProperty { urn type definition { qualifiedName } } } }
  actors { owners isAssignedToMe users { urn type } groups { urn type } } }
  ownership { owners { owner { ... on CorpUser { urn } } } }`;

const CREATE = `mutation($input: CreateFormInput!) { createForm(input: $input) { ${FORM_FIELDS} } }`;
const UPDATE = `mutation($input: UpdateFormInput!) { updateForm(input: $input) { ${FORM_FIELDS} } }`;
const DELETE = `mutation($urn: String!) { deleteForm(input: { urn: $urn }) }`;
const ASSIGN = `mutation($input: BatchAssignFormInput!) { batchAssignForm(input: $input) }`;
const UNASSIGN = `mutation($input: BatchRemoveFormInput!) { batchRemoveForm(input: $input) }`;
const DYNAMIC = `mutation($input: CreateDynamicFormAssignmentInput!) { createDynamicFormAssignment(input: $input) }`;
const ASSET_FORMS = `query($urn: String!) { dataset(urn: $urn) { forms {
  incompleteForms { form { urn info { name } } incompletePrompts { id lastModified { time actor { urn } } } completedPrompts { id lastModified { time actor { urn } }
    fieldAssociations { completedFieldPrompts { fieldPath lastModified { time actor { urn } } } } } }
  completedForms { form { urn } completedPrompts { id } incompletePrompts { id } }
  verifications { form { urn } lastModified { time actor { urn } } } } } }`;

const PROMPTS = [
  { id: 'prompt_1', title: 'Which team?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: TEAM }, required: true },
  { id: 'prompt_2', title: 'Projects', description: 'Optional', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: PROJECTS } },
];

/** DataHub's example structured properties, its sample hive dataset (schema field_foo, field_bar; owned by jdoe), mia in the stewards group. */
async function formsApi() {
  const api = await goldenGraphql(databases, ['example_structured_properties_golden.json', 'bootstrap_mce.json'], {
    now: () => NOW,
    keep: (urn, aspect) =>
      urn.startsWith('urn:li:structuredProperty:') ||
      (urn === DATASET && ['schemaMetadata', 'ownership', 'datasetProperties'].includes(aspect)) ||
      urn === CHART,
  });
  const grant = await api.service.authorizeEdit(SYSTEM_ACTOR, [MEMBER], []);
  await api.service.write(grant, [
    { urn: MEMBER, aspect: 'nativeGroupMembership', changeType: 'UPSERT', value: { nativeGroups: [STEWARDS] } },
  ]);
  const as = (context: ApiContext) => (source: string, variables?: Record<string, unknown>, operationName?: string) =>
    api.run(source, variables, { context: { ...context }, operationName });
  const stored = async (urn: string, aspect: string) =>
    (await api.service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const messages = (result: { errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }) =>
    result.errors?.map((e) => `${String(e.extensions?.code)}: ${e.message}`);
  return { ...api, as, stored, messages };
}

const formInput = (extra: Record<string, unknown> = {}) => ({
  id: 'governance',
  name: 'Governance',
  description: 'What every dataset answers',
  type: 'VERIFICATION',
  prompts: PROMPTS,
  actors: { owners: true, users: [STRANGER], groups: [STEWARDS] },
  ...extra,
});
const GOVERNANCE = 'urn:li:form:governance';

describe("Form (DataHub's FormType, FormMapper, IsFormAssignedToMeResolver) and createForm / updateForm / deleteForm", () => {
  it('createForm writes formInfo as CreateFormResolver maps it; form(urn:) answers it, isAssignedToMe for the caller', async () => {
    const api = await formsApi();
    const created = await api.as(admin)(CREATE, { input: formInput() });
    expect(created.errors).toBeUndefined();
    expect(await api.stored(GOVERNANCE, 'formInfo')).toEqual({
      name: 'Governance',
      description: 'What every dataset answers',
      type: 'VERIFICATION',
      prompts: [
        { id: 'prompt_1', title: 'Which team?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: TEAM }, required: true },
        {
          id: 'prompt_2',
          title: 'Projects',
          description: 'Optional',
          type: 'STRUCTURED_PROPERTY',
          structuredPropertyParams: { urn: PROJECTS },
        },
      ],
      actors: { owners: true, users: [STRANGER], groups: [STEWARDS] },
    });
    const form = {
      urn: GOVERNANCE,
      type: 'FORM',
      info: {
        name: 'Governance',
        description: 'What every dataset answers',
        type: 'VERIFICATION',
        prompts: [
          {
            id: 'prompt_1',
            formUrn: GOVERNANCE,
            title: 'Which team?',
            description: null,
            type: 'STRUCTURED_PROPERTY',
            required: true,
            structuredPropertyParams: {
              structuredProperty: { urn: TEAM, type: 'STRUCTURED_PROPERTY', definition: { qualifiedName: 'io.acryl.dataManagement.team' } },
            },
          },
          {
            id: 'prompt_2',
            formUrn: GOVERNANCE,
            title: 'Projects',
            description: 'Optional',
            type: 'STRUCTURED_PROPERTY',
            // The model's default: a prompt is optional unless said.
            required: false,
            structuredPropertyParams: {
              structuredProperty: { urn: PROJECTS, type: 'STRUCTURED_PROPERTY', definition: { qualifiedName: 'projectNames' } },
            },
          },
        ],
        actors: {
          owners: true,
          isAssignedToMe: false,
          users: [{ urn: STRANGER, type: 'CORP_USER' }],
          groups: [{ urn: STEWARDS, type: 'CORP_GROUP' }],
        },
      },
      ownership: null,
    };
    expect(created.data!.createForm).toEqual(form);
    // A form's ownership, as the UI's form fragments read it.
    const owned = await api.service.authorizeEdit(SYSTEM_ACTOR, [GOVERNANCE], []);
    await api.service.write(owned, [
      { urn: GOVERNANCE, aspect: 'ownership', changeType: 'UPSERT', value: { owners: [{ owner: OWNER, type: 'DATAOWNER' }] } },
    ]);
    expect(
      (await api.as(admin)(`{ form(urn: "${GOVERNANCE}") { ownership { owners { owner { ... on CorpUser { urn } } type } } } }`)).data,
    ).toEqual({
      form: { ownership: { owners: [{ owner: { urn: OWNER }, type: 'DATAOWNER' }] } },
    });
    const read = `query($urn: String!) { form(urn: $urn) { info { actors { isAssignedToMe } } } }`;
    // Named (sam), in a group named (mia), neither (jdoe: the owners flag is about an asset's owners, not the form's).
    expect((await api.as(stranger)(read, { urn: GOVERNANCE })).data!.form.info.actors.isAssignedToMe).toBe(true);
    expect((await api.as(member)(read, { urn: GOVERNANCE })).data!.form.info.actors.isAssignedToMe).toBe(true);
    expect((await api.as(owner)(read, { urn: GOVERNANCE })).data!.form.info.actors.isAssignedToMe).toBe(false);
    expect((await api.as(admin)(`{ form(urn: "urn:li:form:none") { urn } other: form(urn: "${DATASET}") { urn } }`)).data).toEqual({
      form: null,
      other: null,
    });

    // A form stored without the defaulted fields answers the model's defaults: a COMPLETION form for the owners.
    const grant = await api.service.authorizeEdit(SYSTEM_ACTOR, ['urn:li:form:bare'], []);
    await api.service.write(grant, [{ urn: 'urn:li:form:bare', aspect: 'formInfo', changeType: 'UPSERT', value: { name: 'Bare' } }]);
    expect(
      (await api.as(admin)(`{ form(urn: "urn:li:form:bare") { info { name type prompts { id } actors { owners users { urn } } } } }`)).data,
    ).toEqual({
      form: { info: { name: 'Bare', type: 'COMPLETION', prompts: [], actors: { owners: true, users: null } } },
    });
  });

  it('createForm, updateForm and deleteForm ask MANAGE_DOCUMENTATION_FORMS, with DataHub’s texts; bad input is a 400', async () => {
    const api = await formsApi();
    expect(api.messages(await api.as(owner)(CREATE, { input: formInput() }))).toEqual([
      '403: Unable to create form. Please contact your admin.',
    ]);
    expect(await api.stored(GOVERNANCE, 'formInfo')).toBeUndefined();
    const noParams = formInput({ prompts: [{ title: 'Team?', type: 'STRUCTURED_PROPERTY' }] });
    expect(api.messages(await api.as(admin)(CREATE, { input: noParams }))).toEqual([
      '400: Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params',
    ]);
    expect((await api.as(admin)(CREATE, { input: formInput() })).errors).toBeUndefined();
    expect(api.messages(await api.as(admin)(CREATE, { input: formInput() }))).toEqual([`400: Form with urn ${GOVERNANCE} already exists`]);
    // A form created without an id gets a random one (DataHub's UUID).
    const anonymous = await api.as(admin)(CREATE, { input: { name: 'Quick' } });
    expect(anonymous.data!.createForm.urn).toMatch(/^urn:li:form:[0-9a-f-]{36}$/);
    expect(anonymous.data!.createForm.info).toMatchObject({ name: 'Quick', type: 'COMPLETION', prompts: [], actors: { owners: true } });
    // Adding a group to a form naming no users leaves its users unset (null), as DataHub's patch does.
    const quick = anonymous.data!.createForm.urn as string;
    const grouped = await api.as(admin)(UPDATE, { input: { urn: quick, actors: { groupsToAdd: [STEWARDS] } } });
    expect(grouped.data!.updateForm.info.actors).toEqual({
      owners: true,
      isAssignedToMe: false,
      users: null,
      groups: [{ urn: STEWARDS, type: 'CORP_GROUP' }],
    });

    expect(api.messages(await api.as(owner)(UPDATE, { input: { urn: GOVERNANCE, name: 'Mine' } }))).toEqual([
      '403: Unable to update form. Please contact your admin.',
    ]);
    expect(api.messages(await api.as(admin)(UPDATE, { input: { urn: 'urn:li:form:none', name: 'X' } }))).toEqual([
      '400: Form with urn urn:li:form:none does not exist',
    ]);
    const updated = await api.as(admin)(UPDATE, {
      input: {
        urn: GOVERNANCE,
        name: 'Governance v2',
        type: 'COMPLETION',
        promptsToRemove: ['prompt_2'],
        promptsToAdd: [
          { id: 'prompt_3', title: 'Certifier', type: 'FIELDS_STRUCTURED_PROPERTY', structuredPropertyParams: { urn: CERTIFIER } },
        ],
        actors: { owners: false, usersToAdd: [OWNER], usersToRemove: [STRANGER], groupsToRemove: [STEWARDS] },
      },
    });
    expect(updated.errors).toBeUndefined();
    expect(await api.stored(GOVERNANCE, 'formInfo')).toEqual({
      name: 'Governance v2',
      description: 'What every dataset answers',
      type: 'COMPLETION',
      prompts: [
        { id: 'prompt_1', title: 'Which team?', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: TEAM }, required: true },
        { id: 'prompt_3', title: 'Certifier', type: 'FIELDS_STRUCTURED_PROPERTY', structuredPropertyParams: { urn: CERTIFIER } },
      ],
      actors: { owners: false, users: [OWNER], groups: [] },
    });
    expect(updated.data!.updateForm.info.actors).toEqual({
      owners: false,
      isAssignedToMe: false,
      users: [{ urn: OWNER, type: 'CORP_USER' }],
      groups: [],
    });

    // deleteForm takes the form off every asset it was on (DataHub's DeleteEntityService for forms), verification too.
    expect((await api.as(admin)(ASSIGN, { input: { formUrn: GOVERNANCE, entityUrns: [DATASET, CHART] } })).errors).toBeUndefined();
    const grant = await api.service.authorizeEdit(SYSTEM_ACTOR, [DATASET], []);
    await api.service.update(grant, { urn: DATASET, aspect: 'forms' }, (current) => ({
      ...current,
      verifications: [{ form: GOVERNANCE, lastModified: { time: 1, actor: ADMIN } }],
    }));
    expect(api.messages(await api.as(owner)(DELETE, { urn: GOVERNANCE }))).toEqual([
      '403: Unable to delete form. Please contact your admin.',
    ]);
    expect(api.messages(await api.as(admin)(DELETE, { urn: DATASET }))).toEqual([`400: Invalid form urn: ${DATASET}`]);
    expect(api.messages(await api.as(admin)(DELETE, { urn: 'not-a-urn' }))).toEqual(['400: Invalid urn: not-a-urn']);
    expect(api.messages(await api.as(admin)(CREATE, { input: formInput({ id: 'other', actors: { users: [STEWARDS] } }) }))).toEqual([
      `400: Invalid corpuser urn: ${STEWARDS}`,
    ]);
    expect(await api.stored('urn:li:form:other', 'formInfo')).toBeUndefined();
    expect(await api.as(admin)(DELETE, { urn: GOVERNANCE })).toEqual({ data: { deleteForm: true } });
    expect(await api.stored(GOVERNANCE, 'formInfo')).toBeUndefined();
    expect(await api.stored(DATASET, 'forms')).toEqual({ incompleteForms: [], completedForms: [], verifications: [] });
    expect(await api.stored(CHART, 'forms')).toEqual({ incompleteForms: [], completedForms: [], verifications: [] });
  });
});

describe('batchAssignForm, batchRemoveForm, createDynamicFormAssignment (DataHub’s resolvers and FormService)', () => {
  it('assigns a form with every prompt incomplete, once; removes it; refuses absent forms and assets, and actors without the privilege', async () => {
    const api = await formsApi();
    expect((await api.as(admin)(CREATE, { input: formInput() })).errors).toBeUndefined();
    const input = { formUrn: GOVERNANCE, entityUrns: [DATASET] };
    expect(api.messages(await api.as(owner)(ASSIGN, { input }))).toEqual(['403: Unable to assign form. Please contact your admin.']);
    expect(api.messages(await api.as(admin)(ASSIGN, { input: { formUrn: 'urn:li:form:none', entityUrns: [DATASET] } }))).toEqual([
      '400: Entity urn:li:form:none does not exist. Skipping batch form assignment',
    ]);
    const absent = 'urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD)';
    expect(api.messages(await api.as(admin)(ASSIGN, { input: { formUrn: GOVERNANCE, entityUrns: [DATASET, absent] } }))).toEqual([
      `400: Entity ${absent} does not exist. Skipping batch form assignment`,
    ]);
    expect(await api.stored(DATASET, 'forms')).toBeUndefined();

    expect(await api.as(admin)(ASSIGN, { input })).toEqual({ data: { batchAssignForm: true } });
    const assigned = {
      incompleteForms: [
        {
          urn: GOVERNANCE,
          incompletePrompts: [
            { id: 'prompt_1', lastModified: { time: NOW, actor: ADMIN } },
            { id: 'prompt_2', lastModified: { time: NOW, actor: ADMIN } },
          ],
          completedPrompts: [],
        },
      ],
      completedForms: [],
      verifications: [],
    };
    expect(await api.stored(DATASET, 'forms')).toEqual(assigned);
    // Assigning again leaves the form as it stands.
    expect(await api.as(admin)(ASSIGN, { input })).toEqual({ data: { batchAssignForm: true } });
    expect(await api.stored(DATASET, 'forms')).toEqual(assigned);
    const read = await api.as(admin)(ASSET_FORMS, { urn: DATASET });
    expect(read.data!.dataset.forms.incompleteForms).toEqual([
      {
        form: { urn: GOVERNANCE, info: { name: 'Governance' } },
        incompletePrompts: [
          { id: 'prompt_1', lastModified: { time: NOW, actor: { urn: ADMIN } } },
          { id: 'prompt_2', lastModified: { time: NOW, actor: { urn: ADMIN } } },
        ],
        completedPrompts: [],
      },
    ]);

    expect(api.messages(await api.as(owner)(UNASSIGN, { input }))).toEqual(['403: Unable to remove form. Please contact your admin.']);
    expect(await api.as(admin)(UNASSIGN, { input })).toEqual({ data: { batchRemoveForm: true } });
    expect(await api.stored(DATASET, 'forms')).toEqual({ incompleteForms: [], completedForms: [], verifications: [] });
    // An asset the form was never on gets no forms aspect.
    expect(await api.as(admin)(UNASSIGN, { input: { formUrn: GOVERNANCE, entityUrns: [CHART] } })).toEqual({
      data: { batchRemoveForm: true },
    });
    expect(await api.stored(CHART, 'forms')).toBeUndefined();
  });

  it('stores the dynamic assignment filter as DataHub’s resolver builds it; MANAGE_DOCUMENTATION_FORMS; the form must exist', async () => {
    const api = await formsApi();
    expect((await api.as(admin)(CREATE, { input: formInput() })).errors).toBeUndefined();
    const input = {
      formUrn: GOVERNANCE,
      orFilters: [
        {
          and: [
            { field: 'platform', values: ['urn:li:dataPlatform:hive'] },
            { field: 'domains', value: 'urn:li:domain:x', negated: true },
          ],
        },
      ],
    };
    expect(api.messages(await api.as(owner)(DYNAMIC, { input }))).toEqual(['403: Unable to assign form. Please contact your admin.']);
    expect(api.messages(await api.as(admin)(DYNAMIC, { input: { ...input, formUrn: 'urn:li:form:none' } }))).toEqual([
      '400: Form urn:li:form:none does not exist. Skipping dynamic form assignment',
    ]);
    expect(await api.as(admin)(DYNAMIC, { input })).toEqual({ data: { createDynamicFormAssignment: true } });
    expect(await api.stored(GOVERNANCE, 'dynamicFormAssignment')).toEqual({
      filter: {
        or: [
          {
            and: [
              { field: 'platform', value: '', values: ['urn:li:dataPlatform:hive'], condition: 'EQUAL', negated: false },
              { field: 'domains', value: '', values: ['urn:li:domain:x'], condition: 'EQUAL', negated: true },
            ],
          },
        ],
      },
    });
  });

  it('assigns the form to every asset the filter matches, as FormAssignmentHook has SearchBasedFormAssignmentManager do', async () => {
    const api = await formsApi();
    expect((await api.as(admin)(CREATE, { input: formInput() })).errors).toBeUndefined();
    const hive = { formUrn: GOVERNANCE, orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] };
    expect(await api.as(admin)(DYNAMIC, { input: hive })).toEqual({ data: { createDynamicFormAssignment: true } });
    // The hive dataset lists the form, every prompt incomplete, stamped by the caller; the looker chart does not.
    const assigned = {
      form: { urn: GOVERNANCE, info: { name: 'Governance' } },
      incompletePrompts: ['prompt_1', 'prompt_2'].map((id) => ({ id, lastModified: { time: NOW, actor: { urn: ADMIN } } })),
      completedPrompts: [],
    };
    const datasetForms = async () => (await api.as(admin)(ASSET_FORMS, { urn: DATASET })).data!.dataset.forms;
    expect(await datasetForms()).toEqual({ incompleteForms: [assigned], completedForms: [], verifications: [] });
    const chartForms = async () =>
      (await api.as(admin)(`{ chart(urn: "${CHART}") { forms { incompleteForms { form { urn } } } } }`)).data!.chart;
    expect(await chartForms()).toEqual({ forms: null });
    // Applied again (or by a second filter that also matches), a form already on an asset stays as it was.
    const versions = async () =>
      (await api.service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([DATASET], ['forms'])).get(DATASET)?.get('forms')?.version;
    const before = await versions();
    expect(await api.as(admin)(DYNAMIC, { input: hive })).toEqual({ data: { createDynamicFormAssignment: true } });
    expect(await versions()).toBe(before);
    // A looker filter reaches the chart; the dataset keeps its one association.
    const looker = { formUrn: GOVERNANCE, orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:looker'] }] }] };
    expect(await api.as(admin)(DYNAMIC, { input: looker })).toEqual({ data: { createDynamicFormAssignment: true } });
    expect(await chartForms()).toEqual({ forms: { incompleteForms: [{ form: { urn: GOVERNANCE } }] } });
    expect((await datasetForms()).incompleteForms).toHaveLength(1);
    // A filter the index cannot answer is a 400, and nothing changes (the stored filter included).
    const bad = { formUrn: GOVERNANCE, orFilters: [{ and: [{ field: 'no such field', values: ['x'] }] }] };
    expect(api.messages(await api.as(admin)(DYNAMIC, { input: bad }))?.[0]).toMatch(/^400: /);
    expect(await api.stored(GOVERNANCE, 'dynamicFormAssignment')).toMatchObject({ filter: { or: [{ and: [{ field: 'platform' }] }] } });
  });

  it(`refuses a filter matching more than ${MAX_DYNAMIC_ASSETS} assets, writing nothing`, async () => {
    const api = await formsApi();
    expect((await api.as(admin)(CREATE, { input: formInput() })).errors).toBeUndefined();
    const many = Array.from({ length: MAX_DYNAMIC_ASSETS }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,bulk_${i},PROD)`);
    const grant = await api.service.authorizeEdit(SYSTEM_ACTOR, many, []);
    await api.service.write(
      grant,
      many.map((urn, i) => ({
        urn,
        aspect: 'datasetProperties',
        changeType: 'UPSERT' as const,
        value: { name: `bulk_${i}`, customProperties: {} },
      })),
    );
    const hive = { formUrn: GOVERNANCE, orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] };
    expect(api.messages(await api.as(admin)(DYNAMIC, { input: hive }))).toEqual([
      `400: The filter matches ${MAX_DYNAMIC_ASSETS + 1} entities; mds assigns a form dynamically to at most ${MAX_DYNAMIC_ASSETS}. Narrow the filter, or assign with batchAssignForm.`,
    ]);
    expect(await api.stored(GOVERNANCE, 'dynamicFormAssignment')).toBeUndefined();
    expect(await api.stored(DATASET, 'forms')).toBeUndefined();
  });
});

describe('submitFormPrompt and verifyForm, as the UI sends them (DataHub’s SubmitFormPromptResolver, VerifyFormResolver, FormService)', () => {
  // The variables of the UI's Prompt.tsx and VerificationPrompt.tsx (variables.json), its placeholders filled in.
  const submitVariables = (value = '90 days', promptId = 'prompt_1', property = TEAM) => ({
    urn: DATASET,
    input: {
      promptId,
      formUrn: GOVERNANCE,
      type: 'STRUCTURED_PROPERTY',
      structuredPropertyParams: { structuredPropertyUrn: property, values: [{ stringValue: value }] },
    },
  });
  const verifyVariables = { input: { entityUrn: DATASET, formUrn: GOVERNANCE } };
  const nobody = as('urn:li:corpuser:nobody', Privilege.EDIT_ENTITY_TAGS);
  const propertyEditor = as('urn:li:corpuser:pat', Privilege.EDIT_ENTITY_PROPERTIES);

  async function assigned(extra: Record<string, unknown> = {}) {
    const api = await formsApi();
    expect((await api.as(admin)(CREATE, { input: formInput(extra) })).errors).toBeUndefined();
    expect((await api.as(admin)(ASSIGN, { input: { formUrn: GOVERNANCE, entityUrns: [DATASET] } })).errors).toBeUndefined();
    return api;
  }

  it('an owner answers the required prompt: the value is written, the prompt completed, the form complete; then verified', async () => {
    const api = await assigned();
    const submit = (context: ApiContext, variables = submitVariables()) => api.as(context)(UI_FORM, variables, 'submitFormPrompt');
    const verify = (context: ApiContext) => api.as(context)(UI_FORM, verifyVariables, 'verifyForm');
    // Neither assigned (not named, not an owner) nor allowed to edit the asset's properties.
    expect(api.messages(await submit(nobody))).toEqual([
      `403: Failed to authorize form on entity as form with urn ${GOVERNANCE} is not assigned to user`,
    ]);
    // A value its definition refuses (projectNames allows Tracking and DataHub), as upsertStructuredProperties refuses it.
    expect(api.messages(await submit(owner, submitVariables('Unknown', 'prompt_2', PROJECTS)))).toEqual([
      `400: Property: ${PROJECTS}, value: {"string":"Unknown"} should be one of [{"string":"Tracking"},{"string":"DataHub"}]`,
    ]);
    // A verification before the form is complete.
    expect(api.messages(await verify(owner))).toEqual([
      `400: Form ${GOVERNANCE} is not in the list of completed forms for this entity. Skipping verification.`,
    ]);
    expect(await api.stored(DATASET, 'structuredProperties')).toBeUndefined();

    expect(await submit(owner)).toEqual({ data: { submitFormPrompt: true } });
    expect(await api.stored(DATASET, 'structuredProperties')).toEqual({
      properties: [
        {
          propertyUrn: TEAM,
          values: [{ string: '90 days' }],
          created: { time: NOW, actor: OWNER },
          lastModified: { time: NOW, actor: OWNER },
        },
      ],
    });
    // prompt_2 is optional: with prompt_1 answered the form is complete (DataHub's isFormCompleted).
    expect(await api.stored(DATASET, 'forms')).toEqual({
      incompleteForms: [],
      completedForms: [
        {
          urn: GOVERNANCE,
          incompletePrompts: [{ id: 'prompt_2', lastModified: { time: NOW, actor: ADMIN } }],
          completedPrompts: [{ id: 'prompt_1', lastModified: { time: NOW, actor: OWNER } }],
        },
      ],
      verifications: [],
    });
    const read = await api.as(owner)(ASSET_FORMS, { urn: DATASET });
    expect(read.data!.dataset.forms.completedForms).toEqual([
      { form: { urn: GOVERNANCE }, completedPrompts: [{ id: 'prompt_1' }], incompletePrompts: [{ id: 'prompt_2' }] },
    ]);
    const values = `{ dataset(urn: "${DATASET}") { structuredProperties { properties { structuredProperty { urn } values { ... on StringValue { stringValue } } } } } }`;
    expect((await api.as(owner)(values)).data!.dataset.structuredProperties.properties).toEqual([
      { structuredProperty: { urn: TEAM }, values: [{ stringValue: '90 days' }] },
    ]);

    // Verification is for those the form is assigned to only (an editor of the asset is not).
    expect(api.messages(await verify(propertyEditor))).toEqual([
      `403: Failed to authorize form on entity as form with urn ${GOVERNANCE} is not assigned to user`,
    ]);
    expect(await verify(member)).toEqual({ data: { verifyForm: true } });
    expect((await api.stored(DATASET, 'forms'))!.verifications).toEqual([{ form: GOVERNANCE, lastModified: { time: NOW, actor: MEMBER } }]);
    expect((await api.as(owner)(ASSET_FORMS, { urn: DATASET })).data!.dataset.forms.verifications).toEqual([
      { form: { urn: GOVERNANCE }, lastModified: { time: NOW, actor: { urn: MEMBER } } },
    ]);
  });

  it('one who may edit the asset’s properties answers too; a form not assigned, not a verification form, or absent is refused', async () => {
    const api = await assigned({ type: 'COMPLETION' });
    const submit = (context: ApiContext, variables: Record<string, unknown> = submitVariables()) =>
      api.as(context)(UI_FORM, variables, 'submitFormPrompt');
    expect(await submit(propertyEditor)).toEqual({ data: { submitFormPrompt: true } });
    expect((await api.stored(DATASET, 'structuredProperties'))!.properties).toEqual([
      {
        propertyUrn: TEAM,
        values: [{ string: '90 days' }],
        created: { time: NOW, actor: 'urn:li:corpuser:pat' },
        lastModified: { time: NOW, actor: 'urn:li:corpuser:pat' },
      },
    ]);
    expect(api.messages(await api.as(owner)(UI_FORM, verifyVariables, 'verifyForm'))).toEqual([
      `400: Form ${GOVERNANCE} is not of type VERIFICATION. Cannot verify form.`,
    ]);
    expect(api.messages(await submit(owner, { ...submitVariables(), urn: CHART }))).toEqual([
      `400: Entity is missing forms aspect, form is not assigned to entity with urn ${CHART}`,
    ]);
    const other = submitVariables();
    other.input.formUrn = 'urn:li:form:none';
    expect(api.messages(await submit(owner, other))).toEqual(['400: Form urn:li:form:none does not exist.']);
    const noParams = { urn: DATASET, input: { promptId: 'prompt_1', formUrn: GOVERNANCE, type: 'STRUCTURED_PROPERTY' } };
    expect(api.messages(await submit(owner, noParams))).toEqual([
      '400: Failed to provide structured property params for prompt type STRUCTURED_PROPERTY',
    ]);
  });

  it('a field prompt (FIELDS_STRUCTURED_PROPERTY) writes the field’s values; the prompt completes when every schema field is answered', async () => {
    const prompt = {
      id: 'fields',
      title: 'Certifier',
      type: 'FIELDS_STRUCTURED_PROPERTY',
      structuredPropertyParams: { urn: CERTIFIER },
      required: true,
    };
    const api = await assigned({ type: 'COMPLETION', prompts: [prompt] });
    const answer = (fieldPath: string | undefined) =>
      api.as(owner)(
        UI_FORM,
        {
          urn: DATASET,
          input: {
            promptId: 'fields',
            formUrn: GOVERNANCE,
            type: 'FIELDS_STRUCTURED_PROPERTY',
            ...(fieldPath ? { fieldPath } : {}),
            structuredPropertyParams: { structuredPropertyUrn: CERTIFIER, values: [{ stringValue: ADMIN }] },
          },
        },
        'submitFormPrompt',
      );
    expect(api.messages(await answer(undefined))).toEqual(['400: Failed to provide fieldPath for prompt type FIELDS_STRUCTURED_PROPERTY']);
    expect(await answer('field_foo')).toEqual({ data: { submitFormPrompt: true } });
    const field = `urn:li:schemaField:(${DATASET},field_foo)`;
    expect((await api.stored(field, 'structuredProperties'))!.properties).toEqual([
      {
        propertyUrn: CERTIFIER,
        values: [{ string: ADMIN }],
        created: { time: NOW, actor: OWNER },
        lastModified: { time: NOW, actor: OWNER },
      },
    ]);
    const afterOne = (await api.stored(DATASET, 'forms'))!;
    expect(afterOne.completedForms).toEqual([]);
    expect(afterOne.incompleteForms).toEqual([
      {
        urn: GOVERNANCE,
        completedPrompts: [],
        incompletePrompts: [
          {
            id: 'fields',
            lastModified: { time: NOW, actor: OWNER },
            fieldAssociations: {
              completedFieldPrompts: [{ fieldPath: 'field_foo', lastModified: { time: NOW, actor: OWNER } }],
              incompleteFieldPrompts: [],
            },
          },
        ],
      },
    ]);
    expect(await answer('field_bar')).toEqual({ data: { submitFormPrompt: true } });
    const done = (await api.stored(DATASET, 'forms'))!;
    expect(done.incompleteForms).toEqual([]);
    expect(done.completedForms).toMatchObject([{ urn: GOVERNANCE, incompletePrompts: [], completedPrompts: [{ id: 'fields' }] }]);
    const read = await api.as(owner)(ASSET_FORMS, { urn: DATASET });
    expect(read.errors).toBeUndefined();
  });
});
