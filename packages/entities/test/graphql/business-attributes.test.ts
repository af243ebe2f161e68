import { Privilege, ROLES } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { print } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readUiDocuments } from '../../../../apps/server/test/webui/ui-documents';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';
import { uiCallVariables } from '../../../../apps/server/test/webui/ui-queries';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const EMAIL_FIELD = `urn:li:schemaField:(${ORDERS},customer_email)`;
const OTHER_FIELD = `urn:li:schemaField:(${ORDERS},contact)`;
const EMAIL = 'urn:li:businessAttribute:email';
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

// The UI's own documents (businessAttribute.graphql, mutations.graphql, schemaField.graphql: DataHub c731e725, in
// apps/server/test/fixtures/datahub-web-react) with every fragment they use, and the variables its pages send.
const DOCUMENTS = readUiDocuments();
const UI = new Map(DOCUMENTS.operations.map((op) => [op.name, print(op.document)]));
/**
 * The schema field page's read of its business attribute: the UI's `businessAttribute` fragment (of its
 * schemaFieldEntityFields), asked of the field entity (getSchemaField as a whole needs the host's other packages).
 */
const FIELD_ATTRIBUTE = `query fieldAttribute($urn: String!) {
  entity(urn: $urn) { ... on SchemaFieldEntity { businessAttributes { businessAttribute { associatedUrn ...businessAttribute } } } }
}
${print(DOCUMENTS.fragments.find((f) => f.name === 'businessAttribute')!.document)}`;
const PLACEHOLDERS: Record<string, string> = { $BUSINESS_ATTRIBUTE_URN: EMAIL, $DATASET_URN: ORDERS, $SCHEMA_FIELD_URN: EMAIL_FIELD };
/** The variables of the UI's `index`th call of `name`, placeholders filled. */
const uiVariables = (kind: 'queries' | 'mutations', name: string, index = 0) => uiCallVariables(kind, name, PLACEHOLDERS, index);

let requests = 0;
/** A request of its own (the loaders cache per request) by an actor holding `privileges`. */
const as = (id: string, privileges: Iterable<Privilege>): ApiContext => ({
  actor: { urn: `urn:li:corpuser:${id}`, privileges: new Set(privileges) },
  requestId: `r${++requests}`,
});
const role = (name: string) => ROLES.find((r) => r.name === name)!.privileges;
const admin = () => as('datahub', role('Admin'));
const editor = () => as('eddie', role('Editor'));
const reader = () => as('rita', role('Reader'));
/** Only the business attribute privilege of creating (and updating). */
const creator = () => as('cora', [Privilege.VIEW_ENTITY_PAGE, Privilege.CREATE_BUSINESS_ATTRIBUTE]);
/** Only the column privilege of attaching an attribute to a dataset's fields. */
const columnEditor = () => as('colin', [Privilege.VIEW_ENTITY_PAGE, Privilege.EDIT_DATASET_COL_BUSINESS_ATTRIBUTE]);

async function setup() {
  const api = await goldenGraphql(databases, ['test_domains.json'], { now: () => NOW });
  const ui = (name: string, variables: Record<string, unknown>, context: ApiContext = admin()) =>
    api.run(UI.get(name)!, variables, { context, operationName: name });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const errorOf = (result: { errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }) =>
    result.errors?.map((e) => ({ message: e.message, code: e.extensions?.code }));
  /** The UI's createBusinessAttribute as its modal sends it, with an id, so that the placeholders name it. */
  const createEmail = () =>
    ui('createBusinessAttribute', { input: { ...(uiVariables('mutations', 'createBusinessAttribute').input as object), id: 'email' } });
  return { ...api, ui, stored, errorOf, createEmail };
}

