import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Every entity mutation of entities-api §10 × {Admin, Editor, Reader, no role, owner of the resource}: allowed or
// refused as §11 says (and DataHub's "Asset Owners - Metadata Policy": an owner edits what it owns, but neither
// creates nor deletes domains). Each case edits its own resource; a refusal must leave it exactly as it was.
type Caller = 'Admin' | 'Editor' | 'Reader' | 'no role' | 'owner';
const CALLERS: readonly Caller[] = ['Admin', 'Editor', 'Reader', 'no role', 'owner'];
const OWNER = 'urn:li:corpuser:olivia';
const TAG = 'urn:li:tag:Existing';
const DOMAIN = 'urn:li:domain:existing';
/** What the adds add: resources start with TAG and DOMAIN, so adding those again would change nothing. */
const NEW_TAG = 'urn:li:tag:Another';
const NEW_DOMAIN = 'urn:li:domain:another';
const JDOE = 'urn:li:corpuser:jdoe';
const TERM = 'urn:li:glossaryTerm:Existing';
const NEW_TERM = 'urn:li:glossaryTerm:Another';
const LINK = 'https://wiki.example.com/existing';

type Kind = 'dataset' | 'dashboard' | 'chart' | 'domain' | 'none';
interface Case {
  kind: Kind;
  /** The mutation for the resource `urn` (and a fresh `id` where one is created). */
  mutation: (urn: string, id: string) => string;
  /** Platform-level: owning a resource grants nothing. */
  platform?: boolean;
}

