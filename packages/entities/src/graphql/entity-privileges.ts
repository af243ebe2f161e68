import { Privilege } from '@mds/auth';
import { urnTypeOf } from '@mds/core';
import type { ApiContext, Resolvers } from '@mds/schema';
import type { EntityService } from '../service';

type Flags = Record<string, boolean>;
/** An edit flag: EDIT_ENTITY, or the specific privilege (DataHub's ALL_PRIVILEGES_GROUP or the one named). */
type Edit = readonly [flag: string, privilege: Privilege];

const P = Privilege;
/** Every type's flags (EntityPrivilegesResolver.addCommonPrivileges). */
const COMMON: readonly Edit[] = [
  ['canEditLineage', P.EDIT_LINEAGE],
  ['canEditProperties', P.EDIT_ENTITY_PROPERTIES],
  ['canEditAssertions', P.EDIT_ENTITY_ASSERTIONS],
  ['canEditIncidents', P.EDIT_ENTITY_INCIDENTS],
  ['canEditDomains', P.EDIT_ENTITY_DOMAINS],
  ['canEditDataProducts', P.EDIT_ENTITY_DATA_PRODUCTS],
  ['canEditDeprecation', P.EDIT_ENTITY_DEPRECATION],
  ['canEditGlossaryTerms', P.EDIT_ENTITY_GLOSSARY_TERMS],
  ['canEditTags', P.EDIT_ENTITY_TAGS],
  ['canEditOwners', P.EDIT_ENTITY_OWNERS],
  ['canEditDescription', P.EDIT_ENTITY_DOCS],
  ['canEditLinks', P.EDIT_ENTITY_DOC_LINKS],
  ['canManageAssetSummary', P.MANAGE_ASSET_SUMMARY],
];
const EMBED: Edit = ['canEditEmbed', P.EDIT_ENTITY_EMBED];
/** The flags some types add, by registry name (getDatasetPrivileges, getChartPrivileges, getDashboardPrivileges). */
const BY_TYPE: Readonly<Record<string, readonly Edit[]>> = {
  dataset: [
    EMBED,
    ['canEditQueries', P.EDIT_ENTITY_QUERIES],
    ['canEditSchemaFieldTags', P.EDIT_DATASET_COL_TAGS],
    ['canEditSchemaFieldGlossaryTerms', P.EDIT_DATASET_COL_GLOSSARY_TERMS],
    ['canEditSchemaFieldDescription', P.EDIT_DATASET_COL_DESCRIPTION],
  ],
  chart: [EMBED],
  dashboard: [EMBED],
};
/** A dataset's view flags: the privilege itself, EDIT_ENTITY does not stand in (AuthorizationUtils.isView…Authorized). */
const DATASET_VIEWS: readonly Edit[] = [
  ['canViewDatasetUsage', P.VIEW_DATASET_USAGE],
  ['canViewDatasetProfile', P.VIEW_DATASET_PROFILE],
  ['canViewDatasetOperations', P.VIEW_DATASET_OPERATIONS],
];
/** The types whose `privileges` DataHub's schema declares (entity-privileges.graphql extends each). */
const PRIVILEGED_TYPES = [
  'Dataset',
  'Chart',
  'Dashboard',
  'DataFlow',
  'DataJob',
  'Container',
  'Domain',
  'DataProduct',
  'GlossaryTerm',
  'GlossaryNode',
  'CorpUser',
  'CorpGroup',
  'Application',
  'MLModel',
  'MLModelGroup',
  'MLFeature',
  'MLPrimaryKey',
  'MLFeatureTable',
  'ERModelRelationship',
];

/**
 * `privileges` of every entity type that declares it (entity-privileges.graphql), one resolver as DataHub's
 * EntityPrivilegesResolver computes each flag, from the one policy: what the caller holds on the entity (role, stored
 * policies, ownership) read once, then each flag is whether that completes its privileges. A flag DataHub does not
 * compute for the type answers null.
 */
export function entityPrivilegesResolvers(service: EntityService): Resolvers {
  const heldOn = async (actor: ApiContext['actor'], urn?: string) => new Set(await service.policy.granted(actor, urn));
  const privileges = async (parent: { urn: string }, _args: unknown, context: ApiContext) => {
    const { urn } = parent;
    const entityType = urnTypeOf(urn) ?? '';
    const held = await heldOn(context.actor, urn);
    const edits = held.has(P.EDIT_ENTITY);
    const flags: Flags = {};
    for (const [flag, privilege] of [...COMMON, ...(BY_TYPE[entityType] ?? [])]) flags[flag] = edits || held.has(privilege);
    if (entityType === 'dataset') for (const [flag, privilege] of DATASET_VIEWS) flags[flag] = held.has(privilege);
    if (entityType === 'glossaryTerm' || entityType === 'glossaryNode') {
      // Asked of the one rule the glossary's mutations are authorized by (the service's glossary authority).
      flags.canManageEntity = await service.glossary.managesEntity(context.actor, urn);
      if (entityType === 'glossaryNode') flags.canManageChildren = await service.glossary.managesChildren(context.actor, urn);
    }
    return flags;
  };
  return Object.fromEntries(PRIVILEGED_TYPES.map((type) => [type, { privileges }]));
}
