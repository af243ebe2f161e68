import { Privilege, requirePrivilege } from '@mds/auth';
import type { DescriptionHandler, EntityFace } from '@mds/entities';
import { badRequest, type Resolvers } from '@mds/schema';
import type { TagStore } from '../store';
import { parseTagUrn } from '../urn';
import { toGraphQLTag } from './to-graphql';

const CREATE = [Privilege.CREATE_TAGS, Privilege.MANAGE_TAGS];
const MANAGE = [Privilege.MANAGE_TAGS];

/**
 * The GraphQL face of a TagStore: privileges, DataHub's argument shapes, and DataHub's result shapes. Each mutation
 * answers once its write is durable (the aspect store's transactions share commits under load).
 */
export function createTagResolvers(store: TagStore): Resolvers {
  return {
    Query: {
      // Reads need only an authenticated actor, which the host guarantees before any resolver runs.
      tag: async (_parent, { urn }) => {
        const tag = await store.get(urn);
        return tag && toGraphQLTag(tag);
      },
    },
    Mutation: {
      createTag: async (_parent, { input }, { actor }) => {
        requirePrivilege(actor, CREATE);
        return (await store.create(input, actor.urn)).urn;
      },
      updateTag: async (_parent, { urn, input }, { actor }) => {
        requirePrivilege(actor, MANAGE);
        if (input.urn !== urn) throw badRequest(`'input.urn' must equal the 'urn' argument`);
        const changes = { name: input.name, description: input.description };
        return toGraphQLTag(await store.update(urn, changes, actor.urn));
      },
      deleteTag: async (_parent, { urn }, { actor }) => {
        requirePrivilege(actor, MANAGE);
        await store.delete(urn);
        return true;
      },
      setTagColor: async (_parent, { urn, colorHex }, { actor }) => {
        requirePrivilege(actor, MANAGE);
        await store.setColor(urn, colorHex, actor.urn);
        return true;
      },
    },
  };
}

/** updateDescription of a tag (@mds/entities hands tags to it): MANAGE_TAGS, and tags have no sub-resources. */
export function describeTag(store: TagStore): DescriptionHandler {
  return async (input, actor) => {
    requirePrivilege(actor, MANAGE);
    parseTagUrn(input.resourceUrn, 'resourceUrn');
    if (input.subResourceType != null || input.subResource != null) {
      throw badRequest(`'subResourceType' and 'subResource' must be absent: tags have no sub-resources`);
    }
    await store.setDescription(input.resourceUrn, input.description, actor.urn);
    return true;
  };
}

/** The GraphQL face of tags for entity-wide queries (`searchAcrossEntities`): `Tag` objects by urn. */
export function tagFace(store: TagStore): EntityFace {
  return async (urns) => new Map([...(await store.getMany(urns))].map(([urn, tag]) => [urn, toGraphQLTag(tag)]));
}