const one = (urn: string) => `resources: [{ resourceUrn: "${urn}" }]`;
const CASES: Record<string, Case> = {
  addTag: { kind: 'dataset', mutation: (u) => `addTag(input: { tagUrn: "${NEW_TAG}", resourceUrn: "${u}" })` },
  addTags: { kind: 'dataset', mutation: (u) => `addTags(input: { tagUrns: ["${NEW_TAG}"], resourceUrn: "${u}" })` },
  addTagToField: {
    kind: 'dataset',
    mutation: (u) => `addTag(input: { tagUrn: "${TAG}", resourceUrn: "${u}", subResourceType: DATASET_FIELD, subResource: "id" })`,
  },
  removeTag: { kind: 'dataset', mutation: (u) => `removeTag(input: { tagUrn: "${TAG}", resourceUrn: "${u}" })` },
  batchAddTags: { kind: 'dataset', mutation: (u) => `batchAddTags(input: { tagUrns: ["${NEW_TAG}"], ${one(u)} })` },
  batchRemoveTags: { kind: 'dataset', mutation: (u) => `batchRemoveTags(input: { tagUrns: ["${TAG}"], ${one(u)} })` },
  addOwner: {
    kind: 'dataset',
    mutation: (u) => `addOwner(input: { ownerUrn: "${JDOE}", ownerEntityType: CORP_USER, type: TECHNICAL_OWNER, resourceUrn: "${u}" })`,
  },
  addOwners: {
    kind: 'dataset',
    mutation: (u) =>
      `addOwners(input: { owners: [{ ownerUrn: "${JDOE}", ownerEntityType: CORP_USER, type: TECHNICAL_OWNER }], resourceUrn: "${u}" })`,
  },
  removeOwner: { kind: 'dataset', mutation: (u) => `removeOwner(input: { ownerUrn: "${JDOE}", resourceUrn: "${u}" })` },
  batchAddOwners: {
    kind: 'dataset',
    mutation: (u) =>
      `batchAddOwners(input: { owners: [{ ownerUrn: "${JDOE}", ownerEntityType: CORP_USER, type: TECHNICAL_OWNER }], ${one(u)} })`,
  },
  batchRemoveOwners: { kind: 'dataset', mutation: (u) => `batchRemoveOwners(input: { ownerUrns: ["${JDOE}"], ${one(u)} })` },
  updateDescription: { kind: 'dataset', mutation: (u) => `updateDescription(input: { description: "new", resourceUrn: "${u}" })` },
  updateFieldDescription: {
    kind: 'dataset',
    mutation: (u) =>
      `updateDescription(input: { description: "new", resourceUrn: "${u}", subResourceType: DATASET_FIELD, subResource: "id" })`,
  },
  updateDeprecation: { kind: 'dataset', mutation: (u) => `updateDeprecation(input: { urn: "${u}", deprecated: true, note: "old" })` },
  batchUpdateDeprecation: { kind: 'dataset', mutation: (u) => `batchUpdateDeprecation(input: { deprecated: true, ${one(u)} })` },
  setDomain: { kind: 'dataset', mutation: (u) => `setDomain(entityUrn: "${u}", domainUrn: "${NEW_DOMAIN}")` },
  unsetDomain: { kind: 'dataset', mutation: (u) => `unsetDomain(entityUrn: "${u}")` },
  batchSetDomain: { kind: 'dataset', mutation: (u) => `batchSetDomain(input: { domainUrn: "${NEW_DOMAIN}", ${one(u)} })` },
  batchUpdateSoftDeleted: { kind: 'dataset', mutation: (u) => `batchUpdateSoftDeleted(input: { urns: ["${u}"], deleted: true })` },
  updateDataset: {
    kind: 'dataset',
    mutation: (u) => `updateDataset(urn: "${u}", input: { editableProperties: { description: "new" } }) { urn }`,
  },
  updateDashboard: {
    kind: 'dashboard',
    mutation: (u) => `updateDashboard(urn: "${u}", input: { editableProperties: { description: "new" } }) { urn }`,
  },
  updateChart: {
    kind: 'chart',
    mutation: (u) => `updateChart(urn: "${u}", input: { editableProperties: { description: "new" } }) { urn }`,
  },
  updateDomainDescription: { kind: 'domain', mutation: (u) => `updateDescription(input: { description: "new", resourceUrn: "${u}" })` },
  addTerm: { kind: 'dataset', mutation: (u) => `addTerm(input: { termUrn: "${NEW_TERM}", resourceUrn: "${u}" })` },
  addTerms: { kind: 'dataset', mutation: (u) => `addTerms(input: { termUrns: ["${NEW_TERM}"], resourceUrn: "${u}" })` },
  addTermToField: {
    kind: 'dataset',
    mutation: (u) => `addTerm(input: { termUrn: "${TERM}", resourceUrn: "${u}", subResourceType: DATASET_FIELD, subResource: "id" })`,
  },
  removeTerm: { kind: 'dataset', mutation: (u) => `removeTerm(input: { termUrn: "${TERM}", resourceUrn: "${u}" })` },
  batchAddTerms: { kind: 'dataset', mutation: (u) => `batchAddTerms(input: { termUrns: ["${NEW_TERM}"], ${one(u)} })` },
  batchRemoveTerms: { kind: 'dataset', mutation: (u) => `batchRemoveTerms(input: { termUrns: ["${TERM}"], ${one(u)} })` },
  addLink: { kind: 'dataset', mutation: (u) => `addLink(input: { linkUrl: "https://new", label: "new", resourceUrn: "${u}" })` },
  updateLink: {
    kind: 'dataset',
    mutation: (u) =>
      `updateLink(input: { currentUrl: "${LINK}", currentLabel: "wiki", linkUrl: "https://new", label: "new", resourceUrn: "${u}" })`,
  },
  removeLink: { kind: 'dataset', mutation: (u) => `removeLink(input: { linkUrl: "${LINK}", resourceUrn: "${u}" })` },
  updateDatasetName: { kind: 'dataset', mutation: (u) => `updateName(input: { urn: "${u}", name: "new" })` },
  updateEmbed: { kind: 'dashboard', mutation: (u) => `updateEmbed(input: { urn: "${u}", renderUrl: "https://embed" })` },
  updateDisplayProperties: {
    kind: 'domain',
    platform: true,
    mutation: (u) => `updateDisplayProperties(urn: "${u}", input: { colorHex: "#ffffff" })`,
  },
  updateDomainName: { kind: 'domain', platform: true, mutation: (u) => `updateName(input: { urn: "${u}", name: "${u}-renamed" })` },
  createDomain: { kind: 'none', platform: true, mutation: (_u, id) => `createDomain(input: { id: "${id}", name: "${id}" })` },
  deleteDomain: { kind: 'domain', platform: true, mutation: (u) => `deleteDomain(urn: "${u}")` },
};

/** §11: Admin and Editor may do all of these; Reader and a user without a role none; an owner all but the platform's. */
const allowed = (caller: Caller, c: Case) => caller === 'Admin' || caller === 'Editor' || (caller === 'owner' && !c.platform);

const slug = (name: string, caller: Caller) => `${name}_${caller.replace(' ', '_')}`.toLowerCase();
const URNS: Record<Kind, (id: string) => string> = {
  dataset: (id) => `urn:li:dataset:(urn:li:dataPlatform:hive,${id},PROD)`,
  dashboard: (id) => `urn:li:dashboard:(looker,${id})`,
  chart: (id) => `urn:li:chart:(looker,${id})`,
  domain: (id) => `urn:li:domain:${id}`,
  none: (id) => `urn:li:domain:${id}`,
};

