import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { upsert, userPolicyOn } from './edit-support';
import { goldenGraphql } from './golden';
import { deactivateAllUsersPolicies } from '../faces';

// `privileges` (EntityPrivileges) as DataHub's EntityPrivilegesResolver computes each flag, from the one policy: the
// role, ownership (DataHub's default owners' policy) and stored dataHubPolicy entities.
const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,flags,PROD)';
const CHART = 'urn:li:chart:(looker,flags)';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)';
const ROOT = 'urn:li:glossaryNode:root';
const CHILD = 'urn:li:glossaryNode:child';
const TERM = 'urn:li:glossaryTerm:term';
const OWNER = 'urn:li:corpuser:owner';
const STEWARD = 'urn:li:corpuser:steward';
const FIELDS =
  'canEditLineage canEditProperties canEditAssertions canEditIncidents canEditDomains canEditDataProducts canEditDeprecation canEditGlossaryTerms canEditTags canEditOwners canEditDescription canEditLinks canManageAssetSummary canEditEmbed canEditQueries canEditSchemaFieldTags canEditSchemaFieldGlossaryTerms canEditSchemaFieldDescription canViewDatasetUsage canViewDatasetProfile canViewDatasetOperations canManageEntity canManageChildren';

const TYPES: Record<string, string> = {
  dataset: 'Dataset',
  chart: 'Chart',
  dataJob: 'DataJob',
  glossaryNode: 'GlossaryNode',
  glossaryTerm: 'GlossaryTerm',
};
const as = (urn: string, ...privileges: string[]): ApiContext => ({ actor: { urn, privileges: new Set(privileges) }, requestId: urn });
const COMMON = [
  'canEditLineage',
  'canEditProperties',
  'canEditAssertions',
  'canEditIncidents',
  'canEditDomains',
  'canEditDataProducts',
  'canEditDeprecation',
  'canEditGlossaryTerms',
  'canEditTags',
  'canEditOwners',
  'canEditDescription',
  'canEditLinks',
  'canManageAssetSummary',
];
const DATASET_EDITS = [
  'canEditEmbed',
  'canEditQueries',
  'canEditSchemaFieldTags',
  'canEditSchemaFieldGlossaryTerms',
  'canEditSchemaFieldDescription',
];
const DATASET_VIEWS = ['canViewDatasetUsage', 'canViewDatasetProfile', 'canViewDatasetOperations'];
const ALL = [...COMMON, ...DATASET_EDITS, ...DATASET_VIEWS, 'canManageEntity', 'canManageChildren'];

/** Every flag: `true` for those listed, `false` for the others the type computes, null for the rest. */
const flags = (computed: readonly string[], granted: readonly string[]) =>
  Object.fromEntries(ALL.map((flag) => [flag, computed.includes(flag) ? granted.includes(flag) : null]));

/**
 * The entities the flags are asked of. DataHub's default policies for all users (which let everyone view a dataset's
 * usage, profile and operations) are deactivated unless `allUsersDefaults`, so that each flag shows what grants it.
 */
async function catalog({ allUsersDefaults = false } = {}) {
  const api = await goldenGraphql(databases, []);
  if (!allUsersDefaults) await deactivateAllUsersPolicies(api.service);
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      upsert(DATASET, 'ownership', { owners: [{ owner: OWNER, type: 'DATAOWNER' }], lastModified: { time: 1, actor: OWNER } }),
      upsert(CHART, 'status', { removed: false }),
      upsert(JOB, 'status', { removed: false }),
      upsert(ROOT, 'glossaryNodeInfo', { name: 'Root', definition: '' }),
      upsert(CHILD, 'glossaryNodeInfo', { name: 'Child', definition: '', parentNode: ROOT }),
      upsert(TERM, 'glossaryTermInfo', { name: 'Term', definition: '', termSource: 'INTERNAL', parentNode: CHILD }),
    ],
    { batch: true },
  );
  const privileges = async (context: ApiContext, urn: string) => {
    const type = TYPES[urn.split(':')[2]!]!;
    const read = await api.run(`{ entity(urn: "${urn}") { ... on ${type} { privileges { ${FIELDS} } } } }`, undefined, {
      context: { ...context, requestId: `${context.requestId}-${Math.random()}` },
    });
    expect(read.errors).toBeUndefined();
    return (read.data!.entity as { privileges: unknown }).privileges;
  };
  return { ...api, privileges };
}

