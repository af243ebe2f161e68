import type { estypes } from '@mds/elasticsearch';

/**
 * Explicit mappings of a time-series index, DataHub's common fields (MappingsBuilder): keyword ids, date
 * timestamps, and the aspect value and system metadata stored but not indexed. `dynamic: false` keeps any other
 * field out of the mapping, so a stray document cannot blow it up.
 */
export const TIMESERIES_MAPPINGS: estypes.MappingTypeMapping = {
  dynamic: false,
  properties: {
    urn: { type: 'keyword' },
    '@timestamp': { type: 'date' },
    timestampMillis: { type: 'date' },
    eventGranularity: { type: 'keyword' },
    partitionSpec: {
      properties: {
        partition: { type: 'keyword' },
        timePartition: { type: 'keyword' },
      },
    },
    messageId: { type: 'keyword' },
    runId: { type: 'keyword' },
    isExploded: { type: 'boolean' },
    event: { type: 'object', enabled: false },
    systemMetadata: { type: 'object', enabled: false },
  },
};
