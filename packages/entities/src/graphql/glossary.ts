import { COMMON_RULES } from './common';
import { refWithKey } from './common-fields';
import { parseUrn, UrnError } from '@mds/core';
import type { SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type EntityParent, type QueryResolvers, type Resolvers } from '@mds/schema';
import { commonFields, type Loaders } from './common-fields';
import type { TypeRules } from './mapping/convert';
import { entityTypeResolvers, storedEntity, type EntityMapping, type EntityScope } from './mapping/declare';
import { scopedScroll, type EntitySearcher } from './search';
import { DATASET_RULES, schemaMetadataResolver } from './dataset';
import { entityRef } from './typenames';

/** How far up a chain of nodes is followed (a cycle in ingested data must not hang a request). */
const MAX_DEPTH = 32;

/** A term's display name when its info names none: the last dot-separated part of the key's name (`Classification.Sensitive` → `Sensitive`). */
export const termName = (hierarchicalName: string) => hierarchicalName.split('.').pop()!;

/** When and by whom the entity's key aspect was first written (DataHub's `createdOn` of glossary and domain properties). */
export function keyCreated(entity: EntityScope, keyAspect: string) {
  const key = entity.aspects.get(keyAspect);
  return key ? { time: key.createdOn, actor: key.createdBy } : undefined;
}

/** glossaryTermInfo as DataHub's mappers show it: `description` repeats `definition`, the key names a term without a name. */
function termInfo(entity: EntityScope, withCreated: boolean) {
  const info = entity.value('glossaryTermInfo');
  if (!info) return undefined;
  return {
    ...info,
    name: typeof info.name === 'string' ? info.name : termName(entity.parts[0]!),
    description: info.definition,
    ...(withCreated ? { createdOn: keyCreated(entity, 'glossaryTermKey') } : {}),
  };
}

/** glossaryNodeInfo as DataHub's mapper shows it; a node with only its key still has properties, named by the key. */
function nodeProperties(entity: EntityScope) {
  const info = entity.value('glossaryNodeInfo');
  if (!info && !entity.aspects.has('glossaryNodeKey')) return undefined;
  return {
    ...info,
    name: typeof info?.name === 'string' ? info.name : entity.parts[0],
    description: info?.definition,
    createdOn: info ? keyCreated(entity, 'glossaryNodeKey') : undefined,
  };
}

/** The fields of the glossary's own aspect types whose stored shape differs from the GraphQL one (none so far). */
export const GLOSSARY_RULES: TypeRules = {};

/**
 * The glossary's entity types and root queries (DataHub's GlossaryTermMapper, GlossaryNodeMapper and the resolvers of
 * `resolvers/glossary`): a term's or node's place is its info's `parentNode`; the roots and a node's children are
 * found through the search index, as DataHub finds them through its own (`glossaryChildrenSearch`: the one scroll
 * search, `searchEntities`, scoped to the node).
 */
