import { badRequest, type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import { pick } from './asset-fields';
import { COMMON_FIELDS } from './common';
import { refWithKey, urnArgument, type Loaders } from './common-fields';
import { datasetMapping } from './dataset';
import type { TypeRules } from './mapping/convert';
import { fieldResolvers, type EntityFieldRule } from './mapping/declare';

/** The aspects DataHub's VersionedDatasetType reads (ASPECTS_TO_RESOLVE); a stamp's other aspects are not read. */
const ASPECTS: ReadonlySet<string> = new Set([
  'datasetKey',
  'datasetProperties',
  'editableDatasetProperties',
  'datasetDeprecation',
  'deprecation',
  'datasetUpstreamLineage',
  'upstreamLineage',
  'editableSchemaMetadata',
  'viewProperties',
  'ownership',
  'institutionalMemory',
  'globalTags',
  'glossaryTerms',
  'status',
  'container',
  'domains',
  'schemaMetadata',
  'siblings',
  'dataProducts',
]);
const KEY = 'datasetKey';

/** `text.split(separator)` as Java's String.split answers it: trailing empty strings are dropped. */
function javaSplit(text: string, separator: string): string[] {
  const parts = text.split(separator);
  while (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
/** Whether Java's Long.valueOf reads `text`: an optional sign and decimal digits, within a long's range. */
const isLong = (text: string) => /^[+-]?\d+$/.test(text) && BigInt(text) >= LONG_MIN && BigInt(text) <= LONG_MAX;

/**
 * A version stamp as DataHub reads it (VersionedUrnUtils.convertVersionStamp): `aspectName:version` pairs joined by
 * `;`, as aspect → version (a name given twice: the last). Blank or absent: no pairs. What cannot be read is the
 * caller's 400, with DataHub's texts: a pair that is not two parts names the stamp, a version that is not a whole
 * number names the version.
 */
export function parseVersionStamp(stamp: string | null | undefined): Map<string, number> {
  const versions = new Map<string, number>();
  if (!stamp?.trim()) return versions;
  for (const pair of javaSplit(stamp, ';')) {
    const tokens = javaSplit(pair, ':');
    if (tokens.length !== 2) throw badRequest(`Invalid version stamp cannot be parsed: ${stamp}`);
    const [aspect, version] = tokens as [string, string];
    if (!isLong(version)) throw badRequest(`Invalid value for aspect version: ${version}`);
    versions.set(aspect, Number(version));
  }
  return versions;
}

/**
 * The versions a stamp reads (EntityServiceImpl.getVersionedEnvelopedAspects): without pairs, the latest of every
 * aspect; with pairs, only the aspects named, at their versions. Undefined when the stamp names none of the aspects
 * read: DataHub then answers no entity. The key is read at its latest whatever the stamp says (DataHub always adds
 * it); it says whether the dataset is stored.
 */
export function stampVersions(named: ReadonlyMap<string, number>): Map<string, number> | undefined {
  if (named.size === 0) return new Map([...ASPECTS].map((aspect) => [aspect, 0]));
  const read = new Map([...named].filter(([aspect]) => ASPECTS.has(aspect)));
  if (read.size === 0) return undefined;
  read.set(KEY, 0);
  return read;
}

const versionsOf = (parent: EntityParent) => parent.versions as ReadonlyMap<string, number>;

/**
 * `versionedDataset(urn:, versionStamp:)` and `VersionedDataset` (DataHub's VersionedDatasetType, its
 * VersionedDatasetMapper and GmsGraphQLEngine.configureVersionedDatasetResolvers): the fields DataHub's mapper fills
 * are Dataset's rules (dataset.ts, common.ts), read from the aspects at the stamp's versions (one batched read per
 * depth, under the request's view rule); the fields it leaves unset answer null.
 */
export function versionedDatasetResolvers(loaders: Loaders, rules: TypeRules): Resolvers {
  const dataset = datasetMapping(loaders, rules).fields;
  const fields: Record<string, EntityFieldRule> = {
    ...pick(dataset, [
      'platform',
      'origin',
      'container',
      'properties',
      'editableProperties',
      'editableSchemaMetadata',
      'schema',
      'viewProperties',
    ]),
    ...pick(COMMON_FIELDS, ['ownership', 'deprecation', 'institutionalMemory', 'status', 'tags', 'glossaryTerms', 'domain']),
    // The key's name only: unlike DatasetMapper, VersionedDatasetMapper does not take datasetProperties' name.
    name: (e) => e.parts[1],
  };
  const unset = () => null;
  return {
    Query: {
      versionedDataset: async (_parent, { urn, versionStamp }, context: ApiContext) => {
        if (urnArgument(urn).entityType !== 'dataset') return null;
        const versions = stampVersions(parseVersionStamp(versionStamp));
        if (!versions) return null;
        const found = await loaders(context).versioned(urn, versions);
        return found?.has(KEY) ? { __typename: 'VersionedDataset', urn, type: 'DATASET', versions } : null;
      },
    },
    VersionedDataset: {
      ...fieldResolvers(loaders, fields, {
        rules,
        ref: refWithKey,
        aspects: (parent, context) => loaders(context).versioned(parent.urn, versionsOf(parent)),
      }),
      parentContainers: unset,
      application: unset,
      health: unset,
      subTypes: unset,
      relationships: unset,
    },
  };
}
