import { isJsonObject } from '@mds/core';
import type { Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { entityOfUrn } from './catalog';
import type { Loaders } from './common-fields';
import { graphqlReader } from './mutation-support';
import { scopedScroll, type EntitySearcher } from './search';

/** The search field DataHub indexes a `siblings` aspect's urns under (Siblings.pdl's @Searchable). */
const SIBLINGS_FIELD = 'siblings';

/**
 * A dataset's siblings (DataHub's SiblingsMapper, its SiblingProperties.siblings batch load and SiblingsSearchResolver):
 * `siblings` shows the stored aspect, each sibling answered through its type's face as any urn of the request is (a
 * sibling that is not stored answers with what its urn says, as DataHub's loaders answer the key alone), leaving out
 * those the caller may not view when VIEW_AUTHORIZATION_ENABLED is on; `siblingsSearch` is the one scroll search,
 * restricted to the entities whose `siblings` name this one.
 */
export function siblingResolvers(service: EntityService, loaders: Loaders, searchEntities: EntitySearcher): Resolvers {
  const sibling = entityOfUrn(loaders);

  return {
    Dataset: {
      siblings: async (parent, _args, context) => {
        const stored = (await loaders(context).aspects(parent.urn))?.get('siblings')?.value;
        if (!isJsonObject(stored)) return null;
        const urns = Array.isArray(stored.siblings) ? stored.siblings.filter((s): s is string => typeof s === 'string') : [];
        const shown = await graphqlReader(service, context.actor).viewable(urns);
        return {
          isPrimary: typeof stored.primary === 'boolean' ? stored.primary : null,
          siblings: await Promise.all(shown.map((urn) => sibling(urn, context))),
        };
      },
      siblingsSearch: scopedScroll(searchEntities, SIBLINGS_FIELD),
    },
  };
}