export function glossaryResolvers(loaders: Loaders, search: SearchIndex, searchEntities: EntitySearcher): Resolvers[] {
  const common = commonFields(loaders);
  /** The nodes above `urn`, nearest first: each stored parent, following glossaryNodeInfo.parentNode. */
  const parentNodes = async (parent: EntityParent, _args: unknown, context: ApiContext) => {
    const own = parseUrn(parent.urn).entityType === 'glossaryTerm' ? 'glossaryTermInfo' : 'glossaryNodeInfo';
    const parentOf = (aspects: ReadonlyMap<string, { value: Record<string, unknown> }> | undefined, aspect: string) => {
      const node = aspects?.get(aspect)?.value.parentNode;
      return typeof node === 'string' ? node : undefined;
    };
    const nodes: EntityParent[] = [];
    const seen = new Set([parent.urn]);
    let next = parentOf(await loaders(context).aspects(parent.urn), own);
    while (next && !seen.has(next) && nodes.length < MAX_DEPTH) {
      const ref = entityRef(next);
      const aspects = ref?.__typename === 'GlossaryNode' ? await loaders(context).aspects(next) : undefined;
      if (!ref || !aspects) break;
      seen.add(next);
      nodes.push(ref);
      next = parentOf(aspects, 'glossaryNodeInfo');
    }
    return { count: nodes.length, nodes };
  };

  /** How many of `entityType` name `node` as their parent. */
  const childrenOf = async (entityType: string, node: string) =>
    (
      await search.search({
        entityTypes: [entityType],
        input: '*',
        filters: [[{ field: 'parentNode', values: [node] }]],
        start: 0,
        count: 0,
        facets: [],
      })
    ).total;

  /** A page of the entities of `entityType` under no node. */
  const roots = async (entityType: string, input: { start: number; count: number }) => {
    if (input.start < 0 || input.count < 0) throw badRequest('start and count must not be negative');
    const found = await search.search({
      entityTypes: [entityType],
      input: '*',
      filters: [[{ field: 'hasParentNode', values: ['false'] }]],
      start: input.start,
      count: input.count,
      facets: [],
    });
    const entities = found.hits.flatMap((hit) => entityRef(hit.urn) ?? []);
    return { start: input.start, count: entities.length, total: found.total, entities };
  };

  const mappings: EntityMapping[] = [
    {
      entity: 'glossaryTerm',
      fields: {
        name: (e) => termName(e.parts[0]!),
        hierarchicalName: (e) => e.parts[0],
        exists: (e) => e.aspects.has('glossaryTermKey'),
        properties: (e) => termInfo(e, true),
        glossaryTermInfo: (e) => termInfo(e, false),
      },
      resolvers: {
        parentNodes,
        ownership: common.ownership,
        deprecation: common.deprecation,
        institutionalMemory: common.institutionalMemory,
        domain: common.domain,
        aspects: common.aspects,
        // A term may carry a schema (DataHub's model lists schemaMetadata among its aspects).
        schemaMetadata: schemaMetadataResolver(loaders, { ...COMMON_RULES, ...DATASET_RULES }),
      },
    },
    {
      entity: 'glossaryNode',
      fields: {
        exists: (e) => e.aspects.has('glossaryNodeKey'),
        properties: nodeProperties,
        displayProperties: 'displayProperties',
      },
      resolvers: {
        parentNodes,
        aspects: common.aspects,
        ownership: common.ownership,
        institutionalMemory: common.institutionalMemory,
        // DataHub's GlossaryChildrenSearchResolver: the terms and nodes whose parentNode is this one.
        glossaryChildrenSearch: scopedScroll(searchEntities, 'parentNode'),
        childrenCount: async (parent: EntityParent) => {
          const [termsCount, nodesCount] = await Promise.all([
            childrenOf('glossaryTerm', parent.urn),
            childrenOf('glossaryNode', parent.urn),
          ]);
          return { termsCount, nodesCount };
        },
      },
    },
  ];

  const query: QueryResolvers = {
    glossaryTerm: (_parent, { urn }, context) => ofType(loaders, 'glossaryTerm', urn, context),
    glossaryNode: (_parent, { urn }, context) => ofType(loaders, 'glossaryNode', urn, context),
    getRootGlossaryTerms: async (_parent, { input }) => {
      const { entities, ...page } = await roots('glossaryTerm', input);
      return { ...page, terms: entities };
    },
    getRootGlossaryNodes: async (_parent, { input }) => {
      const { entities, ...page } = await roots('glossaryNode', input);
      return { ...page, nodes: entities };
    },
  };
  return [{ Query: query }, entityTypeResolvers(loaders, mappings, { rules: { ...COMMON_RULES, ...GLOSSARY_RULES }, ref: refWithKey })];
}

/** The stored entity of `urn` when it is of `entityType`; another type's urn answers null, a malformed one is a 400. */
export async function ofType(loaders: Loaders, entityType: string, urn: string, context: ApiContext) {
  let parsed;
  try {
    parsed = parseUrn(urn);
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(`Invalid urn: ${urn}`);
    throw error;
  }
  return parsed.entityType === entityType ? storedEntity(loaders, urn, context) : null;
}