/** The aspects a resource starts with: owned by OWNER, and carrying what the removals remove. */
function seed(kind: Kind, urn: string) {
  const stamp = { time: 1, actor: 'urn:li:corpuser:datahub' };
  const ownership = {
    owners: [
      { owner: OWNER, type: 'TECHNICAL_OWNER' },
      { owner: JDOE, type: 'TECHNICAL_OWNER' },
    ],
    lastModified: stamp,
  };
  const aspects: Record<Exclude<Kind, 'none'>, Record<string, unknown>> = {
    dataset: {
      ownership,
      globalTags: { tags: [{ tag: TAG }] },
      glossaryTerms: { terms: [{ urn: TERM }], auditStamp: stamp },
      institutionalMemory: { elements: [{ url: LINK, description: 'wiki', createStamp: stamp }] },
      domains: { domains: [DOMAIN] },
      schemaMetadata: {
        schemaName: 't',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
        fields: [{ fieldPath: 'id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } }],
      },
    },
    dashboard: { ownership, dashboardInfo: { title: 'd', description: '', lastModified: { created: stamp, lastModified: stamp } } },
    chart: { ownership, chartInfo: { title: 'c', description: '', lastModified: { created: stamp, lastModified: stamp } } },
    domain: { ownership, domainProperties: { name: urn } },
  };
  if (kind === 'none') return [];
  return Object.entries(aspects[kind]).map(([aspectName, value]) => ({
    entityType: kind,
    entityUrn: urn,
    aspectName,
    changeType: 'UPSERT',
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  }));
}

let mds: Mds;
const tokens = {} as Record<Caller, string>;
beforeAll(async () => {
  mds = await startMds();
  tokens.Admin = await mds.tokenFor('urn:li:corpuser:ada', 'urn:li:dataHubRole:Admin');
  tokens.Editor = await mds.tokenFor('urn:li:corpuser:eddie', 'urn:li:dataHubRole:Editor');
  tokens.Reader = await mds.tokenFor('urn:li:corpuser:rita', 'urn:li:dataHubRole:Reader');
  tokens['no role'] = await mds.tokenFor('urn:li:corpuser:nora', null);
  tokens.owner = await mds.tokenFor(OWNER, null);
  const support = [
    {
      entityType: 'tag',
      entityUrn: TAG,
      aspectName: 'tagProperties',
      changeType: 'UPSERT',
      aspect: { contentType: 'application/json', value: '{"name":"Existing"}' },
    },
    {
      entityType: 'tag',
      entityUrn: NEW_TAG,
      aspectName: 'tagProperties',
      changeType: 'UPSERT',
      aspect: { contentType: 'application/json', value: '{"name":"Another"}' },
    },
    {
      entityType: 'domain',
      entityUrn: DOMAIN,
      aspectName: 'domainProperties',
      changeType: 'UPSERT',
      aspect: { contentType: 'application/json', value: '{"name":"Existing"}' },
    },
    {
      entityType: 'domain',
      entityUrn: NEW_DOMAIN,
      aspectName: 'domainProperties',
      changeType: 'UPSERT',
      aspect: { contentType: 'application/json', value: '{"name":"Another"}' },
    },
    ...[TERM, NEW_TERM].map((entityUrn) => ({
      entityType: 'glossaryTerm',
      entityUrn,
      aspectName: 'glossaryTermInfo',
      changeType: 'UPSERT',
      aspect: { contentType: 'application/json', value: '{"definition":"","termSource":"INTERNAL"}' },
    })),
    {
      entityType: 'corpuser',
      entityUrn: JDOE,
      aspectName: 'corpUserInfo',
      changeType: 'UPSERT',
      aspect: { contentType: 'application/json', value: '{"active":true}' },
    },
  ];
  const resources = Object.entries(CASES).flatMap(([name, c]) =>
    CALLERS.flatMap((caller) => seed(c.kind, URNS[c.kind](slug(name, caller)))),
  );
  const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals: [...support, ...resources] });
  expect(res.status).toBe(200);
});
afterAll(() => mds?.close());

/** Everything stored of the resource, as the root user reads it. */
const storedOf = async (urn: string) =>
  (
    await mds.graphql(
      `{ entity(urn: "${urn}") { urn ... on Dataset { aspects { aspectName payload } } ... on Dashboard { aspects { aspectName payload } } ... on Chart { aspects { aspectName payload } } ... on Domain { aspects { aspectName payload } } } }`,
    )
  ).body.data.entity;

describe.each(Object.entries(CASES))('%s', (name, c) => {
  it.each(CALLERS)('by %s', async (caller) => {
    const urn = URNS[c.kind](slug(name, caller));
    const before = await storedOf(urn);
    const result = await mds.graphql(`mutation { ${c.mutation(urn, slug(name, caller))} }`, {}, tokens[caller]);
    if (allowed(caller, c)) {
      expect(graphqlError(result)).toBeUndefined();
      expect(await storedOf(urn)).not.toEqual(before);
    } else {
      expect(graphqlError(result)).toEqual({
        message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
        code: 403,
      });
      expect(await storedOf(urn)).toEqual(before);
    }
  });
});
