import { aspectSpec, type EntitySpec } from '@mds/core';
import type { EntityReader, LatestPoint, StoredAspect } from '../service';

/** DataHub's GenericEntityV3: the urn, then each aspect by name as `{value, systemMetadata?, auditStamp?}`. */
export type EntityObject = { urn: string } & Record<string, unknown>;

/** One entity to read: which aspects (undefined: every stored versioned one), time-series ones only when named. */
export interface EntityRead {
  urn: string;
  entity: EntitySpec;
  aspects?: readonly string[];
}

/** One stored version as an aspect item; systemMetadata and the audit stamp only when asked (`systemMetadata=true`). */
export function aspectItem(stored: StoredAspect, withSystemMetadata: boolean) {
  if (!withSystemMetadata) return { value: stored.value };
  return {
    value: stored.value,
    systemMetadata: stored.systemMetadata ?? {},
    auditStamp: { time: stored.createdOn, actor: stored.createdBy },
  };
}

function pointItem(point: LatestPoint, withSystemMetadata: boolean) {
  return withSystemMetadata && point.systemMetadata ? { value: point.value, systemMetadata: point.systemMetadata } : { value: point.value };
}

export const isTimeseries = (aspect: string) => aspectSpec(aspect)?.kind === 'timeseries';

/**
 * The entity objects of those `reads` whose entity exists (its key aspect is stored), in order: the key aspect
 * always, then the aspects asked for in registry order. Versioned aspects come in one read of the entity service.
 */
export async function readEntities(
  reader: EntityReader,
  reads: readonly EntityRead[],
  withSystemMetadata: boolean,
): Promise<EntityObject[]> {
  const everything = reads.some((r) => r.aspects === undefined);
  const versioned = everything
    ? undefined
    : [...new Set(reads.flatMap((r) => [r.entity.keyAspect, ...r.aspects!.filter((a) => !isTimeseries(a))]))];
  const stored = await reader.latest([...new Set(reads.map((r) => r.urn))], versioned);
  const objects = reads.map(async ({ urn, entity, aspects }) => {
    const found = stored.get(urn);
    if (!found?.has(entity.keyAspect)) return undefined;
    const object: EntityObject = { urn };
    const wanted = new Set([entity.keyAspect, ...(aspects ?? found.keys())]);
    for (const aspect of entity.aspects) {
      if (!wanted.has(aspect)) continue;
      if (isTimeseries(aspect)) {
        const point = await reader.point(urn, entity.name, aspect);
        if (point) object[aspect] = pointItem(point, withSystemMetadata);
        continue;
      }
      const value = found.get(aspect);
      if (value) object[aspect] = aspectItem(value, withSystemMetadata);
    }
    return object;
  });
  return (await Promise.all(objects)).filter((o): o is EntityObject => o !== undefined);
}

/** One aspect of one entity as an item: a version of a versioned aspect, or the newest point of a time-series one. */
export async function readAspect(
  reader: EntityReader,
  target: { urn: string; entity: EntitySpec; aspect: string },
  version: number,
  withSystemMetadata: boolean,
) {
  const { urn, entity, aspect } = target;
  if (isTimeseries(aspect)) {
    const point = await reader.point(urn, entity.name, aspect);
    return point && pointItem(point, withSystemMetadata);
  }
  const stored = await reader.get(urn, aspect, version);
  return stored && aspectItem(stored, withSystemMetadata);
}
