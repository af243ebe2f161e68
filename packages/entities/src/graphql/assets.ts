import { isJsonObject } from '@mds/core';
import { ASSET_COMMON, ASSET_FIELDS, assetResolvers, pick } from './asset-fields';
import { COMMON_FIELDS, schemaFieldParts } from './common';
import type { Loaders } from './common-fields';
import { OfEntity, type Json, type TypeRules } from './mapping/convert';
import type { EntityMapping } from './mapping/declare';
import { browsePathsField } from './browse';

/** The platform urn of a tool or orchestrator named in a key (`looker` → `urn:li:dataPlatform:looker`). */
const platformOf = (name: string | undefined) => (name ? `urn:li:dataPlatform:${name}` : undefined);

/** The stamps of a chart's or dashboard's `lastModified` (ChangeAuditStamps). */
const changes = (v: Json): Json => (isJsonObject(v.lastModified) ? v.lastModified : {});
const changeRules = {
  name: 'title',
  created: (v: Json) => changes(v).created,
  lastModified: (v: Json) => changes(v).lastModified,
  deleted: (v: Json) => changes(v).deleted,
};

/** The dataset urn of one of chartInfo's `inputs` (a union of one member: the urn itself, or `{ "<member>": urn }`). */
const inputUrn = (input: unknown) => (isJsonObject(input) ? Object.values(input)[0] : input);

const chartInfoRules = { ...changeRules, externalUrl: (v: Json) => v.externalUrl ?? v.chartUrl };
const dashboardInfoRules = { ...changeRules, externalUrl: (v: Json) => v.externalUrl ?? v.dashboardUrl };

/**
 * How the aspects of charts, dashboards, flows and jobs are read where their keys differ (DataHub's mappers). The
 * deprecated `info` types read the same aspect as `properties` (ChartMapper, DashboardMapper map both from it).
 */
export const ASSET_RULES: TypeRules = {
  ChartProperties: chartInfoRules,
  ChartInfo: { ...chartInfoRules, inputs: (v) => (Array.isArray(v.inputs) ? v.inputs.map(inputUrn) : undefined) },
  DashboardProperties: dashboardInfoRules,
  DashboardInfo: dashboardInfoRules,
  // A field of a chart's or dashboard's inputs is a field of the dataset its urn names, else of the chart itself
  // (InputFieldsMapper): its schemaFieldEntity and tags belong to that dataset.
  InputField: {
    schemaField: (v, scope) =>
      isJsonObject(v.schemaField) ? new OfEntity(schemaFieldParts(v.schemaFieldUrn)?.[0] ?? scope.urn, v.schemaField) : undefined,
  },
  // Absent lists are empty lists (DataJobMapper).
  DataJobInputOutput: {
    inputDatasets: (v) => v.inputDatasets ?? [],
    outputDatasets: (v) => v.outputDatasets ?? [],
    inputDatajobs: (v) => v.inputDatajobs ?? [],
  },
};

/** `Chart`, `Dashboard`, `DataFlow` and `DataJob`, declared from their aspects as DataHub's mappers map them. */
export function assetMappings(loaders: Loaders): EntityMapping[] {
  const common = pick(assetResolvers(loaders), ASSET_COMMON);
  return [
    {
      entity: 'chart',
      fields: {
        tool: (e) => e.parts[0],
        chartId: (e) => e.parts[1],
        platform: (e) => platformOf(e.parts[0]),
        properties: 'chartInfo',
        info: 'chartInfo',
        inputFields: 'inputFields',
        query: 'chartQuery',
        editableProperties: 'editableChartProperties',
        editableInfo: 'editableChartProperties',
        embed: 'embed',
        browsePaths: browsePathsField,
        browsePathV2: COMMON_FIELDS.browsePathV2,
        ...ASSET_FIELDS,
      },
      resolvers: common,
    },
    {
      entity: 'dashboard',
      fields: {
        tool: (e) => e.parts[0],
        dashboardId: (e) => e.parts[1],
        platform: (e) => platformOf(e.parts[0]),
        properties: 'dashboardInfo',
        info: 'dashboardInfo',
        inputFields: 'inputFields',
        editableProperties: 'editableDashboardProperties',
        editableInfo: 'editableDashboardProperties',
        embed: 'embed',
        browsePaths: browsePathsField,
        browsePathV2: COMMON_FIELDS.browsePathV2,
        ...ASSET_FIELDS,
      },
      resolvers: common,
    },
    {
      entity: 'dataFlow',
      fields: {
        orchestrator: (e) => e.parts[0],
        flowId: (e) => e.parts[1],
        cluster: (e) => e.parts[2],
        platform: (e) => platformOf(e.parts[0]),
        properties: 'dataFlowInfo',
        info: 'dataFlowInfo',
        // DataFlowMapper never sets the deprecated `dataJobs` (nor does any resolver): null, as DataHub answers.
        dataJobs: () => undefined,
        editableProperties: 'editableDataFlowProperties',
        browsePaths: browsePathsField,
        browsePathV2: COMMON_FIELDS.browsePathV2,
        ...ASSET_FIELDS,
      },
      resolvers: common,
    },
    {
      entity: 'dataJob',
      fields: {
        jobId: (e) => e.parts[1],
        dataFlow: (e) => e.parts[0],
        // A job's key names no platform: its dataPlatformInstance does (DataJobMapper).
        platform: (e) => e.value('dataPlatformInstance')?.platform,
        properties: 'dataJobInfo',
        info: 'dataJobInfo',
        inputOutput: 'dataJobInputOutput',
        dataTransformLogic: 'dataTransformLogic',
        editableProperties: 'editableDataJobProperties',
        browsePaths: browsePathsField,
        browsePathV2: COMMON_FIELDS.browsePathV2,
        ...ASSET_FIELDS,
      },
      resolvers: common,
    },
  ];
}
