import { MAX_PAGE_SIZE, parseUrn, UrnError, urnTypeOf } from '@mds/core';
import type { SearchIndex } from '@mds/search';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { GLOSSARY_INFO, SYSTEM_ACTOR, type Edit, type EntityReader, type EntityService, type Grant } from '../service';
import { entityTypeOf, graphqlReader, pointer, writeCreate } from './mutation-support';
import { creatorOwnership } from './ownership';

/** The arrays of glossaryRelatedTerms, by the relationship type of RelatedTermsInput. */
const RELATED: Readonly<Record<string, string>> = { isA: 'isRelatedTerms', hasA: 'hasRelatedTerms' };
/** Every array of glossaryRelatedTerms that names other terms (IsA, HasA, HasValue, IsRelatedTo). */
const RELATED_ARRAYS = ['isRelatedTerms', 'hasRelatedTerms', 'values', 'relatedTerms'];

type Aspect = Record<string, unknown>;
const urnsIn = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The single id of a urn of `entityType`, or undefined when `urn` is not one. */
function idOf(urn: string, entityType: string): string | undefined {
  try {
    const parsed = parseUrn(urn);
    return parsed.entityType === entityType && parsed.parts.length === 1 ? parsed.parts[0] : undefined;
  } catch (error) {
    if (error instanceof UrnError) return undefined;
    throw error;
  }
}

/**
 * The glossary's edits (DataHub's CreateGlossaryTermResolver, CreateGlossaryNodeResolver, UpdateParentNodeResolver,
 * AddRelatedTermsResolver, RemoveRelatedTermsResolver, DeleteGlossaryEntityResolver), each asking the service who
 * manages the glossary where the edit is (MANAGE_GLOSSARIES, or MANAGE_(ALL_)GLOSSARY_CHILDREN on a parent node).
 * A term's or node's place is its info's `parentNode`; the root and child listings find them through the search index,
 * which every write updates.
 */
