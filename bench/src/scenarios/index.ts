import type { Scenario } from '../context.ts';
import { coldStart } from './cold-start.ts';
import { consoleLoad } from './console-load.ts';
import { createTag, datasetRead, search, tagRead } from './graphql-vs-ceiling.ts';
import { ingestFile } from './ingest-file.ts';
import { lineageSearch } from './lineage.ts';
import { logCost } from './log-cost.ts';
import { openapiEntity } from './openapi-entity.ts';
import { peakRss } from './memory.ts';
import { soak } from './soak.ts';
import { entityIngestBatch, entityIngestProposal, entitySearch, entitySearchPage, getAspect } from './entities.ts';
import { getIndexSizes, ingestProposalBatch } from './timeseries.ts';
import { truncation } from './truncation.ts';
import { uiDatasetPage, uiSearchPage } from './ui-documents.ts';

/**
 * Every scenario, in the order a run takes them. Search comes before createTag so it searches the fixture's tags
 * rather than tens of thousands of load-test ones; peakRss follows all the load; coldStart stops the main server,
 * so it is last.
 */
export const SCENARIOS: readonly Scenario[] = [
  tagRead,
  logCost,
  search,
  createTag,
  ingestProposalBatch,
  getIndexSizes,
  entityIngestBatch,
  entitySearch,
  entitySearchPage,
  uiSearchPage,
  entityIngestProposal,
  getAspect,
  datasetRead,
  uiDatasetPage,
  lineageSearch,
  openapiEntity,
  consoleLoad,
  ingestFile,
  truncation,
  soak,
  peakRss,
  coldStart,
];
