import { isJsonObject } from '@mds/core';
/**
 * Relationship edges derived from aspect values (entities-api §7.6, PDL `@Relationship`).
 * Pure: no storage, no I/O. Malformed values (missing arrays, nulls, non-strings) are skipped, never thrown on.
 */

export interface Edge {
  type: string;
  destination: string;
}

/** Every relationship type mds derives (for validating `types=List(...)`), in the order of the §7.6 table. */
export const RELATIONSHIP_TYPES: readonly string[] = Object.freeze([
  'OwnedBy',
  'TaggedWith',
  'DownstreamOf',
  'AssociatedWith',
  'IsPartOf',
  'Contains',
  'Consumes',
  'Produces',
]);

type Obj = Record<string, unknown>;

/** One `@Relationship` field of an aspect: the candidate urns it holds, read from the aspect value. */
interface Rule {
  readonly type: string;
  readonly targets: (aspect: Obj) => unknown[];
}

const field = (value: unknown, name: string): unknown => (isJsonObject(value) ? value[name] : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `aspect[name][]`: an array of urns. */
const urns =
  (name: string) =>
  (aspect: Obj): unknown[] =>
    list(aspect[name]);
/** `aspect[name][].key`: an array of records each holding a urn. */
const itemField =
  (name: string, key: string) =>
  (aspect: Obj): unknown[] =>
    list(aspect[name]).map((item) => field(item, key));
/** `aspect[name][].destinationUrn`: a DataHub `Edge` array. */
const edges = (name: string) => itemField(name, 'destinationUrn');
/** Tags of a `GlobalTags` record. */
const tagsOf = (globalTags: unknown): unknown[] => list(field(globalTags, 'tags')).map((item) => field(item, 'tag'));
/** Field-level tags: `aspect[name][].globalTags.tags[].tag`. */
const fieldTags =
  (name: string) =>
  (aspect: Obj): unknown[] =>
    list(aspect[name]).flatMap((item) => tagsOf(field(item, 'globalTags')));
/** `chartInfo.inputs[]`: a union array whose items are a urn or `{"string": urn}`. */
const chartInputs = (aspect: Obj): unknown[] => list(aspect.inputs).map((item) => (isJsonObject(item) ? item.string : item));

/** The `@Relationship` fields of each aspect, in PDL field order. */
const RULES: Readonly<Record<string, readonly Rule[]>> = {
  ownership: [{ type: 'OwnedBy', targets: itemField('owners', 'owner') }],
  globalTags: [{ type: 'TaggedWith', targets: (aspect) => tagsOf(aspect) }],
  schemaMetadata: [{ type: 'TaggedWith', targets: fieldTags('fields') }],
  editableSchemaMetadata: [{ type: 'TaggedWith', targets: fieldTags('editableSchemaFieldInfo') }],
  upstreamLineage: [{ type: 'DownstreamOf', targets: itemField('upstreams', 'dataset') }],
  domains: [{ type: 'AssociatedWith', targets: urns('domains') }],
  container: [{ type: 'IsPartOf', targets: (aspect) => [aspect.container] }],
  dashboardInfo: [
    { type: 'Contains', targets: urns('charts') },
    { type: 'Contains', targets: edges('chartEdges') },
    { type: 'Consumes', targets: urns('datasets') },
    { type: 'Consumes', targets: edges('datasetEdges') },
  ],
  chartInfo: [
    { type: 'Consumes', targets: chartInputs },
    { type: 'Consumes', targets: edges('inputEdges') },
  ],
  dataJobInputOutput: [
    { type: 'Consumes', targets: urns('inputDatasets') },
    { type: 'Consumes', targets: edges('inputDatasetEdges') },
    { type: 'Produces', targets: urns('outputDatasets') },
    { type: 'Produces', targets: edges('outputDatasetEdges') },
    { type: 'DownstreamOf', targets: urns('inputDatajobs') },
    { type: 'DownstreamOf', targets: edges('inputDatajobEdges') },
  ],
};

/** The outgoing edges one aspect value of an entity declares (PDL @Relationship), deduplicated, in field order. */
/** Whether values of the aspect can declare edges at all (others need no edge bookkeeping). */
export const declaresEdges = (aspectName: string): boolean => Object.hasOwn(RULES, aspectName);

export function edgesOf(aspectName: string, value: unknown): Edge[] {
  const rules = Object.hasOwn(RULES, aspectName) ? RULES[aspectName] : undefined;
  if (rules === undefined || !isJsonObject(value)) return [];
  const seen = new Set<string>();
  const out: Edge[] = [];
  for (const { type, targets } of rules) {
    for (const destination of targets(value)) {
      if (typeof destination !== 'string' || destination === '') continue;
      const key = `${type}\u0000${destination}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ type, destination });
    }
  }
  return out;
}
