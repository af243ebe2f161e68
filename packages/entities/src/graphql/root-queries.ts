import type { ApiContext, EntityParent } from '@mds/schema';
import { urnArgument, type Loaders } from './common-fields';
import { storedEntity } from './mapping/declare';

/**
 * A root query of one declared entity type (`mlModel(urn:)`, `test(urn:)`): the stored entity of the urn; null when
 * it is not stored or the urn is of another type (as DataHub answers); a 400 for a malformed urn.
 */
export const rootQuery =
  (loaders: Loaders, entity: string) =>
  (_parent: unknown, { urn }: { urn: string }, context: ApiContext): Promise<EntityParent | null> | null =>
    urnArgument(urn).entityType === entity ? storedEntity(loaders, urn, context) : null;
