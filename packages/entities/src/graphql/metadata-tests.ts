import { COMMON_RULES } from './common';
import { refWithKey } from './common-fields';
import { Privilege } from '@mds/auth';
import type { SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { anyOf } from '../service/policy';
import { urnArgument, type Loaders } from './common-fields';
import { entityTypeResolvers, storedEntity, type EntityMapping, type EntityScope } from './mapping/declare';

/** DataHub asks VIEW_TESTS or MANAGE_TESTS; mds has no MANAGE_TESTS (no test mutations), so VIEW_TESTS. */
const VIEW = anyOf(Privilege.VIEW_TESTS);
/** DataHub's ListTestsResolver defaults. */
const DEFAULT_START = 0;
const DEFAULT_COUNT = 20;
const MAX_COUNT = 1000;

const info = (field: string) => (entity: EntityScope) => entity.value('testInfo')?.[field];

/** `Test` from its testInfo aspect (DataHub's TestMapper), and the test results an asset carries (TestResultsResolver). */
export const TEST_MAPPINGS: readonly EntityMapping[] = [
  {
    entity: 'test',
    fields: { name: info('name'), category: info('category'), description: info('description'), definition: info('definition') },
  },
  { entity: 'dataset', fields: { testResults: 'testResults' } },
];

/** `test(urn:)` and `listTests`, and the fields of `Test`. */
export function metadataTestResolvers(service: EntityService, search: SearchIndex, loaders: Loaders): Resolvers {
  return {
    ...entityTypeResolvers(loaders, TEST_MAPPINGS, { rules: COMMON_RULES, ref: refWithKey }),
    Query: {
      // DataHub's mapper answers no test for one whose testInfo is not stored.
      test: async (_parent: unknown, { urn }: { urn: string }, context: ApiContext) => {
        if (urnArgument(urn).entityType !== 'test') return null;
        const found = await storedEntity(loaders, urn, context);
        return found && (await loaders(context).aspects(urn))?.has('testInfo') ? found : null;
      },
      listTests: async (
        _parent: unknown,
        { input }: { input: { start?: number | null; count?: number | null; query?: string | null } },
        context: ApiContext,
      ) => {
        await service.authorize(context.actor, VIEW);
        const start = input.start ?? DEFAULT_START;
        const count = input.count ?? DEFAULT_COUNT;
        if (!Number.isSafeInteger(start) || start < 0) throw badRequest("'start' must be 0 or more");
        if (!Number.isSafeInteger(count) || count < 0 || count > MAX_COUNT) throw badRequest(`'count' must be 0 to ${MAX_COUNT}`);
        const query = input.query?.trim() ? input.query : '*';
        const found = await search.search({ entityTypes: ['test'], input: query, start, count, facets: [] });
        const tests = found.hits.map(({ urn }) => ({ __typename: 'Test', urn, type: 'TEST' }));
        return { start, count: tests.length, total: found.total, tests };
      },
    },
  } as Resolvers;
}
