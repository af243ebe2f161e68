import { findEntityOfUrn } from '@mds/core';
import type { EntityParent } from '@mds/schema';

/**
 * The GraphQL object type that answers each entity type of DataHub's registry (datahub-graphql-core's `*Type` classes
 * at the pinned commit) that implements `Entity`. Entity types missing here have no such face in DataHub either
 * (an ingestion source's `IngestionSource` is no `Entity` there).
 */
export const GRAPHQL_TYPENAMES: Readonly<Record<string, string>> = {
  application: 'Application',
  assertion: 'Assertion',
  businessAttribute: 'BusinessAttribute',
  chart: 'Chart',
  container: 'Container',
  corpGroup: 'CorpGroup',
  corpuser: 'CorpUser',
  dashboard: 'Dashboard',
  dataContract: 'DataContract',
  dataFlow: 'DataFlow',
  dataHubAccessToken: 'AccessTokenMetadata',
  dataHubConnection: 'DataHubConnection',
  dataHubExecutionRequest: 'ExecutionRequest',
  dataHubPageModule: 'DataHubPageModule',
  dataHubPageTemplate: 'DataHubPageTemplate',
  dataHubPolicy: 'DataHubPolicy',
  dataHubRole: 'DataHubRole',
  dataHubView: 'DataHubView',
  dataJob: 'DataJob',
  dataPlatform: 'DataPlatform',
  dataPlatformInstance: 'DataPlatformInstance',
  dataProcessInstance: 'DataProcessInstance',
  dataProduct: 'DataProduct',
  dataType: 'DataTypeEntity',
  dataset: 'Dataset',
  domain: 'Domain',
  entityType: 'EntityTypeEntity',
  erModelRelationship: 'ERModelRelationship',
  form: 'Form',
  glossaryNode: 'GlossaryNode',
  glossaryTerm: 'GlossaryTerm',
  incident: 'Incident',
  mlFeature: 'MLFeature',
  mlFeatureTable: 'MLFeatureTable',
  mlModel: 'MLModel',
  mlModelGroup: 'MLModelGroup',
  mlPrimaryKey: 'MLPrimaryKey',
  notebook: 'Notebook',
  ownershipType: 'OwnershipTypeEntity',
  post: 'Post',
  query: 'QueryEntity',
  restricted: 'Restricted',
  role: 'Role',
  schemaField: 'SchemaFieldEntity',
  structuredProperty: 'StructuredPropertyEntity',
  tag: 'Tag',
  test: 'Test',
  versionSet: 'VersionSet',
};

/**
 * The GraphQL object of an entity another one points to, from its urn alone (`__typename`, `urn`, `type`): its other
 * fields resolve themselves through its type's declared mapping. Undefined for a urn of no known entity type.
 */
export function entityRef(urn: string): EntityParent | undefined {
  const spec = findEntityOfUrn(urn);
  const typename = spec && GRAPHQL_TYPENAMES[spec.name];
  return typename ? { __typename: typename, urn, type: spec.graphqlType } : undefined;
}
