import { COMMON_RULES } from './common';
import { pageOrRefuse, refWithKey } from './common-fields';
import { Privilege } from '@mds/auth';
import { isJsonObject, urnTypeOf } from '@mds/core';
import { randomUUID } from 'node:crypto';
import type { SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type MutationResolvers, type QueryResolvers, type Resolvers } from '@mds/schema';
import { anyOf, type EntityService } from '../service';
import { commonFields, type Loaders } from './common-fields';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import { filterGroups } from './search';
import { graphqlReader, writeAll } from './mutation-support';
import { sortedPage, stampTime } from './sorted-page';
import { entityRef } from './typenames';

/**
 * Ownership types (DataHub's OwnershipTypeMapper and ListOwnershipTypesResolver): `OwnershipTypeEntity` from its
 * ownershipTypeInfo and status, and `listOwnershipTypes`, newest first as DataHub sorts them (by `createdAt`). Every
 * match (up to SORTED_AT_MOST) is read and sorted here.
 */
export function ownershipTypeResolvers(loaders: Loaders, search: SearchIndex): Resolvers[] {
  const common = commonFields(loaders);
  const mapping: EntityMapping = {
    entity: 'ownershipType',
    fields: {
      info: (e) => {
        const v = e.value('ownershipTypeInfo');
        // DataHub's mapper answers the creation stamp for lastModified too.
        return v ? { ...v, lastModified: v.created } : undefined;
      },
    },
    resolvers: { status: common.status },
  };
  const query: QueryResolvers = {
    listOwnershipTypes: async (_parent, { input }, context: ApiContext) => {
      const page = pageOrRefuse(input.start ?? 0, input.count ?? 20);
      const { total, urns } = await sortedPage(
        search,
        loaders,
        context,
        { entityType: 'ownershipType', input: input.query ?? '', filters: filterGroups({ filters: input.filters }) },
        { aspect: 'ownershipTypeInfo', key: (info) => stampTime(info?.created), descending: true },
        page,
      );
      const ownershipTypes = urns.flatMap((urn) => entityRef(urn) ?? []);
      return { start: page.start, count: ownershipTypes.length, total, ownershipTypes };
    },
  };
  return [{ Query: query }, entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey })];
}

const MANAGE = anyOf(Privilege.MANAGE_GLOBAL_OWNERSHIP_TYPES);
/** DataHub's system ownership types (`urn:li:ownershipType:__system__…`) are soft-deleted, never removed. */
const SYSTEM_ID = '__system__';

/**
 * The ownership type mutations (DataHub's Create/Update/DeleteOwnershipTypeResolver and OwnershipTypeService), each
 * asking MANAGE_GLOBAL_OWNERSHIP_TYPES; the entity answered is read back as the queries read it.
 */
export function ownershipTypeMutations(service: EntityService, now: () => number): MutationResolvers {
  const stored = async (actor: ApiContext['actor'], urn: string) =>
    (await graphqlReader(service, actor).latest([urn], ['ownershipTypeInfo'])).get(urn)?.get('ownershipTypeInfo')?.value;
  return {
    createOwnershipType: async (_parent, { input }, { actor }) => {
      const urn = `urn:li:ownershipType:${randomUUID()}`;
      const grant = await service.authorize(actor, MANAGE, [urn]);
      const stamp = { actor: actor.urn, time: now() };
      const value = { name: input.name, description: input.description, created: stamp, lastModified: stamp };
      await writeAll(service, grant, [{ urn, aspect: 'ownershipTypeInfo', changeType: 'UPSERT', value }], stamp);
      return entityRef(urn);
    },
    updateOwnershipType: async (_parent, { urn, input }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE, [urn]);
      const absent = () => badRequest(`Failed to update Ownership Type. Ownership Type with urn ${urn} does not exist.`);
      if (!(await stored(actor, urn))) throw absent();
      const stamp = { actor: actor.urn, time: now() };
      await service.update(
        grant,
        { urn, aspect: 'ownershipTypeInfo' },
        (current) => {
          if (!current) throw absent();
          return {
            ...current,
            ...(input.name == null ? {} : { name: input.name }),
            ...(input.description == null ? {} : { description: input.description }),
            lastModified: stamp,
          };
        },
        stamp,
      );
      return entityRef(urn);
    },
    deleteOwnershipType: async (_parent, { urn, deleteReferences }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE, [urn]);
      if (urnTypeOf(urn) !== 'ownershipType') throw badRequest(`Failed to delete Ownership Type: ${urn} is no ownership type urn.`);
      const reader = graphqlReader(service, actor);
      if (!(await reader.exists(urn))) throw badRequest(`Failed to delete Ownership Type with urn ${urn}. It does not exist.`);
      if (urn.slice('urn:li:ownershipType:'.length).startsWith(SYSTEM_ID))
        return writeAll(service, grant, [{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed: true } }]);
      if (deleteReferences ?? true) {
        // Every owner entry naming the type loses its typeUrn (an optional field of DataHub's Owner), as DataHub's
        // reference clean-up removes the field; the owner stays.
        const refs = await reader.referencesTo(urn, 'ownershipType');
        const cleanup = await service.authorize(
          actor,
          MANAGE,
          refs.map((r) => r.urn),
        );
        for (const ref of refs) {
          await service.update(cleanup, ref, (current) => {
            const owners = Array.isArray(current?.owners) ? current.owners : [];
            const kept = owners.map((o) => {
              if (!isJsonObject(o) || o.typeUrn !== urn) return o;
              const { typeUrn: _dropped, ...rest } = o;
              return rest;
            });
            const ownerTypes = isJsonObject(current?.ownerTypes) ? { ...current.ownerTypes } : undefined;
            if (ownerTypes) delete ownerTypes[urn];
            return { ...current, owners: kept, ...(ownerTypes ? { ownerTypes } : {}) };
          });
        }
      }
      await service.deleteEntity(grant, urn);
      return true;
    },
  };
}
