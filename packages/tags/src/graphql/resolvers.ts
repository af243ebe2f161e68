import { whenReady } from '@mds/core';
import type { DescriptionHandler, EntityFace } from '@mds/entities';
import { badRequest, type Resolvers } from '@mds/schema';
import type { TagService } from '../service';
import { parseTagUrn } from '../urn';
import { toGraphQLTag } from './to-graphql';

/**
 * The GraphQL face of the tag service: DataHub's argument shapes and result shapes. The service asks the entity
 * service's policy for each change's privileges. Each mutation answers once its write is durable (the aspect
 * store's transactions share commits under load).
 */
export function createTagResolvers(tags: TagService): Resolvers {
  return {
    Query: {
      // Reads need only an authenticated actor, which the host guarantees before any resolver runs.
      // Synchronous when the tag is cached: graphql-js then completes the answer without a promise.
      tag: (_parent, { urn }) => whenReady(tags.get(urn), (tag) => tag && toGraphQLTag(tag)),
    },
    Mutation: {
      createTag: async (_parent, { input }, { actor }) => (await tags.create(input, actor)).urn,
      updateTag: async (_parent, { urn, input }, { actor }) => {
        if (input.urn !== urn) throw badRequest(`'input.urn' must equal the 'urn' argument`);
        const changes = { name: input.name, description: input.description, ownership: input.ownership };
        return toGraphQLTag(await tags.update(urn, changes, actor));
      },
      deleteTag: async (_parent, { urn }, { actor }) => {
        await tags.delete(urn, actor);
        return true;
      },
      setTagColor: async (_parent, { urn, colorHex }, { actor }) => {
        await tags.setColor(urn, colorHex, actor);
        return true;
      },
    },
  };
}

/** updateDescription of a tag (@mds/entities hands tags to it): tags have no sub-resources. */
export function describeTag(tags: TagService): DescriptionHandler {
  return async (input, actor) => {
    parseTagUrn(input.resourceUrn, 'resourceUrn');
    if (input.subResourceType != null || input.subResource != null) {
      throw badRequest(`'subResourceType' and 'subResource' must be absent: tags have no sub-resources`);
    }
    await tags.setDescription(input.resourceUrn, input.description, actor);
    return true;
  };
}

/** The GraphQL face of tags for entity-wide queries (`searchAcrossEntities`): `Tag` objects by urn. */
export function tagFace(tags: TagService): EntityFace {
  return async (urns) => new Map([...(await tags.getMany(urns))].map(([urn, tag]) => [urn, toGraphQLTag(tag)]));
}
