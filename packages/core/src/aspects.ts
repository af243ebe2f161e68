/** How an aspect is stored: the key (built from the URN), versioned (metadata_aspect_v2 rows), or time-series. */
export type AspectKind = 'key' | 'versioned' | 'timeseries';

export interface AspectSpec {
  readonly name: string;
  readonly kind: AspectKind;
  /** The PDL record's full class name, which wraps the value in `/aspects` reads and MCE snapshots. */
  readonly pdlClass: string;
}

const L = 'com.linkedin.';

/**
 * Every aspect of the registry by name (aspect names are global in DataHub: one name, one record), with its PDL
 * class (`metadata-models/src/main/pegasus/com/linkedin/...`). Key aspects are listed with their entities.
 */
const VERSIONED: Record<string, string> = {
  datasetProperties: 'dataset.DatasetProperties',
  editableDatasetProperties: 'dataset.EditableDatasetProperties',
  upstreamLineage: 'dataset.UpstreamLineage',
  viewProperties: 'dataset.ViewProperties',
  schemaMetadata: 'schema.SchemaMetadata',
  editableSchemaMetadata: 'schema.EditableSchemaMetadata',
  globalTags: 'common.GlobalTags',
  glossaryTerms: 'common.GlossaryTerms',
  ownership: 'common.Ownership',
  status: 'common.Status',
  subTypes: 'common.SubTypes',
  browsePaths: 'common.BrowsePaths',
  browsePathsV2: 'common.BrowsePathsV2',
  dataPlatformInstance: 'common.DataPlatformInstance',
  deprecation: 'common.Deprecation',
  institutionalMemory: 'common.InstitutionalMemory',
  siblings: 'common.Siblings',
  embed: 'common.Embed',
  inputFields: 'common.InputFields',
  origin: 'common.Origin',
  forms: 'common.Forms',
  container: 'container.Container',
  containerProperties: 'container.ContainerProperties',
  editableContainerProperties: 'container.EditableContainerProperties',
  domains: 'domain.Domains',
  domainProperties: 'domain.DomainProperties',
  structuredProperties: 'structured.StructuredProperties',
  dashboardInfo: 'dashboard.DashboardInfo',
  editableDashboardProperties: 'dashboard.EditableDashboardProperties',
  chartInfo: 'chart.ChartInfo',
  editableChartProperties: 'chart.EditableChartProperties',
  chartQuery: 'chart.ChartQuery',
  dataFlowInfo: 'datajob.DataFlowInfo',
  editableDataFlowProperties: 'datajob.EditableDataFlowProperties',
  dataJobInfo: 'datajob.DataJobInfo',
  dataJobInputOutput: 'datajob.DataJobInputOutput',
  editableDataJobProperties: 'datajob.EditableDataJobProperties',
  versionInfo: 'datajob.VersionInfo',
  tagProperties: 'tag.TagProperties',
  corpUserInfo: 'identity.CorpUserInfo',
  corpUserEditableInfo: 'identity.CorpUserEditableInfo',
  corpUserStatus: 'identity.CorpUserStatus',
  groupMembership: 'identity.GroupMembership',
  nativeGroupMembership: 'identity.NativeGroupMembership',
  roleMembership: 'identity.RoleMembership',
  corpGroupInfo: 'identity.CorpGroupInfo',
  corpGroupEditableInfo: 'identity.CorpGroupEditableInfo',
  dataPlatformInfo: 'dataplatform.DataPlatformInfo',
  testResults: 'test.TestResults',
  testInfo: 'test.TestInfo',
  glossaryTermInfo: 'glossary.GlossaryTermInfo',
  glossaryRelatedTerms: 'glossary.GlossaryRelatedTerms',
  glossaryNodeInfo: 'glossary.GlossaryNodeInfo',
  mlModelProperties: 'ml.metadata.MLModelProperties',
  intendedUse: 'ml.metadata.IntendedUse',
  mlModelFactorPrompts: 'ml.metadata.MLModelFactorPrompts',
  mlModelMetrics: 'ml.metadata.Metrics',
  mlModelEvaluationData: 'ml.metadata.EvaluationData',
  mlModelTrainingData: 'ml.metadata.TrainingData',
  mlModelQuantitativeAnalyses: 'ml.metadata.QuantitativeAnalyses',
  mlModelEthicalConsiderations: 'ml.metadata.EthicalConsiderations',
  mlModelCaveatsAndRecommendations: 'ml.metadata.CaveatsAndRecommendations',
  sourceCode: 'ml.metadata.SourceCode',
  cost: 'common.Cost',
  mlFeatureProperties: 'ml.metadata.MLFeatureProperties',
  mlPrimaryKeyProperties: 'ml.metadata.MLPrimaryKeyProperties',
  mlFeatureTableProperties: 'ml.metadata.MLFeatureTableProperties',
  dataProcessInstanceProperties: 'dataprocess.DataProcessInstanceProperties',
  dataProcessInstanceRelationships: 'dataprocess.DataProcessInstanceRelationships',
  dataProcessInstanceInput: 'dataprocess.DataProcessInstanceInput',
  dataProcessInstanceOutput: 'dataprocess.DataProcessInstanceOutput',
};

const TIMESERIES: Record<string, string> = {
  datasetProfile: 'dataset.DatasetProfile',
  datasetUsageStatistics: 'dataset.DatasetUsageStatistics',
  operation: 'common.Operation',
  dashboardUsageStatistics: 'dashboard.DashboardUsageStatistics',
  chartUsageStatistics: 'chart.ChartUsageStatistics',
  assertionRunEvent: 'assertion.AssertionRunEvent',
  dataProcessInstanceRunEvent: 'dataprocess.DataProcessInstanceRunEvent',
  datahubIngestionRunSummary: 'datajob.datahub.DatahubIngestionRunSummary',
  datahubIngestionCheckpoint: 'datajob.datahub.DatahubIngestionCheckpoint',
  queryUsageStatistics: 'query.QueryUsageStatistics',
};

const spec =
  (kind: AspectKind) =>
  ([name, pdl]: [string, string]): [string, AspectSpec] => [name, { name, kind, pdlClass: L + pdl }];

/** Versioned and time-series aspects by name; key aspects come from the entity specs (registry.ts). */
export const NON_KEY_ASPECTS: ReadonlyMap<string, AspectSpec> = new Map([
  ...Object.entries(VERSIONED).map(spec('versioned')),
  ...Object.entries(TIMESERIES).map(spec('timeseries')),
]);