export function glossaryMutationResolvers(service: EntityService, search: SearchIndex, now: () => number): MutationResolvers {
  /** The names of the entities of `entityType` directly under `parent` (null: at the root). */
  const siblingNames = async (reader: EntityReader, entityType: string, parent: string | null) => {
    const filter = parent === null ? { field: 'hasParentNode', values: ['false'] } : { field: 'parentNode', values: [parent] };
    const found = await search.search({
      entityTypes: [entityType],
      input: '*',
      filters: [[filter]],
      start: 0,
      count: MAX_PAGE_SIZE,
      facets: [],
    });
    const stored = await reader.latest(
      found.hits.map((hit) => hit.urn),
      [GLOSSARY_INFO[entityType]!],
    );
    return [...stored.values()].flatMap((aspects) => {
      const name = aspects.get(GLOSSARY_INFO[entityType]!)?.value.name;
      return typeof name === 'string' ? [name] : [];
    });
  };

  const create = async (
    actor: Actor,
    entityType: 'glossaryTerm' | 'glossaryNode',
    input: { id?: string | null; name: string; description?: string | null; parentNode?: string | null },
  ) => {
    const label = entityType === 'glossaryTerm' ? 'Glossary Term' : 'Glossary Node';
    const parent = input.parentNode ?? null;
    const id = input.id ?? randomUUID();
    const urn = `urn:li:${entityType}:${id}`;
    const grant = await service.authorizeGlossaryChildren(actor, [parent ?? undefined], [urn]);
    const reader = graphqlReader(service, actor);
    if (parent !== null && (await entityTypeOf(reader, parent)) !== 'glossaryNode')
      throw badRequest(`Failed to create ${label}. ${parent} either does not exist or is not a glossaryNode.`);
    // The name is unique among the entities of this type under the same parent, as DataHub checks it.
    if ((await siblingNames(reader, entityType, parent)).includes(input.name))
      throw badRequest(`${label} with this name already exists at this level of the Business Glossary`);
    if (idOf(urn, entityType) !== id) throw badRequest(`Invalid ${label} id: ${JSON.stringify(id)}`);
    if (await reader.exists(urn)) throw badRequest(`This ${label} already exists!`);
    // Both info aspects require a definition: an empty one without a description (DataHub's resolvers do the same).
    const definition = input.description ?? '';
    const info =
      entityType === 'glossaryTerm' ? { name: input.name, termSource: 'INTERNAL', definition } : { name: input.name, definition };
    const stamp = { time: now(), actor: actor.urn };
    // The creator owns what it created (DataHub's OwnerUtils.addCreatorAsOwner).
    const ownership = creatorOwnership(stamp);
    await writeCreate(
      service,
      grant,
      [
        {
          urn,
          aspect: GLOSSARY_INFO[entityType]!,
          changeType: 'CREATE_ENTITY',
          value: { ...info, ...(parent === null ? {} : { parentNode: parent }) },
        },
        { urn, aspect: 'ownership', changeType: 'UPSERT', value: ownership },
      ],
      stamp,
      `This ${label} already exists!`,
    );
    return urn;
  };

  /** A read-modify-write of `aspect` of `urn`; `absent` is the error when the aspect is not stored. */
  const change = async (grant: Grant, urn: string, aspect: string, modify: (current: Aspect) => Aspect, absent?: string) => {
    await service.update(
      grant,
      { urn, aspect },
      (current) => {
        if (!current && absent) throw badRequest(absent);
        return modify(current ?? {});
      },
      { time: now() },
    );
    return true;
  };

  /** The related term's checks of DataHub's AddRelatedTermsResolver, in its order. */
  const checkTerm = async (reader: EntityReader, urn: string) => {
    if (urnTypeOf(urn) !== 'glossaryTerm' || !(await reader.exists(urn)))
      throw badRequest(`Failed to update ${urn}. ${urn} either does not exist or is not a glossaryTerm.`);
  };

  /**
   * The edits that take every reference to `urn` off the entities that make one: terms on entities and dataset fields,
   * other terms' related terms, and the parent node of its children (which become roots). Ingested aspects
   * (`schemaMetadata`) are left as their source wrote them, as deleteTag leaves them.
   */
  const unreferencing = async (reader: EntityReader, urn: string): Promise<Edit[]> => {
    const edits: Edit[] = [];
    for (const ref of await reader.referencesTo(urn, 'TermedWith'))
      if (ref.aspect === 'glossaryTerms')
        edits.push({ urn: ref.urn, aspect: ref.aspect, changeType: 'PATCH', value: [{ op: 'remove', path: `/terms/${pointer(urn)}` }] });
    for (const ref of await reader.referencesTo(urn, 'EditableSchemaFieldWithGlossaryTerm')) {
      const value = (await reader.get(ref.urn, 'editableSchemaMetadata'))?.value;
      const fields = Array.isArray(value?.editableSchemaFieldInfo) ? (value.editableSchemaFieldInfo as Aspect[]) : [];
      const ops = fields
        .filter(
          (f) =>
            typeof f.fieldPath === 'string' &&
            urnsIn(((f.glossaryTerms as Aspect | undefined)?.terms as Aspect[] | undefined)?.map((t) => t.urn)).includes(urn),
        )
        .map((f) => ({
          op: 'remove',
          path: `/editableSchemaFieldInfo/${pointer(f.fieldPath as string)}/glossaryTerms/terms/${pointer(urn)}`,
        }));
      if (ops.length) edits.push({ urn: ref.urn, aspect: 'editableSchemaMetadata', changeType: 'PATCH', value: ops });
    }
    const related = new Set<string>();
    for (const type of ['IsA', 'HasA', 'HasValue', 'IsRelatedTo'])
      for (const ref of await reader.referencesTo(urn, type)) related.add(ref.urn);
    for (const term of related) {
      const value = (await reader.get(term, 'glossaryRelatedTerms'))?.value;
      if (!value) continue;
      const kept = Object.fromEntries(RELATED_ARRAYS.filter((a) => a in value).map((a) => [a, urnsIn(value[a]).filter((u) => u !== urn)]));
      edits.push({ urn: term, aspect: 'glossaryRelatedTerms', changeType: 'UPSERT', value: { ...value, ...kept } });
    }
    for (const ref of await reader.referencesTo(urn, 'IsPartOf')) {
      const value = GLOSSARY_INFO[urnTypeOf(ref.urn) ?? ''] === ref.aspect ? (await reader.get(ref.urn, ref.aspect))?.value : undefined;
      if (value?.parentNode !== urn) continue;
      const { parentNode: _removed, ...rest } = value;
      edits.push({ urn: ref.urn, aspect: ref.aspect, changeType: 'UPSERT', value: rest });
    }
    return edits;
  };

  return {
    createGlossaryTerm: (_parent, { input }, { actor }) => create(actor, 'glossaryTerm', input),
    createGlossaryNode: (_parent, { input }, { actor }) => create(actor, 'glossaryNode', input),

    updateParentNode: async (_parent, { input }, { actor }) => {
      const urn = input.resourceUrn;
      const reader = graphqlReader(service, actor);
      const type = await entityTypeOf(reader, urn);
      if (!type) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
      const parent = input.parentNode ?? null;
      if (parent !== null && (await entityTypeOf(reader, parent)) !== 'glossaryNode')
        throw badRequest(`Failed to update ${urn}. ${parent} either does not exist or is not a glossaryNode.`);
      // Who manages both the node it leaves and the one it joins (DataHub's UpdateParentNodeResolver).
      const grant = await service.authorizeGlossaryChildren(actor, [await service.glossary.parentOf(urn), parent ?? undefined], [urn]);
      const aspect = GLOSSARY_INFO[type];
      if (!aspect) throw badRequest(`Failed to update parentNode. Unsupported resource type ${urn} provided.`);
      if (parent === urn) throw badRequest(`Failed to update ${urn}. A glossary node cannot be its own parent.`);
      const label = type === 'glossaryTerm' ? 'Glossary Term' : 'Glossary Node';
      return change(
        grant,
        urn,
        aspect,
        ({ parentNode: _old, ...rest }) => (parent === null ? rest : { ...rest, parentNode: parent }),
        `Info for this ${label} does not yet exist!`,
      );
    },

    addRelatedTerms: async (_parent, { input }, { actor }) => {
      const grant = await service.authorizeGlossaryEntity(actor, input.urn);
      const reader = graphqlReader(service, actor);
      await checkTerm(reader, input.urn);
      for (const term of input.termUrns) {
        if (term === input.urn) throw badRequest(`Failed to update ${input.urn}. Tried to create related term with itself.`);
        if (urnTypeOf(term) !== 'glossaryTerm') throw badRequest(`Failed to update ${input.urn}. ${term} is not a glossaryTerm.`);
        if (!(await reader.exists(term))) throw badRequest(`Failed to update ${input.urn}. ${term} does not exist.`);
      }
      const field = RELATED[input.relationshipType]!;
      return change(grant, input.urn, 'glossaryRelatedTerms', (current) => {
        const existing = urnsIn(current[field]);
        return {
          ...current,
          [field]: [...existing, ...input.termUrns.filter((t, i) => !existing.includes(t) && input.termUrns.indexOf(t) === i)],
        };
      });
    },

    removeRelatedTerms: async (_parent, { input }, { actor }) => {
      const grant = await service.authorizeGlossaryEntity(actor, input.urn);
      await checkTerm(graphqlReader(service, actor), input.urn);
      const field = RELATED[input.relationshipType]!;
      return change(
        grant,
        input.urn,
        'glossaryRelatedTerms',
        (current) => {
          if (!Array.isArray(current[field]))
            throw badRequest('Failed to remove from GlossaryRelatedTerms as they do not exist for this Glossary Term');
          return { ...current, [field]: urnsIn(current[field]).filter((t) => !input.termUrns.includes(t)) };
        },
        `Related Terms for this Urn do not exist: ${input.urn}`,
      );
    },

    deleteGlossaryEntity: async (_parent, { urn }, { actor }) => {
      // Any other type is refused as unauthorized, as DataHub's canUpdateGlossaryEntity refuses it.
      await service.authorizeGlossaryEntity(actor, urn);
      const reader = graphqlReader(service, actor);
      if (!(await reader.exists(urn))) throw badRequest(`This urn does not exist: ${urn}`);
      // DataHub cleans references up after the delete, asynchronously; here it is done first, stamped by the system.
      const edits = await unreferencing(reader, urn);
      const grant = await service.authorizeGlossaryEntity(
        actor,
        urn,
        edits.map((edit) => edit.urn),
      );
      if (edits.length) await service.write(grant, edits, { time: now(), actor: SYSTEM_ACTOR.urn });
      await service.deleteEntity(grant, urn);
      return true;
    },
  };
}
