import { aspectSpec, findEntity, isJsonObject, pageOf, parseEntityUrn, parseUrn, UrnError } from '@mds/core';
import { badRequest, type ApiContext, type EntityParent } from '@mds/schema';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { fieldResolvers } from './mapping/declare';
import { idOf } from './ownership';
import { entityRef } from './typenames';
import type { RequestLoaders } from './request-loaders';

export type Json = Record<string, unknown>;
export type Loaders = (context: ApiContext) => RequestLoaders;
/** What a field resolver of an entity type is handed: the entity's urn (and what the urn says). */
export type Parent = EntityParent;

/** A urn argument, or DataHub's 400 `Invalid urn: <urn>` (entities-api §9.1; DataHub itself answers 500). */
export function urnArgument(urn: string) {
  try {
    return parseEntityUrn(urn);
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(`Invalid urn: ${urn}`);
    throw error;
  }
}

/** A page of a GraphQL input (`start`, `count` up to `max`), or the caller's 400 naming what is wrong. */
export function pageOrRefuse(start: number | null | undefined, count: number | null | undefined, max?: number) {
  const page = pageOf(start, count, max);
  if ('violation' in page) throw badRequest(page.violation);
  return page;
}

/** The key aspect of a urn's entity type. */
const keyAspectOf = (urn: string) => findEntity(parseUrn(urn).entityType)?.keyAspect ?? '';
export const text = (value: unknown) => (typeof value === 'string' ? value : null);
export const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);
export const urnOf = (parent: Parent) => parent.urn;

/** The latest value of one aspect of an entity, through the request's batched reads. */
export const aspectValue = (loaders: Loaders) => async (urn: string, name: string, context: ApiContext) =>
  (await loaders(context).aspects(urn))?.get(name)?.value;

/** A tag urn as a `Tag` that resolves itself through the tags' face (TagAssociation.tag). */
const tagRef = (urn: string) => ({ __typename: 'Tag' as const, urn, type: 'TAG' as const, name: idOf(urn) });

export function globalTags(value: unknown, associatedUrn: string) {
  if (!isJsonObject(value)) return null;
  return { tags: list(value.tags).flatMap((t) => (typeof t.tag === 'string' ? [{ tag: tagRef(t.tag), associatedUrn }] : [])) };
}

export function glossaryTerms(value: unknown, associatedUrn: string) {
  if (!isJsonObject(value)) return null;
  const terms = list(value.terms).flatMap((t) =>
    typeof t.urn === 'string'
      ? [{ term: { __typename: 'GlossaryTerm' as const, urn: t.urn, type: 'GLOSSARY_TERM' as const, name: idOf(t.urn) }, associatedUrn }]
      : [],
  );
  return { terms };
}

/** The fields of COMMON_FIELDS that the entity types declared by hand take (until each is a declared mapping). */
const shared = (({ tags, globalTags, ownership, deprecation, domain, status, subTypes, glossaryTerms, institutionalMemory }) => ({
  tags,
  globalTags,
  ownership,
  deprecation,
  domain,
  status,
  subTypes,
  glossaryTerms,
  institutionalMemory,
}))(COMMON_FIELDS);

/**
 * The object of the entity an urn names, with what its urn says for the types still declared by hand (their key
 * fields: a tag's or term's `name`, a user's `username`, a domain's `id`, a platform's `name`).
 */
export function refWithKey(urn: string): Json | undefined {
  const ref = entityRef(urn);
  if (!ref) return undefined;
  const id = idOf(urn);
  const key: Record<string, Json> = {
    Tag: { name: id },
    GlossaryTerm: { name: id },
    CorpUser: { username: id },
    CorpGroup: { name: id },
    Domain: { id },
    DataPlatform: { name: id },
  };
  return { ...ref, ...key[ref.__typename ?? ''] };
}

/**
 * The fields every entity type with these aspects answers alike (entities-api §9.2 "same conventions"); a type
 * takes the ones its SDL declares.
 */
export function commonFields(loaders: Loaders) {
  return {
    ...fieldResolvers(loaders, shared, { rules: COMMON_RULES, ref: refWithKey }),
    exists: async (parent: Parent, _args: unknown, context: ApiContext) =>
      (await loaders(context).aspects(urnOf(parent)))?.has(keyAspectOf(urnOf(parent))) ?? false,
    lastIngested: async (parent: Parent, _args: unknown, context: ApiContext) => {
      const observed = [...((await loaders(context).aspects(urnOf(parent)))?.values() ?? [])]
        .map((a) => a.systemMetadata?.lastObserved)
        .filter((t): t is number => typeof t === 'number');
      return observed.length ? Math.max(...observed) : null;
    },
    // DataHub's WeaklyTypedAspectsResolver: the stored aspects named (all when none), only `@Aspect.autoRender` ones
    // when asked, each with the model's renderSpec.
    aspects: async (
      parent: Parent,
      { input }: { input?: { aspectNames?: string[] | null; autoRenderOnly?: boolean | null } | null },
      context: ApiContext,
    ) => {
      const stored = [...((await loaders(context).aspects(urnOf(parent)))?.values() ?? [])];
      const wanted = input?.aspectNames?.length ? new Set(input.aspectNames) : undefined;
      return stored.flatMap((a) => {
        const spec = aspectSpec(a.aspect);
        if ((wanted && !wanted.has(a.aspect)) || (input?.autoRenderOnly && !spec?.autoRender)) return [];
        return [{ aspectName: a.aspect, payload: JSON.stringify(a.value), renderSpec: spec?.renderSpec ?? null }];
      });
    },
  };
}

/** Whether a field's selection asks for `name` (directly, or in an inline fragment or a named one). */
export function selects(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, name: string): boolean {
  const within = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name;
      if (selection.kind === Kind.INLINE_FRAGMENT) return within(selection.selectionSet);
      return within(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => within(node.selectionSet));
}
