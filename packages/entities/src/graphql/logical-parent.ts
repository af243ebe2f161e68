import { isJsonObject } from '@mds/core';
import { badRequest, type Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { COMMON_RULES, schemaFieldParts } from './common';
import { refWithKey, urnArgument, type Loaders } from './common-fields';
import { fieldResolvers, type EntityScope } from './mapping/declare';
import { entityTypeOf, graphqlReader, writeAll } from './mutation-support';

/** The urn a stored logicalParent names (its Edge's destinationUrn). */
const parentOf = (entity: EntityScope) => {
  const parent = entity.value('logicalParent')?.parent;
  return isJsonObject(parent) ? parent.destinationUrn : undefined;
};

/**
 * `logicalParent` of datasets and schema fields (DatasetMapper, SchemaFieldMapper: the entity the edge points to,
 * stored or not) and `setLogicalParent` (SetLogicalParentResolver: the edge stamped with the caller and the time, or
 * no edge when no parent is given). DataHub's resolver asks no privilege; here the caller needs EDIT_ENTITY on the
 * resource, and the resource must exist (a schema field: its dataset; DataHub would create it), so that a stray urn
 * writes nothing.
 */
export function logicalParentResolvers(service: EntityService, loaders: Loaders, now: () => number): Resolvers {
  const logicalParent = fieldResolvers(loaders, { logicalParent: parentOf }, { rules: COMMON_RULES, ref: refWithKey });
  return {
    Dataset: logicalParent,
    SchemaFieldEntity: logicalParent,
    Mutation: {
      setLogicalParent: async (_parent, { input }, { actor }) => {
        const { resourceUrn, parentUrn } = input;
        urnArgument(resourceUrn);
        if (parentUrn) urnArgument(parentUrn);
        const grant = await service.authorizeEdit(actor, [resourceUrn], []);
        // A schema field exists when its dataset does (its own entity is stored only once something is written on it).
        const owner = schemaFieldParts(resourceUrn)?.[0] ?? resourceUrn;
        if (!(await entityTypeOf(graphqlReader(service, actor), owner)))
          throw badRequest(`Failed to set Logical Parent on entity ${resourceUrn}. Entity does not exist.`);
        const stamp = { time: now(), actor: actor.urn };
        const value = parentUrn ? { parent: { destinationUrn: parentUrn, created: stamp, lastModified: stamp } } : {};
        return writeAll(service, grant, [{ urn: resourceUrn, aspect: 'logicalParent', changeType: 'UPSERT', value }]);
      },
    },
  };
}