describe("Business attributes, as DataHub's BusinessAttributeMapper and businessattribute resolvers answer them", () => {
  it('createBusinessAttribute (CreateBusinessAttributeResolver) writes businessAttributeInfo and the creator as owner; the UI reads it back', async () => {
    const { ui, stored, createEmail } = await setup();
    const created = await createEmail();
    expect(created.errors).toBeUndefined();
    const stamp = { time: NOW, actor: 'urn:li:corpuser:datahub' };
    expect(await stored(EMAIL, 'businessAttributeInfo')).toEqual({
      fieldPath: 'Email address',
      name: 'Email address',
      description: "<p>A person's email</p>",
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      created: stamp,
      lastModified: stamp,
    });
    expect(await stored(EMAIL, 'ownership')).toMatchObject({
      owners: [{ owner: 'urn:li:corpuser:datahub', type: 'TECHNICAL_OWNER', typeUrn: 'urn:li:ownershipType:__system__technical_owner' }],
    });
    const answered = created.data!.createBusinessAttribute;
    expect(answered).toMatchObject({
      urn: EMAIL,
      type: 'BUSINESS_ATTRIBUTE',
      properties: {
        name: 'Email address',
        description: "<p>A person's email</p>",
        businessAttributeDataType: 'STRING',
        customProperties: null,
        lastModified: { time: NOW },
        created: { time: NOW },
        tags: null,
        glossaryTerms: null,
      },
      institutionalMemory: null,
    });
    expect(answered.ownership.owners).toHaveLength(1);
    expect(answered.ownership.owners[0].owner.urn).toBe('urn:li:corpuser:datahub');

    // The profile page's getBusinessAttribute answers the same.
    const read = await ui('getBusinessAttribute', uiVariables('queries', 'getBusinessAttribute'), reader());
    expect(read.errors).toBeUndefined();
    expect(read.data!.businessAttribute).toEqual(answered);
    const random = await ui('createBusinessAttribute', { input: { name: 'Phone number' } });
    expect(random.data!.createBusinessAttribute.urn).toMatch(/^urn:li:businessAttribute:[0-9a-f-]{36}$/);
    expect(random.data!.createBusinessAttribute.properties.businessAttributeDataType).toBeNull();
  });

  it('refuses a taken id or name, a blank name, and a caller without CREATE_BUSINESS_ATTRIBUTE or MANAGE_BUSINESS_ATTRIBUTE', async () => {
    const { ui, stored, errorOf, createEmail } = await setup();
    await createEmail();
    expect(errorOf(await createEmail())).toEqual([{ message: 'This Business Attribute already exists!', code: 400 }]);
    expect(errorOf(await ui('createBusinessAttribute', { input: { id: 'other', name: 'Email address' } }))).toEqual([
      { message: '"Email address" already exists as Business Attribute. Please pick a unique name.', code: 409 },
    ]);
    expect(errorOf(await ui('createBusinessAttribute', { input: { id: 'blank', name: ' ' } }))).toEqual([
      { message: "'name' must not be blank", code: 400 },
    ]);
    for (const context of [reader(), columnEditor()])
      expect(errorOf(await ui('createBusinessAttribute', { input: { id: 'nope', name: 'Nope' } }, context))).toEqual([
        { message: UNAUTHORIZED, code: 403 },
      ]);
    expect(await stored('urn:li:businessAttribute:nope', 'businessAttributeInfo')).toBeUndefined();
    // CREATE_BUSINESS_ATTRIBUTE alone is enough.
    expect((await ui('createBusinessAttribute', { input: { id: 'zip', name: 'Zip code' } }, creator())).errors).toBeUndefined();
  });

  it('updateBusinessAttribute (UpdateBusinessAttributeResolver) changes what is given and stamps lastModified', async () => {
    const { ui, stored, errorOf, createEmail, service } = await setup();
    await createEmail();
    // The data type section's call: only the type.
    const typed = await ui('updateBusinessAttribute', uiVariables('mutations', 'updateBusinessAttribute'), creator());
    expect(typed.errors).toBeUndefined();
    expect(typed.data!.updateBusinessAttribute.properties).toMatchObject({ name: 'Email address', businessAttributeDataType: 'NUMBER' });
    expect(await stored(EMAIL, 'businessAttributeInfo')).toEqual({
      fieldPath: 'Email address',
      name: 'Email address',
      description: "<p>A person's email</p>",
      type: { type: { 'com.linkedin.schema.NumberType': {} } },
      created: { time: NOW, actor: 'urn:li:corpuser:datahub' },
      lastModified: { time: NOW, actor: 'urn:li:corpuser:cora' },
    });
    // Renaming writes name and fieldPath; its own name is no conflict, another's is.
    await ui('createBusinessAttribute', { input: { id: 'phone', name: 'Phone' } });
    const renamed = await ui('updateBusinessAttribute', { urn: EMAIL, input: { name: 'E-mail', description: 'Where to write' } });
    expect(renamed.data!.updateBusinessAttribute.properties).toMatchObject({ name: 'E-mail', description: 'Where to write' });
    expect(await stored(EMAIL, 'businessAttributeInfo')).toMatchObject({ fieldPath: 'E-mail', name: 'E-mail' });
    expect((await ui('updateBusinessAttribute', { urn: EMAIL, input: { name: 'E-mail' } })).errors).toBeUndefined();
    expect(errorOf(await ui('updateBusinessAttribute', { urn: EMAIL, input: { name: 'Phone' } }))).toEqual([
      { message: '"Phone" already exists as Business Attribute. Please pick a unique name.', code: 409 },
    ]);
    // The list finds it by its new name only.
    const listed = await ui('listBusinessAttributes', { start: 0, count: 10, query: 'mail' });
    expect(listed.data!.listBusinessAttributes.businessAttributes.map((a: { urn: string }) => a.urn)).toEqual([EMAIL]);

    const before = await stored(EMAIL, 'businessAttributeInfo');
    expect(errorOf(await ui('updateBusinessAttribute', { urn: EMAIL, input: { type: 'DATE' } }, reader()))).toEqual([
      { message: UNAUTHORIZED, code: 403 },
    ]);
    expect(await stored(EMAIL, 'businessAttributeInfo')).toEqual(before);
    const absent = 'urn:li:businessAttribute:absent';
    expect(errorOf(await ui('updateBusinessAttribute', { urn: absent, input: { type: 'DATE' } }))).toEqual([
      { message: `This urn does not exist: ${absent}`, code: 400 },
    ]);
    // An attribute known only by another aspect has no info to update.
    const grant = await service.authorize(SYSTEM_ACTOR, [[]]);
    const bare = 'urn:li:businessAttribute:bare';
    await service.write(grant, [{ urn: bare, aspect: 'status', changeType: 'UPSERT', value: { removed: false } }]);
    expect(errorOf(await ui('updateBusinessAttribute', { urn: bare, input: { type: 'DATE' } }))).toEqual([
      { message: `Failed to update Business Attribute. Business Attribute with urn ${bare} does not exist.`, code: 400 },
    ]);
  });

  it('updateDescription of a business attribute (UpdateDescriptionResolver, DescriptionUtils) writes businessAttributeInfo.description', async () => {
    const { ui, stored, errorOf, createEmail, service } = await setup();
    await createEmail();
    // The documentation tab's editor, as the UI sends it for an entity type without an update mutation of its own.
    const input = { ...(uiVariables('mutations', 'updateDescription').input as object), resourceUrn: EMAIL };
    expect(await ui('updateDescription', { input }, editor())).toEqual({ data: { updateDescription: true } });
    expect(await stored(EMAIL, 'businessAttributeInfo')).toMatchObject({
      name: 'Email address',
      description: 'Orders placed on the web shop',
    });
    expect(errorOf(await ui('updateDescription', { input: { ...input, description: 'x' } }, reader()))).toEqual([
      { message: UNAUTHORIZED, code: 403 },
    ]);
    const grant = await service.authorize(SYSTEM_ACTOR, [[]]);
    const bare = 'urn:li:businessAttribute:bare';
    await service.write(grant, [{ urn: bare, aspect: 'status', changeType: 'UPSERT', value: { removed: false } }]);
    expect(errorOf(await ui('updateDescription', { input: { ...input, resourceUrn: bare } }))).toEqual([
      { message: 'Info for this Business Attribute does not yet exist!', code: 400 },
    ]);
  });

  it('updateName of a business attribute (UpdateNameResolver.updateBusinessAttributeName) renames it; MANAGE_BUSINESS_ATTRIBUTE only', async () => {
    const { ui, stored, errorOf, createEmail } = await setup();
    await createEmail();
    await ui('createBusinessAttribute', { input: { id: 'phone', name: 'Phone' } });
    // The profile header's name editor.
    const input = { ...(uiVariables('mutations', 'updateName').input as object), urn: EMAIL, name: 'E-mail' };
    expect(await ui('updateName', { input })).toEqual({ data: { updateName: true } });
    expect(await stored(EMAIL, 'businessAttributeInfo')).toMatchObject({ name: 'E-mail', fieldPath: 'E-mail' });
    expect(errorOf(await ui('updateName', { input: { ...input, name: 'Phone' } }))).toEqual([
      { message: '"Phone" already exists as Business Attribute. Please pick a unique name.', code: 409 },
    ]);
    expect(errorOf(await ui('updateName', { input: { ...input, name: 'Mail' } }, creator()))).toEqual([
      { message: UNAUTHORIZED, code: 403 },
    ]);
    expect(await stored(EMAIL, 'businessAttributeInfo')).toMatchObject({ name: 'E-mail' });
  });

  it('batchAddTags/batchAddTerms and removeTag/removeTerm on a business attribute (LabelUtils) edit its businessAttributeInfo', async () => {
    const { ui, stored, createEmail, service } = await setup();
    await createEmail();
    const grant = await service.authorize(SYSTEM_ACTOR, [[]]);
    const [TAG, TERM] = ['urn:li:tag:pii', 'urn:li:glossaryTerm:contact'];
    await service.write(grant, [
      { urn: TAG, aspect: 'tagProperties', changeType: 'UPSERT', value: { name: 'pii' } },
      {
        urn: TERM,
        aspect: 'glossaryTermInfo',
        changeType: 'UPSERT',
        value: { definition: 'How to reach someone', termSource: 'INTERNAL' },
      },
    ]);
    // The sidebar's AddTagsTermsModal, on the attribute's page.
    const on = { resources: [{ resourceUrn: EMAIL }] };
    const tags = { input: { ...(uiVariables('mutations', 'batchAddTags').input as object), tagUrns: [TAG], ...on } };
    const terms = { input: { ...(uiVariables('mutations', 'batchAddTerms').input as object), termUrns: [TERM], ...on } };
    expect(await ui('batchAddTags', tags, editor())).toEqual({ data: { batchAddTags: true } });
    expect(await ui('batchAddTerms', terms, editor())).toEqual({ data: { batchAddTerms: true } });
    expect(await stored(EMAIL, 'businessAttributeInfo')).toMatchObject({
      name: 'Email address',
      globalTags: { tags: [{ tag: TAG }] },
      glossaryTerms: { terms: [{ urn: TERM }], auditStamp: { time: NOW, actor: 'urn:li:corpuser:eddie' } },
    });
    expect(await stored(EMAIL, 'globalTags')).toBeUndefined();
    const read = await ui('getBusinessAttribute', { urn: EMAIL }, reader());
    expect(read.data!.businessAttribute.properties.tags.tags).toMatchObject([{ tag: { urn: TAG, name: 'pii' }, associatedUrn: EMAIL }]);
    expect(read.data!.businessAttribute.properties.glossaryTerms.terms).toMatchObject([{ term: { urn: TERM }, associatedUrn: EMAIL }]);

    expect(await ui('removeTag', { input: { tagUrn: TAG, resourceUrn: EMAIL, subResourceType: null } }, editor())).toEqual({
      data: { removeTag: true },
    });
    expect(await ui('removeTerm', { input: { termUrn: TERM, resourceUrn: EMAIL, subResourceType: null } }, editor())).toEqual({
      data: { removeTerm: true },
    });
    expect(await stored(EMAIL, 'businessAttributeInfo')).toMatchObject({ globalTags: { tags: [] }, glossaryTerms: { terms: [] } });
    expect((await ui('batchAddTags', tags, reader())).errors?.[0]).toMatchObject({ message: UNAUTHORIZED, extensions: { code: 403 } });
  });

  it('listBusinessAttributes (ListBusinessAttributesResolver): a full-text search over business attributes, paged', async () => {
    const { ui, createEmail } = await setup();
    const empty = await ui('listBusinessAttributes', uiVariables('queries', 'listBusinessAttributes', 1), reader());
    expect(empty.data).toEqual({ listBusinessAttributes: { start: 0, count: 0, total: 0, businessAttributes: [] } });
    await createEmail();
    await ui('createBusinessAttribute', { input: { id: 'phone', name: 'Phone number', type: 'NUMBER' } });
    for (const index of [0, 1]) {
      // The attribute browser sends "*", the attributes page "".
      const all = await ui('listBusinessAttributes', uiVariables('queries', 'listBusinessAttributes', index), reader());
      expect(all.errors).toBeUndefined();
      expect(all.data!.listBusinessAttributes).toMatchObject({ start: 0, count: 2, total: 2 });
      const names = all.data!.listBusinessAttributes.businessAttributes.map((a: { properties: { name: string } }) => a.properties.name);
      expect(names.sort()).toEqual(['Email address', 'Phone number']);
    }
    const phone = await ui('listBusinessAttributes', { start: 0, count: 10, query: 'phone' });
    expect(phone.data!.listBusinessAttributes.businessAttributes).toMatchObject([
      { urn: 'urn:li:businessAttribute:phone', properties: { businessAttributeDataType: 'NUMBER' } },
    ]);
    const page = await ui('listBusinessAttributes', { start: 1, count: 1, query: '*' });
    expect(page.data!.listBusinessAttributes).toMatchObject({ start: 1, count: 1, total: 2 });
  });

  it('addBusinessAttribute and removeBusinessAttribute (Add/RemoveBusinessAttributeResolver) write the field’s businessAttributes aspect', async () => {
    const { ui, run, stored, errorOf, createEmail } = await setup();
    await createEmail();
    // The schema tab's modal sends the field's own urn.
    const added = await ui('addBusinessAttribute', uiVariables('mutations', 'addBusinessAttribute'), editor());
    expect(added).toEqual({ data: { addBusinessAttribute: true } });
    expect(await stored(EMAIL_FIELD, 'businessAttributes')).toEqual({ businessAttribute: { businessAttributeUrn: EMAIL } });

    // The field entity's page shows it, with the attribute's own fields.
    const field = await run(FIELD_ATTRIBUTE, { urn: EMAIL_FIELD }, { context: reader() });
    expect(field.errors).toBeUndefined();
    expect(field.data!.entity.businessAttributes).toMatchObject({
      businessAttribute: {
        associatedUrn: EMAIL_FIELD,
        businessAttribute: {
          urn: EMAIL,
          type: 'BUSINESS_ATTRIBUTE',
          properties: { name: 'Email address', businessAttributeDataType: 'STRING' },
        },
      },
    });
    const edges = await run(
      `{ businessAttribute(urn: "${EMAIL}") { relationships(input: { types: ["BusinessAttributeOf"], direction: INCOMING }) { total relationships { entity { urn } } } } }`,
    );
    expect(edges.data!.businessAttribute.relationships).toEqual({ total: 1, relationships: [{ entity: { urn: EMAIL_FIELD } }] });

    // The column privilege alone is enough, on another field of the dataset.
    const byColumn = await ui(
      'addBusinessAttribute',
      { input: { businessAttributeUrn: EMAIL, resourceUrn: [{ resourceUrn: OTHER_FIELD }] } },
      columnEditor(),
    );
    expect(byColumn.errors).toBeUndefined();

    const removed = await ui('removeBusinessAttribute', uiVariables('mutations', 'removeBusinessAttribute'), editor());
    expect(removed).toEqual({ data: { removeBusinessAttribute: true } });
    expect(await stored(EMAIL_FIELD, 'businessAttributes')).toEqual({});
    const cleared = await run(FIELD_ATTRIBUTE, { urn: EMAIL_FIELD });
    expect(cleared.data!.entity.businessAttributes).toEqual({ businessAttribute: null });
    expect(errorOf(await ui('removeBusinessAttribute', uiVariables('mutations', 'removeBusinessAttribute'), editor()))).toEqual([
      {
        message: `Failed to remove Business Attribute with urn ${EMAIL}: Schema field has not attached with business attribute`,
        code: 400,
      },
    ]);
  });

  it('refuses attaching without an edit privilege on the dataset, an absent attribute and a resource that is no schema field', async () => {
    const { ui, stored, errorOf, createEmail } = await setup();
    await createEmail();
    const add = uiVariables('mutations', 'addBusinessAttribute');
    expect(errorOf(await ui('addBusinessAttribute', add, reader()))).toEqual([{ message: UNAUTHORIZED, code: 403 }]);
    expect(errorOf(await ui('removeBusinessAttribute', add, reader()))).toEqual([{ message: UNAUTHORIZED, code: 403 }]);
    expect(await stored(EMAIL_FIELD, 'businessAttributes')).toBeUndefined();
    const absent = 'urn:li:businessAttribute:absent';
    expect(
      errorOf(await ui('addBusinessAttribute', { input: { businessAttributeUrn: absent, resourceUrn: [{ resourceUrn: EMAIL_FIELD }] } })),
    ).toEqual([{ message: `This urn does not exist: ${absent}`, code: 400 }]);
    expect(
      errorOf(
        await ui('addBusinessAttribute', {
          input: {
            businessAttributeUrn: EMAIL,
            resourceUrn: [{ resourceUrn: ORDERS, subResource: 'customer_email', subResourceType: 'DATASET_FIELD' }],
          },
        }),
      ),
    ).toEqual([
      {
        message: `Failed to add Business Attribute ${EMAIL}: ${ORDERS} is not a schema field urn (urn:li:schemaField:(<dataset urn>,<field path>))`,
        code: 400,
      },
    ]);
    expect(
      errorOf(await ui('addBusinessAttribute', { input: { businessAttributeUrn: EMAIL, resourceUrn: [{ resourceUrn: 'nonsense' }] } })),
    ).toEqual([{ message: 'Invalid urn: nonsense', code: 400 }]);
  });

  it('deleteBusinessAttribute (DeleteBusinessAttributeResolver) deletes it and detaches it from the fields carrying it', async () => {
    const { ui, stored, errorOf, createEmail } = await setup();
    await createEmail();
    await ui('addBusinessAttribute', {
      input: { businessAttributeUrn: EMAIL, resourceUrn: [{ resourceUrn: EMAIL_FIELD }, { resourceUrn: OTHER_FIELD }] },
    });
    expect(await stored(OTHER_FIELD, 'businessAttributes')).toEqual({ businessAttribute: { businessAttributeUrn: EMAIL } });
    // CREATE_BUSINESS_ATTRIBUTE does not delete: MANAGE_BUSINESS_ATTRIBUTE does.
    expect(errorOf(await ui('deleteBusinessAttribute', uiVariables('mutations', 'deleteBusinessAttribute'), creator()))).toEqual([
      { message: UNAUTHORIZED, code: 403 },
    ]);
    expect(await ui('deleteBusinessAttribute', uiVariables('mutations', 'deleteBusinessAttribute'))).toEqual({
      data: { deleteBusinessAttribute: true },
    });
    expect(await stored(EMAIL, 'businessAttributeInfo')).toBeUndefined();
    expect(await stored(EMAIL_FIELD, 'businessAttributes')).toEqual({});
    expect(await stored(OTHER_FIELD, 'businessAttributes')).toEqual({});
    expect((await ui('getBusinessAttribute', { urn: EMAIL })).data).toEqual({ businessAttribute: null });
    expect((await ui('listBusinessAttributes', { start: 0, count: 10, query: '' })).data!.listBusinessAttributes.total).toBe(0);
    expect(errorOf(await ui('deleteBusinessAttribute', { urn: EMAIL }))).toEqual([
      { message: `This urn does not exist: ${EMAIL}`, code: 400 },
    ]);
  });

  it('answers an attribute’s stored tags, terms, custom properties and links as the mapper does; status is never mapped', async () => {
    const { run, service } = await setup();
    const grant = await service.authorize(SYSTEM_ACTOR, [[]]);
    const stamp = { time: 5, actor: 'urn:li:corpuser:ada' };
    await service.write(grant, [
      {
        urn: EMAIL,
        aspect: 'businessAttributeInfo',
        changeType: 'UPSERT',
        value: {
          fieldPath: 'email',
          name: 'Email (display)',
          globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
          glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:contact' }], auditStamp: stamp },
          customProperties: { sensitivity: 'high' },
          type: { type: { 'com.linkedin.schema.RecordType': {} } },
          created: stamp,
          lastModified: stamp,
          deleted: stamp,
        },
      },
      {
        urn: EMAIL,
        aspect: 'institutionalMemory',
        changeType: 'UPSERT',
        value: { elements: [{ url: 'https://wiki/email', description: 'Wiki', createStamp: stamp }] },
      },
      { urn: EMAIL, aspect: 'status', changeType: 'UPSERT', value: { removed: false } },
    ]);
    const read = await run(`{ businessAttribute(urn: "${EMAIL}") {
      properties { name type deleted { time } created { time actor } customProperties { key value associatedUrn }
        tags { tags { tag { urn } associatedUrn } } glossaryTerms { terms { term { urn } associatedUrn } } }
      institutionalMemory { elements { url label } } status { removed } ownership { owners { type } } } }`);
    expect(read.errors).toBeUndefined();
    expect(read.data!.businessAttribute).toEqual({
      properties: {
        name: 'email',
        type: 'STRUCT',
        deleted: null,
        created: { time: 5, actor: 'urn:li:corpuser:ada' },
        customProperties: [{ key: 'sensitivity', value: 'high', associatedUrn: EMAIL }],
        tags: { tags: [{ tag: { urn: 'urn:li:tag:pii' }, associatedUrn: EMAIL }] },
        glossaryTerms: { terms: [{ term: { urn: 'urn:li:glossaryTerm:contact' }, associatedUrn: EMAIL }] },
      },
      institutionalMemory: { elements: [{ url: 'https://wiki/email', label: 'Wiki' }] },
      status: null,
      ownership: null,
    });
    // A field that carries nothing answers no attribute (the field itself answers from its urn, as DataHub's
    // SchemaFieldType); an urn of another type is no business attribute.
    const none =
      await run(`{ entity(urn: "${EMAIL_FIELD}") { ... on SchemaFieldEntity { businessAttributes { businessAttribute { associatedUrn } } } }
      other: businessAttribute(urn: "${ORDERS}") { urn } }`);
    expect(none.data).toEqual({ entity: { businessAttributes: null }, other: null });
  });
});
