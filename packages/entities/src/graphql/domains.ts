import { COMMON_RULES } from './common';
import { pageOrRefuse, refWithKey } from './common-fields';
import { Privilege } from '@mds/auth';
import { MAX_PAGE_SIZE, parseUrn, UrnError } from '@mds/core';
import type { SearchIndex } from '@mds/search';
import {
  badRequest,
  conflict,
  notFound,
  type ApiContext,
  type EntityParent,
  type FacetFilterInput,
  type QueryResolvers,
  type MutationResolvers,
  type Resolvers,
} from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, type EntityService } from '../service';
import { commonFields, type Loaders } from './common-fields';
import { keyCreated, ofType } from './glossary';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import type { EntitySearcher } from './search';
import { entityRef } from './typenames';
import { graphqlReader, writeCreate } from './mutation-support';
import { creatorOwnership } from './ownership';

/** Platform privileges: owning a domain grants neither. */
const CREATE = anyOf(Privilege.CREATE_DOMAINS, Privilege.MANAGE_DOMAINS);
const DELETE = anyOf(Privilege.MANAGE_DOMAINS, Privilege.DELETE_ENTITY);

interface StoredDomain {
  urn: string;
  name: string;
  parent: string | null;
  created: number;
}

/**
 * Domains (entities-api §9.4, §10): `listDomains`, `createDomain`, `deleteDomain`. A domain's place in the tree is
 * its `domainProperties.parentDomain`; the domains of a server are few, so the tree is read whole from the index
 * and the store when a call needs it.
 */
export function domainResolvers(
  service: EntityService,
  search: SearchIndex,
  now: () => number,
): {
  Query: QueryResolvers;
  Mutation: MutationResolvers;
  nameTaken: (name: string, parent: string | null, except: string) => Promise<boolean>;
} {
  // The tree is what a search of domains finds, open to any caller as search is.
  const searched = service.reader(undefined, { api: 'search' });
  /** The domains matching `query`, with what their properties say of their name, parent and creation. */
  const domains = async (query = '*'): Promise<StoredDomain[]> => {
    const found = await search.search({ entityTypes: ['domain'], input: query, filters: [], start: 0, count: MAX_PAGE_SIZE, facets: [] });
    const urns = found.hits.map((hit) => hit.urn);
    const stored = await searched.latest(urns, ['domainProperties']);
    return urns.map((urn) => {
      const v = stored.get(urn)?.get('domainProperties')?.value ?? {};
      const created = typeof v.created === 'object' && v.created !== null && 'time' in v.created ? Number(v.created.time) : 0;
      return {
        urn,
        name: typeof v.name === 'string' ? v.name : '',
        parent: typeof v.parentDomain === 'string' ? v.parentDomain : null,
        created,
      };
    });
  };
  const isDomain = async (urn: string) => parseDomainUrn(urn) !== undefined && (await searched.exists(urn));

  return {
    nameTaken: async (name, parent, except) =>
      (await domains()).some((d) => d.urn !== except && d.parent === parent && d.name.toLowerCase() === name.toLowerCase()),
    Query: {
      listDomains: async (_parent, { input }) => {
        const page = pageOrRefuse(input.start, input.count ?? 20);
        const parent = input.parentDomain ?? null;
        const listed = (await domains(input.query?.trim() || '*')).filter((d) => d.parent === parent);
        // Newest first; the urn keeps the order of domains created in the same millisecond stable.
        listed.sort((a, b) => b.created - a.created || (a.urn < b.urn ? -1 : 1));
        const shown = listed.slice(page.start, page.start + page.count).flatMap((d) => entityRef(d.urn) ?? []);
        return { start: page.start, count: shown.length, total: listed.length, domains: shown };
      },
    },
    Mutation: {
      createDomain: async (_parent, { input }, { actor }) => {
        const grant = await service.authorize(actor, CREATE);
        const id = input.id ?? randomUUID();
        const urn = `urn:li:domain:${id}`;
        if (parseDomainUrn(urn) !== id) throw badRequest(`Invalid domain id: ${JSON.stringify(id)}`);
        if (input.name.trim() === '') throw badRequest("'name' must not be blank");
        if (await graphqlReader(service, actor).exists(urn)) throw badRequest('This Domain already exists!');
        const parent = input.parentDomain ?? null;
        if (parent !== null && !(await isDomain(parent))) throw badRequest('Parent Domain does not exist!');
        // The name is unique among its siblings, whatever its case (M3).
        const siblings = (await domains()).filter((d) => d.parent === parent);
        if (siblings.some((d) => d.name.toLowerCase() === input.name.toLowerCase()))
          throw conflict(`"${input.name}" already exists in this domain. Please pick a unique name.`);

        const stamp = { time: now(), actor: actor.urn };
        const properties = {
          name: input.name,
          ...(input.description == null ? {} : { description: input.description }),
          created: stamp,
          ...(parent === null ? {} : { parentDomain: parent }),
        };
        const ownership = creatorOwnership(stamp);
        await writeCreate(
          service,
          grant,
          [
            { urn, aspect: 'domainProperties', changeType: 'CREATE_ENTITY', value: properties },
            { urn, aspect: 'ownership', changeType: 'UPSERT', value: ownership },
          ],
          stamp,
          'This Domain already exists!',
        );
        return urn;
      },
      moveDomain: async (_parent, { input }, { actor }) => {
        // DataHub's MoveDomainResolver: MANAGE_DOMAINS, then the domain, the new parent, a free name there.
        const grant = await service.authorize(actor, anyOf(Privilege.MANAGE_DOMAINS));
        const urn = input.resourceUrn;
        if (parseDomainUrn(urn) === undefined) throw badRequest('Resource is not a domain.');
        const tree = await domains();
        const moved = tree.find((d) => d.urn === urn);
        if (!moved) throw badRequest('Domain properties do not exist.');
        const parent = input.parentDomain ?? null;
        if (parent !== null) {
          if (parseDomainUrn(parent) === undefined) throw badRequest('Parent entity is not a domain.');
          if (!(await isDomain(parent))) throw badRequest('Parent entity does not exist.');
          // Not under itself: a domain's parents must end at the root (DataHub does not check this).
          const parentOf = new Map(tree.map((d) => [d.urn, d.parent]));
          for (let at: string | null | undefined = parent, depth = 0; at && depth <= tree.length; at = parentOf.get(at), depth++)
            if (at === urn) throw badRequest(`Cannot move domain ${urn} under itself or one of its children.`);
        }
        if (tree.some((d) => d.urn !== urn && d.parent === parent && d.name.toLowerCase() === moved.name.toLowerCase()))
          throw conflict(`"${moved.name}" already exists in the destination domain. Please pick a unique name.`);
        await service.update(
          grant,
          { urn, aspect: 'domainProperties' },
          (current) => {
            const { parentDomain: _old, ...rest } = current ?? {};
            return parent === null ? rest : { ...rest, parentDomain: parent };
          },
          { time: now() },
        );
        return true;
      },
      deleteDomain: async (_parent, { urn }, { actor }) => {
        const grant = await service.authorize(actor, DELETE);
        if (parseDomainUrn(urn) === undefined) throw badRequest(`Invalid urn: ${urn}`);
        const reader = graphqlReader(service, actor);
        if (!(await reader.exists(urn))) throw notFound(`Domain ${urn} does not exist.`);
        if ((await domains()).some((d) => d.parent === urn)) throw badRequest(`Cannot delete domain ${urn} which has child domains`);
        const audit = { time: now() };
        // Entities in the domain leave it first, so none is left pointing at a domain that is gone.
        for (const { urn: member } of await reader.referencesTo(urn, 'AssociatedWith')) {
          await service.update(
            grant,
            { urn: member, aspect: 'domains' },
            (current) => ({ ...current, domains: (Array.isArray(current?.domains) ? current.domains : []).filter((d) => d !== urn) }),
            audit,
          );
        }
        await service.deleteEntity(grant, urn);
        return true;
      },
    },
  };
}

