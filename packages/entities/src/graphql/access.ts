import type { ApiContext, EntityParent, Resolvers } from '@mds/schema';
import { isJsonObject } from '@mds/core';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { refWithKey, type Loaders } from './common-fields';
import { entityTypeResolvers, fieldResolvers, type EntityMapping } from './mapping/declare';
import { rootQuery } from './root-queries';

/** The users an `actors` aspect names (its `users[].user`). */
const provisionedUsers = (actors: Record<string, unknown> | undefined): string[] =>
  (Array.isArray(actors?.users) ? actors.users : []).flatMap((u) => (isJsonObject(u) && typeof u.user === 'string' ? [u.user] : []));

/**
 * External access roles and the assets' access to them (DataHub's RoleType, RoleMapper, AccessMapper and
 * IsAssignedToMeResolver): `Role` from its key, roleProperties and actors; `role(urn:)`; `isAssignedToMe` when the
 * caller is one of the role's provisioned users; `access` of datasets and containers, each association naming its role
 * and the asset it belongs to. A role an association names but that is not stored still answers its urn and id (the
 * key part of the urn), with no properties.
 */
export function accessResolvers(loaders: Loaders): Resolvers {
  const { access } = fieldResolvers(loaders, { access: COMMON_FIELDS.access }, { rules: COMMON_RULES, ref: refWithKey });
  const mapping: EntityMapping = {
    entity: 'role',
    fields: {
      id: (e) => e.parts[0],
      properties: 'roleProperties',
      actors: 'actors',
    },
    resolvers: {
      isAssignedToMe: async (parent: EntityParent, _args: never, context: ApiContext) => {
        const actors = (await loaders(context).aspects(parent.urn))?.get('actors')?.value;
        return provisionedUsers(actors).includes(context.actor.urn);
      },
    },
  };
  return {
    ...entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey }),
    Query: { role: rootQuery(loaders, 'role') },
    Dataset: { access },
    Container: { access },
  };
}
