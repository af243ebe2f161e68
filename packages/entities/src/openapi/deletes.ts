import { notFound, type Actor } from '@mds/schema';
import type { EntityService, Grant } from '../service';
import { isTimeseries } from './entity-object';
import { ENTITY_PATH, readerOf } from './reads';
import { aspectNamed, aspectsAsked, entityNamed, flag, list, unknownAspect, urnOf } from './request';
import type { OpenApiRoute } from './route';

/** A grant to delete `urns` (DELETE_ENTITY, entities-api §11), refused with DataHub's OpenAPI text. */
export const authorizeDelete = (service: EntityService, actor: Actor, urns: readonly string[]) =>
  service.authorizeRest(actor, 'DELETE', urns, `${actor.urn} is unauthorized to DELETE entities.`);

/** DataHub answers a delete with an empty 200, whether or not there was anything to delete. */
const deleted = { status: 200 };

/** DELETE of entities and aspects (entities-api §8, §3.5). */
export function deleteRoutes(service: EntityService): OpenApiRoute[] {
  const deleteEntity = async (grant: Grant, urn: string) => void (await service.deleteEntity(grant, urn));

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
        const grant = await authorizeDelete(service, actor, [urn]);
        if (aspects.length === 0 || aspects.includes(entity.keyAspect)) await deleteEntity(grant, urn);
        else await service.deleteAspects(grant, urn, entity, aspects);
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
        const grant = await authorizeDelete(service, actor, [urn]);
        if (aspect === entity.keyAspect) await deleteEntity(grant, urn);
        else if (!isTimeseries(aspect)) await service.deleteAspects(grant, urn, entity, [aspect]);
        else {
          // A time-series aspect: its newest point only, as DataHub does.
          const point = await readerOf(service, actor).point(urn, entity.name, aspect);
          const at = point?.timestampMillis;
          if (point)
            await service.deletePoints(grant, { urn, entityType: entity.name, aspectName: aspect, startTimeMillis: at, endTimeMillis: at });
        }
        return deleted;
      },
    },
  ];
}
