import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { parseTimeseriesConfig, type ElasticsearchConfig } from '../src/config.ts';
import { Cluster } from '@mds/elasticsearch';
import { ElasticsearchStore } from '../src/elasticsearch/store.ts';
import { describeStoreContract } from './contract.ts';

/**
 * The port contract against a real cluster (Elasticsearch 8/9 or OpenSearch), opt-in:
 * `ELASTICSEARCH_URL=http://localhost:9200 npx vitest run` (vitest.config.ts includes this file only then).
 * Each test works under a random INDEX_PREFIX and deletes its indices afterwards.
 */
describe('live cluster at ELASTICSEARCH_URL', () => {
  describeStoreContract(
    'Elasticsearch (live)',
    // Tasks run in the cluster (mds restarting does not cut them short); Lucene frees space on merges, later.
    { crash: false, sizesShrinkPromptly: false, slowRowsPerSecond: 1_000 },
    async () => {
      const prefix = `mdstest${randomBytes(4).toString('hex')}`;
      const config = { ...(parseTimeseriesConfig(process.env) as ElasticsearchConfig), indexPrefix: prefix, requestTimeoutMs: 30_000 };
      const admin = new Cluster({ config });
      const pattern = `${prefix}_*`;
      return {
        open: async () => new ElasticsearchStore({ config }),
        settle: () => admin.run('refresh', (client, options) => client.indices.refresh({ index: pattern }, options)).then(() => undefined),
        dispose: async () => {
          await admin.run('cleanup', async (client, options) => {
            const indices = Object.keys(await client.indices.get({ index: pattern }, options));
            // Deleting by wildcard is refused by default (action.destructive_requires_name): name each index.
            if (indices.length > 0) await client.indices.delete({ index: indices }, options);
          });
          await admin.close();
        },
      };
    },
  );
});
