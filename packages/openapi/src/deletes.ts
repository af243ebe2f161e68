import { Privilege, requirePrivilege } from '@mds/auth';
import type { EntitySpec } from '@mds/core';
import { notFound, type Actor } from '@mds/schema';
import { isTimeseries, latestPoint, type Stores } from './entity-object';
import { ENTITY_PATH } from './reads';
import { aspectNamed, aspectsAsked, entityNamed, flag, list, unknownAspect, urnOf } from './request';
import type { OpenApiRoute } from './route';

/** Deletes need DELETE_ENTITY (entities-api §11), refused with DataHub's OpenAPI text. */
export const canDelete = (actor: Actor) =>
  requirePrivilege(actor, [Privilege.DELETE_ENTITY], `${actor.urn} is unauthorized to DELETE entities.`);

/** DataHub answers a delete with an empty 200, whether or not there was anything to delete. */
const deleted = { status: 200 };

/** Hard delete: every row of the urn and its time-series points. */
export async function hardDelete(stores: Stores, urn: string, entity: EntitySpec) {
  await stores.store.deleteEntity(urn);
  await stores.timeseries?.deleteEntity({ urn, entityType: entity.name });
}

/** DELETE of entities and aspects (entities-api §8, §3.5). */
export function deleteRoutes(stores: Stores): OpenApiRoute[] {
  /** Versioned aspects with all their versions; time-series ones all their points. */
  const deleteAspects = async (urn: string, entity: EntitySpec, aspects: readonly string[]) => {
    await stores.store.deleteAspects(
      urn,
      aspects.filter((aspect) => !isTimeseries(aspect)),
    );
    for (const aspect of aspects.filter(isTimeseries)) await deletePoints(urn, entity, aspect);
  };
  const deleteEntity = (urn: string, entity: EntitySpec) => hardDelete(stores, urn, entity);
  const deletePoints = (urn: string, entity: EntitySpec, aspect: string, at?: number) =>
    stores.timeseries?.deleteEntity({ urn, entityType: entity.name, aspectName: aspect, startTimeMillis: at, endTimeMillis: at });

  return [
    {
      method: 'DELETE',
      path: `${ENTITY_PATH}/{entityName}/{urn}`,
      async respond({ actor }, { params, query }) {
        const entity = entityNamed(params.entityName!);
        const urn = urnOf(params.urn!, entity);
        // `clear` keeps the key (the entity) and deletes every other aspect; `aspects` only those named.
        const clear = flag(query, 'clear', false);
        const aspects = clear ? entity.aspects.filter((a) => a !== entity.keyAspect) : aspectsAsked(entity, list(query, 'aspects'));
        canDelete(actor);
        if (aspects.length === 0 || aspects.includes(entity.keyAspect)) {
          await deleteEntity(urn, entity);
          return deleted;
        }
        await deleteAspects(urn, entity, aspects);
        return deleted;
      },
    },
    {
      method: 'DELETE',
      path: `${ENTITY_PATH}/{entityName}/{urn}/{aspect}`,
      async respond({ actor }, { params }) {
        const entity = entityNamed(params.entityName!);
        const urn = urnOf(params.urn!, entity);
        const aspect = aspectNamed(entity, params.aspect!);
        if (!aspect) throw notFound(unknownAspect(entity, params.aspect!));
        canDelete(actor);
        if (aspect === entity.keyAspect) {
          await deleteEntity(urn, entity);
          return deleted;
        }
        if (!isTimeseries(aspect)) {
          await stores.store.deleteAspects(urn, [aspect]);
          return deleted;
        }
        // A time-series aspect: its newest point only, as DataHub does.
        const point = await latestPoint(stores, urn, entity, aspect);
        if (point) await deletePoints(urn, entity, aspect, point.timestampMillis);
        return deleted;
      },
    },
  ];
}
