import { isJsonObject } from '@mds/core';
import { ASSET_COMMON, ASSET_FIELDS, assetResolvers, pick } from './asset-fields';
import type { Loaders } from './common-fields';
import type { Json, TypeRules } from './mapping/convert';
import type { EntityMapping } from './mapping/declare';
import { browsePathsOf } from './browse';

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

/** How the aspects of charts, dashboards, flows and jobs are read where their keys differ (DataHub's mappers). */
export const ASSET_RULES: TypeRules = {
  ChartProperties: { ...changeRules, externalUrl: (v) => v.externalUrl ?? v.chartUrl },
  DashboardProperties: { ...changeRules, externalUrl: (v) => v.externalUrl ?? v.dashboardUrl },
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
        query: 'chartQuery',
        editableProperties: 'editableChartProperties',
        editableInfo: 'editableChartProperties',
        embed: 'embed',
        browsePaths: (e) => browsePathsOf(e.value('browsePaths')),
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
        editableProperties: 'editableDashboardProperties',
        editableInfo: 'editableDashboardProperties',
        embed: 'embed',
        browsePaths: (e) => browsePathsOf(e.value('browsePaths')),
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
        editableProperties: 'editableDataFlowProperties',
        browsePaths: (e) => browsePathsOf(e.value('browsePaths')),
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
        inputOutput: 'dataJobInputOutput',
        editableProperties: 'editableDataJobProperties',
        browsePaths: (e) => browsePathsOf(e.value('browsePaths')),
        ...ASSET_FIELDS,
      },
      resolvers: common,
    },
  ];
}
