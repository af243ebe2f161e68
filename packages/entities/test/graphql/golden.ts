import type { TestSqlDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { readFileSync } from 'node:fs';
import {
  createEntities,
  createEntityGraphql,
  fileItemProposals,
  SYSTEM_ACTOR,
  type AuthorizationSwitches,
  type TimeseriesReader,
} from '../../src/index';
import { schemaOf } from './schema';

export const context: ApiContext = { actor: SYSTEM_ACTOR, requestId: 'test' };

/** The items of one of DataHub's golden files under test/fixtures/datahub (sources in its SOURCES.md). */
export const goldenItems = (file: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`../fixtures/datahub/${file}`, import.meta.url), 'utf8')) as unknown[];

interface GoldenOptions {
  /** Which of the files' aspects to store (all unless given). */
  keep?: (urn: string, aspectName: string) => boolean;
  now?: () => number;
  /** Reads of time-series points (none: time-series fields answer empty). */
  points?: TimeseriesReader;
  /** The secret key ingestion secrets are encrypted with (none: secrets are refused). */
  secretKey?: string;
  /** DataHub's authorization switches (its defaults when absent). */
  authorization?: AuthorizationSwitches;
}

/**
 * A fresh entities module (SQLite, no time-series service: time-series aspects are for the server's tests) holding the
 * items of DataHub's golden files, ingested through the entity service as `datahub ingest` sends them (an item the
 * service refuses is left out), and this package's GraphQL face over it: `run` answers a document as GraphQL does,
 * `query` its data, failing on any error.
 */
export async function goldenGraphql(databases: Pick<TestSqlDatabases, 'open'>, files: readonly string[], options: GoldenOptions = {}) {
  const now = options.now ?? (() => 1_700_000_000_000);
  const entities = await createEntities({ db: await databases.open(), now, points: options.points, authorization: options.authorization });
  const keep = options.keep ?? (() => true);
  const placed = files
    .flatMap((file) => goldenItems(file).flatMap((item, i) => fileItemProposals(item, `${file}[${i}]`)))
    .filter(({ proposal }) => {
      const { entityUrn, aspectName } = proposal as { entityUrn?: unknown; aspectName?: unknown };
      return typeof entityUrn === 'string' && typeof aspectName === 'string' && keep(entityUrn, aspectName);
    });
  await entities.service.ingest(SYSTEM_ACTOR, placed, { batch: false });
  const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search, now, secretKey: options.secretKey }));
  const run = (source: string, variableValues?: Record<string, unknown>, opts: { context?: ApiContext; operationName?: string } = {}) =>
    graphql({ schema, source, variableValues, contextValue: opts.context ?? context, operationName: opts.operationName }) as Promise<
      ExecutionResult<Record<string, any>>
    >;
  const query = async (source: string, variableValues?: Record<string, unknown>): Promise<any> => {
    const result = await run(source, variableValues);
    if (result.errors?.length) throw new Error(result.errors.map((e) => `${e.message} at ${e.path?.join('.')}`).join('\n'));
    return result.data;
  };
  return { ...entities, entities, schema, run, query };
}
