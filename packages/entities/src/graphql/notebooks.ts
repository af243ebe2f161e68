import { isJsonObject } from '@mds/core';
import type { Resolvers } from '@mds/schema';
import { ASSET_COMMON, ASSET_FIELDS, assetResolvers, pick } from './asset-fields';
import { browsePathsField } from './browse';
import { COMMON_RULES } from './common';
import { refWithKey, type Loaders } from './common-fields';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import { rootQuery } from './root-queries';

/** The shared fields a notebook declares (DataHub's NotebookMapper reads no deprecation and no lastIngested). */
const NOTEBOOK_COMMON = [
  'tags',
  'ownership',
  'domain',
  'status',
  'subTypes',
  'glossaryTerms',
  'institutionalMemory',
  'exists',
  'aspects',
] as const;

/**
 * Notebooks (DataHub's NotebookMapper): `Notebook` from its key (`tool`, `notebookId`, the tool's platform),
 * notebookInfo, notebookContent (each cell's member by its type; an absent content is no cells),
 * editableNotebookProperties and the aspects it shares; `notebook(urn:)`. Its edit, `updateNotebook`, is one of the
 * update mutations (update-mutations.ts).
 */
export function notebookResolvers(loaders: Loaders): Resolvers {
  const mapping: EntityMapping = {
    entity: 'notebook',
    fields: {
      tool: (e) => e.parts[0],
      notebookId: (e) => e.parts[1],
      platform: (e) => (e.parts[0] ? `urn:li:dataPlatform:${e.parts[0]}` : undefined),
      info: 'notebookInfo',
      content: (e) => {
        const cells = e.value('notebookContent')?.cells;
        return {
          cells: (Array.isArray(cells) ? cells.filter(isJsonObject) : []).map((cell) => ({
            type: cell.type,
            textCell: cell.type === 'TEXT_CELL' ? cell.textCell : undefined,
            chartCell: cell.type === 'CHART_CELL' ? cell.chartCell : undefined,
            // DataHub's GraphQL field is spelled `queryChell`.
            queryChell: cell.type === 'QUERY_CELL' ? cell.queryCell : undefined,
          })),
        };
      },
      editableProperties: 'editableNotebookProperties',
      browsePaths: browsePathsField,
      browsePathV2: 'browsePathsV2',
      dataPlatformInstance: ASSET_FIELDS.dataPlatformInstance!,
    },
    resolvers: pick(
      assetResolvers(loaders),
      NOTEBOOK_COMMON.filter((field) => ASSET_COMMON.includes(field)),
    ),
  };
  return {
    ...entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey }),
    Query: { notebook: rootQuery(loaders, 'notebook') },
  };
}
