import { Privilege, requirePrivilege } from '@mds/auth';
import type { EntitySpec } from '@mds/core';
import { badRequest, notFound, type Actor } from '@mds/schema';
import { isTimeseries, latestPoint, type Stores } from './entity-object';
import { ENTITY_PATH } from './reads';
import { aspectNamed, aspectsAsked, entityNamed, flag, list, unknownAspect, urnOf } from './request';
import type { OpenApiRoute } from './route';

/** Deletes need DELETE_ENTITY (entities-api §11), refused with DataHub's OpenAPI text. */
const canDelete = (actor: Actor) => requirePrivilege(actor, [Privilege.DELETE_ENTITY], `${actor.urn} is unauthorized to DELETE entities.`);

/** DataHub answers a delete with an empty 200, whether or not there was anything to delete. */
const deleted = { status: 200 };


/** DELETE of entities and aspects (entities-api §8, §3.5). */
export function deleteRoutes(stores: Stores): OpenApiRoute[] {
  /**
   * The aspect store deletes whole entities only (AspectStore.deleteEntity): a stored versioned aspect cannot go
   * alone yet. Refused before anything is deleted, with the text DataHub's Rest.li delete gives such a request (§7.4).
   */
  const refuseVersioned = async (urn: string, aspects: readonly string[]) => {
    const versioned = aspects.filter((aspect) => !isTimeseries(aspect));
    const stored = versioned.length ? [...((await stores.store.latest([urn], versioned)).get(urn)?.keys() ?? [])] : [];
    if (stored.length === 0) return;
    throw badRequest(
      `Not supported for non-timeseries aspect ${stored.join(', ')}. Delete the whole entity, or soft-delete it with the status aspect {"removed": true}.`,
    );
  };
  /** Hard delete: every row of the urn and its time-series points. */
  const deleteEntity = async (urn: string, entity: EntitySpec) => {
    await stores.store.deleteEntity(urn);
    await stores.timeseries?.deleteEntity({ urn, entityType: entity.name });
  };
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
        await refuseVersioned(urn, aspects);
        for (const aspect of aspects) await deletePoints(urn, entity, aspect);
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
        await refuseVersioned(urn, [aspect]);
        // A time-series aspect: its newest point only, as DataHub does.
        const point = await latestPoint(stores, urn, entity, aspect);
        if (point) await deletePoints(urn, entity, aspect, point.timestampMillis);
        return deleted;
      },
    },
  ];
}