/** How far up a chain of domains is followed (a cycle in ingested data must not hang a request). */
const MAX_DEPTH = 32;

/**
 * The `Domain` entity type (DataHub's DomainMapper, ParentDomainsResolver, DomainEntitiesResolver) and `domain(urn:)`:
 * its id is the key's, its place the `parentDomain` of its domainProperties, its entities those whose `domains` name it.
 */
export function domainTypeResolvers(loaders: Loaders, searchEntities: EntitySearcher): Resolvers[] {
  const common = commonFields(loaders);
  /** The domains above `urn`, nearest first: each parent whose properties are stored. */
  const parentDomains = async (parent: EntityParent, _args: unknown, context: ApiContext) => {
    const parentOf = async (urn: string) => {
      const next = (await loaders(context).aspects(urn))?.get('domainProperties')?.value.parentDomain;
      return typeof next === 'string' ? next : undefined;
    };
    const domains: EntityParent[] = [];
    const seen = new Set([parent.urn]);
    for (let at = await parentOf(parent.urn); at && !seen.has(at) && domains.length < MAX_DEPTH; at = await parentOf(at)) {
      const ref = entityRef(at);
      if (!ref) break;
      seen.add(at);
      domains.push(ref);
    }
    return { count: domains.length, domains };
  };
  type EntitiesInput = { query?: string | null; start?: number | null; count?: number | null; filters?: FacetFilterInput[] | null };
  const entities = (parent: EntityParent, { input }: { input?: EntitiesInput | null }, context: ApiContext) =>
    searchEntities(
      {
        query: input?.query ?? '*',
        start: input?.start ?? 0,
        count: input?.count ?? 20,
        filters: input?.filters,
        scope: [{ field: 'domains', values: [parent.urn] }],
      },
      context,
    );
  const mapping: EntityMapping = {
    entity: 'domain',
    fields: {
      id: (e) => e.parts[0],
      displayProperties: 'displayProperties',
      properties: (e) => {
        const v = e.value('domainProperties');
        return v ? { ...v, name: typeof v.name === 'string' ? v.name : e.parts[0], createdOn: keyCreated(e, 'domainKey') } : undefined;
      },
    },
    resolvers: {
      ownership: common.ownership,
      institutionalMemory: common.institutionalMemory,
      aspects: common.aspects,
      parentDomains,
      entities,
    },
  };
  const query: QueryResolvers = { domain: (_parent, { urn }, context) => ofType(loaders, 'domain', urn, context) };
  return [{ Query: query }, entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey })];
}

/** The id of a domain urn, or undefined when `urn` is not one. */
function parseDomainUrn(urn: string): string | undefined {
  try {
    const parsed = parseUrn(urn);
    return parsed.entityType === 'domain' && parsed.parts.length === 1 ? parsed.parts[0] : undefined;
  } catch (error) {
    if (error instanceof UrnError) return undefined;
    throw error;
  }
}
