import type { ApiContext, ChangeCategoryType, Resolvers, SchemaFieldBlame } from '@mds/schema';
import { CHANGE_CATEGORIES, timeline, type ChangeCategory, type ChangeTransaction } from '../timeline';
import { urnArgument, type Loaders } from './common-fields';

/** GraphQL's names of categories where they differ from the timeline's (DataHub's OWNER is OWNERSHIP in its schema). */
const TO_GRAPHQL: Partial<Record<ChangeCategory, ChangeCategoryType>> = { OWNER: 'OWNERSHIP' };
const FROM_GRAPHQL: Readonly<Record<string, ChangeCategory>> = { OWNERSHIP: 'OWNER' };

/** A version without its `-computed` qualifier (DataHub's truncateSemanticVersion). */
const truncated = (version: string) => (version.endsWith('-computed') ? version.slice(0, -'-computed'.length) : version);

/** A dotted version's numbers, or undefined when it is not one (such a version sorts below every computed one). */
const numbersOf = (version: string) => {
  const parts = truncated(version).split('.');
  return parts.every((part) => /^\d+$/.test(part)) ? parts.map(Number) : undefined;
};
/** Dotted versions in numeric order, missing parts read as 0 (`1.0` is `1.0.0`). */
function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = (a[i] ?? 0) - (b[i] ?? 0);
    if (order !== 0) return order;
  }
  return 0;
}

/** Transactions newest version first (equal versions keep their time order), as DataHub's mappers sort them. */
const newestFirst = (transactions: readonly ChangeTransaction[]) =>
  transactions
    .map((transaction) => ({ transaction, numbers: numbersOf(transaction.semVer)! }))
    .sort((a, b) => compareVersions(b.numbers, a.numbers));

const versionStruct = (transaction: ChangeTransaction) => ({
  semanticVersion: truncated(transaction.semVer),
  semanticVersionTimestamp: transaction.timestamp,
  versionStamp: transaction.versionStamp,
});

const OPERATION_WORDS = { ADD: 'Added', MODIFY: 'Modified', REMOVE: 'Removed' } as const;

/**
 * `getSchemaVersionList`, `getSchemaBlame` and `getTimeline` (DataHub's GetSchemaVersionListResolver,
 * GetSchemaBlameResolver and GetTimelineResolver with their mappers SchemaVersionListMapper, SchemaBlameMapper,
 * ChangeTransactionMapper and ChangeEventMapper): the timeline (../timeline) computed from the entity's stored versions
 * through the request's reads. As DataHub's, no privilege beyond viewing the entity is asked.
 */
export function timelineResolvers(loaders: Loaders): Resolvers {
  const transactionsOf = (urn: string, categories: readonly ChangeCategory[], context: ApiContext) => {
    const parsed = urnArgument(urn);
    const { reader } = loaders(context);
    const source = {
      aspectNames: async (of: string) => [...((await reader.latest([of])).get(of)?.keys() ?? [])],
      versions: (of: string, aspect: string) => reader.versions(of, aspect),
    };
    return timeline(source, urn, parsed.entityType, categories);
  };

  return {
    Query: {
      getSchemaVersionList: async (_parent: unknown, { input }: { input: { datasetUrn: string } }, context: ApiContext) => {
        const transactions = await transactionsOf(input.datasetUrn, ['TECHNICAL_SCHEMA'], context);
        const latest = transactions.at(-1);
        if (!latest) return null;
        return {
          latestVersion: versionStruct(latest),
          semanticVersionList: newestFirst(transactions).map(({ transaction }) => versionStruct(transaction)),
          version: null,
        };
      },
      getSchemaBlame: async (
        _parent: unknown,
        { input }: { input: { datasetUrn: string; version?: string | null } },
        context: ApiContext,
      ) => {
        const transactions = await transactionsOf(input.datasetUrn, ['TECHNICAL_SCHEMA'], context);
        const empty = { version: null, schemaFieldBlameList: null };
        const latest = transactions.at(-1);
        if (!latest) return empty;
        const cutoff = numbersOf(input.version ?? latest.semVer);
        if (!cutoff) return empty;
        const chosen = newestFirst(transactions).filter(({ numbers }) => compareVersions(numbers, cutoff) <= 0);
        if (chosen.length === 0) return empty;
        // The newest change of each field at or below the version chosen; fields last removed are left out.
        const blame = new Map<string, SchemaFieldBlame>();
        for (const { transaction } of chosen) {
          for (const event of transaction.changeEvents) {
            const fieldUrn = event.modifier;
            if (event.category !== 'TECHNICAL_SCHEMA' || fieldUrn === undefined || blame.has(fieldUrn)) continue;
            const version = truncated(transaction.semVer);
            blame.set(fieldUrn, {
              // The path as the field urn's key holds it (escaped), as DataHub reads it back from the urn.
              fieldPath: fieldUrn.slice(fieldUrn.lastIndexOf(',') + 1, -1),
              schemaFieldChange: {
                timestampMillis: transaction.timestamp,
                lastSemanticVersion: version,
                changeType: event.operation,
                versionStamp: transaction.versionStamp,
                lastSchemaFieldChange: `${OPERATION_WORDS[event.operation]} in v${version}`,
              },
            });
          }
        }
        return {
          version: versionStruct(chosen[0]!.transaction),
          schemaFieldBlameList: [...blame.values()].filter((field) => field.schemaFieldChange.changeType !== 'REMOVE'),
        };
      },
      getTimeline: async (
        _parent: unknown,
        { input }: { input: { urn: string; changeCategories?: readonly string[] | null } },
        context: ApiContext,
      ) => {
        // Without categories, every one (DataHub's ChangeCategory values).
        const categories = input.changeCategories
          ? [...new Set(input.changeCategories.map((category) => FROM_GRAPHQL[category] ?? (category as ChangeCategory)))]
          : CHANGE_CATEGORIES;
        const transactions = await transactionsOf(input.urn, categories, context);
        return {
          changeTransactions: transactions.map((transaction) => ({
            timestampMillis: transaction.timestamp,
            lastSemanticVersion: transaction.semVer,
            // DataHub's mapper answers these two as constants, whatever the transaction.
            versionStamp: 'none',
            changeType: 'MODIFY' as const,
            changes: transaction.changeEvents.map((event) => ({
              // DataHub's mapper names no urn ("empty") and no audit stamp.
              urn: 'empty',
              auditStamp: null,
              category: TO_GRAPHQL[event.category] ?? (event.category as ChangeCategoryType),
              description: event.description,
              modifier: event.modifier ?? null,
              operation: event.operation,
              parameters: event.parameters?.map(([key, value]) => ({ key, value: String(value) })) ?? null,
            })),
          })),
        };
      },
    },
  };
}