describe("privileges, as DataHub's EntityPrivilegesResolver computes each flag", () => {
  it('EDIT_ENTITY grants every edit flag; the dataset view flags ask their own privilege', async () => {
    const { privileges } = await catalog();
    const editor = as('urn:li:corpuser:editor', Privilege.EDIT_ENTITY);
    expect(await privileges(editor, DATASET)).toEqual(
      flags([...COMMON, ...DATASET_EDITS, ...DATASET_VIEWS], [...COMMON, ...DATASET_EDITS]),
    );
    // A chart adds the embed flag; a data job only the common ones.
    expect(await privileges(editor, CHART)).toEqual(flags([...COMMON, 'canEditEmbed'], [...COMMON, 'canEditEmbed']));
    expect(await privileges(editor, JOB)).toEqual(flags(COMMON, COMMON));
  });

  it('a specific privilege grants its flag alone; nothing held grants none', async () => {
    const { privileges } = await catalog();
    const tagger = as('urn:li:corpuser:tagger', Privilege.EDIT_ENTITY_TAGS, Privilege.EDIT_DATASET_COL_TAGS, Privilege.VIEW_DATASET_USAGE);
    expect(await privileges(tagger, DATASET)).toEqual(
      flags([...COMMON, ...DATASET_EDITS, ...DATASET_VIEWS], ['canEditTags', 'canEditSchemaFieldTags', 'canViewDatasetUsage']),
    );
    const lineage = as('urn:li:corpuser:lineage', Privilege.EDIT_LINEAGE, Privilege.EDIT_ENTITY_QUERIES);
    expect(await privileges(lineage, DATASET)).toEqual(
      flags([...COMMON, ...DATASET_EDITS, ...DATASET_VIEWS], ['canEditLineage', 'canEditQueries']),
    );
    expect(await privileges(as('urn:li:corpuser:nobody'), DATASET)).toEqual(flags([...COMMON, ...DATASET_EDITS, ...DATASET_VIEWS], []));
  });

  it("DataHub's default policies for all users let a user holding nothing view a dataset's usage, profile and operations", async () => {
    const { privileges } = await catalog({ allUsersDefaults: true });
    // "All Users - View Dataset Sensitive Information" (view-dataset-sensitive) grants the three views; nothing edits.
    expect(await privileges(as('urn:li:corpuser:nobody'), DATASET)).toEqual(
      flags([...COMMON, ...DATASET_EDITS, ...DATASET_VIEWS], DATASET_VIEWS),
    );
  });

  it("an owner holds what DataHub's default owners' policy grants on what it owns, and nothing on the rest", async () => {
    const { privileges } = await catalog();
    const owner = as(OWNER);
    expect(await privileges(owner, DATASET)).toEqual(
      flags([...COMMON, ...DATASET_EDITS, ...DATASET_VIEWS], [...COMMON, ...DATASET_EDITS, 'canViewDatasetUsage', 'canViewDatasetProfile']),
    );
    expect(await privileges(owner, JOB)).toEqual(flags(COMMON, []));
  });

  it('glossary: MANAGE_GLOSSARIES manages every node and term; else MANAGE_(ALL_)GLOSSARY_CHILDREN on a node above', async () => {
    const { privileges, service } = await catalog();
    const glossary = as('urn:li:corpuser:glossary', Privilege.MANAGE_GLOSSARIES);
    expect(await privileges(glossary, CHILD)).toMatchObject({ canManageEntity: true, canManageChildren: true });
    expect(await privileges(glossary, TERM)).toMatchObject({ canManageEntity: true, canManageChildren: null });
    const steward = as(STEWARD);
    expect(await privileges(steward, CHILD)).toMatchObject({ canManageEntity: false, canManageChildren: false });
    expect(await privileges(steward, TERM)).toMatchObject({ canManageEntity: false });
    // A stored policy: the steward manages the root's children (direct ones only), and every node below the child.
    const policy = (id: string, privilege: string, node: string) => userPolicyOn(id, STEWARD, privilege, node);
    await service.ingest(SYSTEM_ACTOR, [policy('direct', Privilege.MANAGE_GLOSSARY_CHILDREN, ROOT)], { batch: true });
    expect(await privileges(steward, ROOT)).toMatchObject({ canManageEntity: false, canManageChildren: true });
    expect(await privileges(steward, CHILD)).toMatchObject({ canManageEntity: true, canManageChildren: false });
    expect(await privileges(steward, TERM)).toMatchObject({ canManageEntity: false });
    await service.ingest(SYSTEM_ACTOR, [policy('all', Privilege.MANAGE_ALL_GLOSSARY_CHILDREN, ROOT)], { batch: true });
    expect(await privileges(steward, CHILD)).toMatchObject({ canManageEntity: true, canManageChildren: true });
    expect(await privileges(steward, TERM)).toMatchObject({ canManageEntity: true });
  });
});
