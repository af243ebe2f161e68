import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { goldenAspects } from '../../../core/test/support/golden-files';
import { createEntities, createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';
import { schemaOf } from './schema';

export const context: ApiContext = { actor: SYSTEM_ACTOR, requestId: 'test' };

/**
 * The entity GraphQL face over a fresh SQLite store holding the aspects of DataHub's golden files (`files`, from
 * packages/entities/test/fixtures/datahub, the aspects `keep` accepts), ingested through the entity service as
 * DataHub's file source sends them. This store has no time-series service: time-series aspects are for the
 * server's tests (apps/server/test/entity-families.e2e.test.ts).
 */
export async function goldenGraphql(
  databases: ReturnType<typeof sqliteTestDatabases>,
  files: readonly string[],
  keep: (urn: string, aspectName: string) => boolean = () => true,
) {
  const entities = await createEntities({ db: await databases.open() });
  const items = files
    .flatMap((file) => goldenAspects(file))
    .filter((a) => a.urn !== undefined && keep(a.urn, a.aspectName) && a.changeType === 'UPSERT')
    .map((a, i) => ({
      proposal: {
        entityType: a.entityType,
        entityUrn: a.urn,
        changeType: 'UPSERT',
        aspectName: a.aspectName,
        aspect: { value: JSON.stringify(a.value), contentType: 'application/json' },
      },
      place: { action: 'test', path: `item ${i}` },
    }));
  await entities.service.ingest(SYSTEM_ACTOR, items, { batch: false });
  const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
  const run = (source: string, variableValues?: Record<string, unknown>, options: { context?: ApiContext; operationName?: string } = {}) =>
    graphql({ schema, source, variableValues, contextValue: options.context ?? context, operationName: options.operationName }) as Promise<
      ExecutionResult<Record<string, any>>
    >;
  return { run, entities };
}
