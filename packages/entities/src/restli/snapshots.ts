import { aspectOfClass, entityAspect, entityOfSnapshotClass, isJsonObject } from '@mds/core';
import { badRequest, unprocessable } from '@mds/schema';
import type { StoredAspect } from '../service';
import type { PlacedProposal } from '../service';

/** The one key of a union value (`{"<class>": {...}}`), or a 400 naming where the union should have been. */
function unionMember(value: unknown, where: string): [string, unknown] {
  if (!isJsonObject(value) || Object.keys(value).length !== 1) throw badRequest(`${where} must be an object with one key, the class name`);
  return Object.entries(value)[0]!;
}

/**
 * An MCE snapshot (`{"com.linkedin.metadata.snapshot.DatasetSnapshot": {urn, aspects: [{"<class>": value}]}}`, in
 * Pegasus or Avro spelling) as one UPSERT proposal per aspect, in order (entities-api §6.8).
 */
export function snapshotProposals(snapshot: unknown, systemMetadata: unknown, path: { action: string; path: string }): PlacedProposal[] {
  const [snapshotClass, body] = unionMember(snapshot, `Parameter '${path.path}' of action '${path.action}'`);
  const entity = entityOfSnapshotClass(snapshotClass);
  if (!entity) throw unprocessable(`Unknown snapshot class ${snapshotClass}`);
  if (!isJsonObject(body) || typeof body.urn !== 'string' || !Array.isArray(body.aspects)) {
    throw badRequest(`Parameter '${path.path}' of action '${path.action}': a snapshot needs urn and aspects`);
  }
  return body.aspects.map((wrapped, i) => {
    const place = { action: path.action, path: `${path.path}.aspects.${i}` };
    const [aspectClass, value] = unionMember(wrapped, `Parameter '${place.path}' of action '${place.action}'`);
    const aspect = aspectOfClass(aspectClass);
    if (!aspect || !entityAspect(entity, aspect.name)) throw unprocessable(`Unknown aspect ${aspectClass} for entity ${entity.name}`);
    const proposal = {
      entityType: entity.name,
      entityUrn: body.urn,
      changeType: 'UPSERT',
      aspectName: aspect.name,
      aspect: { contentType: 'application/json', value: JSON.stringify(value) },
      systemMetadata: systemMetadata ?? null,
    };
    return { proposal, place };
  });
}

/** The snapshot of an entity's stored aspects, each wrapped by its class (`GET /entities/{urn}`, entities-api §7.3). */
export function toSnapshot(snapshotClass: string, urn: string, aspects: Iterable<StoredAspect>, classOf: (aspect: string) => string) {
  return { [snapshotClass]: { urn, aspects: [...aspects].map((a) => ({ [classOf(a.aspect)]: a.value })) } };
}
