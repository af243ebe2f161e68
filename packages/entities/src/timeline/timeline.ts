import { badRequest } from '@mds/schema';
import type { StoredAspect } from '../service';
import { globalTagsChanges, glossaryTermsChanges } from './associations';
import { definitionChanges, descriptionChanges, editableSchemaMetadataChanges, institutionalMemoryChanges } from './documentation';
import { higher, type ChangeCategory, type ChangeGenerator, type ChangeTransaction, type SemanticChange } from './events';
import { ownershipChanges } from './ownership';
import { schemaMetadataChanges } from './schema-metadata';

/**
 * Which aspects tell which categories of change, by entity type (DataHub's TimelineServiceImpl registry; the order of
 * the aspects is the order their events take within one transaction).
 */
const REGISTRY: Readonly<Record<string, Partial<Record<ChangeCategory, Readonly<Record<string, ChangeGenerator>>>>>> = {
  dataset: {
    TAG: { schemaMetadata: schemaMetadataChanges, editableSchemaMetadata: editableSchemaMetadataChanges, globalTags: globalTagsChanges },
    DOCUMENTATION: {
      institutionalMemory: institutionalMemoryChanges,
      editableDatasetProperties: descriptionChanges,
      datasetProperties: descriptionChanges,
      editableSchemaMetadata: editableSchemaMetadataChanges,
      schemaMetadata: schemaMetadataChanges,
    },
    GLOSSARY_TERM: { glossaryTerms: glossaryTermsChanges, editableSchemaMetadata: editableSchemaMetadataChanges },
    TECHNICAL_SCHEMA: { schemaMetadata: schemaMetadataChanges },
    OWNER: { ownership: ownershipChanges },
  },
  glossaryTerm: {
    OWNER: { ownership: ownershipChanges },
    DOCUMENTATION: { glossaryTermInfo: definitionChanges },
  },
};

/** What the timeline reads: every stored aspect's versions of one entity (a graphql reader's `latest` and `versions`). */
export interface TimelineSource {
  aspectNames(urn: string): Promise<string[]>;
  versions(urn: string, aspect: string): Promise<StoredAspect[]>;
}

/** A version's rank in time: history 1..n oldest first, then the latest (0). */
const rank = (row: StoredAspect) => (row.version === 0 ? Number.POSITIVE_INFINITY : row.version);

/**
 * The versions of an aspect in the order they were written, one per millisecond (of several written in the same
 * millisecond the last stands for them, as DataHub's set ordered by creation time keeps one).
 */
function chronological(rows: readonly StoredAspect[]): StoredAspect[] {
  const ordered = [...rows].sort((a, b) => a.createdOn - b.createdOn || rank(a) - rank(b));
  return ordered.filter((row, i) => ordered[i + 1]?.createdOn !== row.createdOn);
}

/** The semantic version after a group of changes (DataHub's getGroupSemanticVersion): the first group is 0.0.0. */
function nextVersion(previous: [number, number, number] | undefined, change: SemanticChange): [number, number, number] {
  if (!previous) return [0, 0, 0];
  const [major, minor, patch] = previous;
  if (change === 'MAJOR') return [major + 1, 0, 0];
  if (change === 'MINOR') return [major, minor + 1, 0];
  if (change === 'PATCH') return [major, minor, patch + 1];
  return previous;
}

/** The version of every aspect in force at `time`, `aspect:version;…` by aspect name (DataHub's version stamp). */
function versionStamp(time: number, history: ReadonlyMap<string, StoredAspect[]>): string {
  const parts: string[] = [];
  for (const name of [...history.keys()].sort()) {
    let inForce: StoredAspect | undefined;
    for (const row of history.get(name)!) {
      if (row.createdOn > time) break;
      inForce = row;
    }
    if (inForce) parts.push(`${name}:${inForce.version}`);
  }
  return parts.join(';');
}

/**
 * An entity's timeline (DataHub's TimelineServiceImpl.getTimeline over all time): each aspect of the categories asked
 * is diffed version after version (its first version against nothing) by its generators; the changes made in the same
 * millisecond form one transaction; each transaction's semantic version bumps the previous one by its largest change
 * (the first is 0.0.0); transactions without changes are left out, the others oldest first.
 */
export async function timeline(
  source: TimelineSource,
  urn: string,
  entityType: string,
  categories: readonly ChangeCategory[],
): Promise<ChangeTransaction[]> {
  const registry = REGISTRY[entityType];
  if (!registry) throw badRequest(`Entity Type ${entityType} not supported`);
  const names = await source.aspectNames(urn);
  const history = new Map(
    await Promise.all(names.map(async (name) => [name, chronological(await source.versions(urn, name))] as [string, StoredAspect[]])),
  );
  const diffed = [...new Set(categories.flatMap((category) => Object.keys(registry[category] ?? {})))].filter((name) => history.has(name));

  // Every written version of a diffed aspect is a point in time, with or without changes (DataHub's transaction ids).
  const byTime = new Map<number, Omit<ChangeTransaction, 'semVer' | 'versionStamp'>[]>();
  for (const name of diffed) {
    let previous: StoredAspect | undefined;
    for (const row of history.get(name)!) {
      const found = byTime.get(row.createdOn) ?? [];
      byTime.set(row.createdOn, found);
      for (const category of categories) {
        const generator = registry[category]?.[name];
        const events = generator ? generator(previous?.value, row.value, urn, category) : [];
        if (events.length)
          found.push({
            timestamp: row.createdOn,
            actor: row.createdBy,
            semVerChange: events.map((event) => event.semVerChange).reduce(higher, 'NONE'),
            changeEvents: events,
          });
      }
      previous = row;
    }
  }

  const transactions: ChangeTransaction[] = [];
  let version: [number, number, number] | undefined;
  for (const time of [...byTime.keys()].sort((a, b) => a - b)) {
    const group = byTime.get(time)!;
    const change = group.map((transaction) => transaction.semVerChange).reduce(higher, 'NONE');
    version = nextVersion(version, change);
    if (group.length === 0) continue;
    transactions.push({
      ...group[0]!,
      semVerChange: change,
      changeEvents: group.flatMap((transaction) => transaction.changeEvents),
      semVer: `${version.join('.')}-computed`,
      versionStamp: versionStamp(time, history),
    });
  }
  return transactions;
}
