import { aspectOfClass, isJsonObject, pegasusFromAvro } from '@mds/core';
import type { PlacedProposal } from './service/ports';
import { snapshotProposals } from './restli/snapshots';

/** The type names Avro's JSON encoding wraps union values in: `{"string": "text"}` is `"text"`. */
const AVRO_TYPES = new Set(['string', 'long', 'int', 'boolean', 'double', 'float', 'bytes', 'array', 'map']);
const AVRO_NAMESPACE = 'com.linkedin.pegasus2avro.';

/** Avro-encoded JSON (MCE files) as Pegasus JSON: union wrappers of primitives dropped, class names unprefixed. */
function fromAvro(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromAvro);
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && AVRO_TYPES.has(keys[0]!)) return fromAvro(value[keys[0]!]);
  return Object.fromEntries(
    keys.map((key) => [key.startsWith(AVRO_NAMESPACE) ? `com.linkedin.${key.slice(AVRO_NAMESPACE.length)}` : key, fromAvro(value[key])]),
  );
}

/** An aspect's value as its schema reads it in Pegasus JSON (unions written bare or in Avro's aliased form: @mds/core). */
function rewrapUnions(aspectClass: string, value: unknown): unknown {
  const aspect = aspectOfClass(aspectClass);
  return aspect ? pegasusFromAvro(aspect.name, value) : value;
}

/** An MCE snapshot of a file in Pegasus JSON, whichever encoding the file used (Avro's names its classes so). */
export function pegasusSnapshot(snapshot: unknown): unknown {
  const avro = isJsonObject(snapshot) && Object.keys(snapshot).some((key) => key.startsWith(AVRO_NAMESPACE));
  const plain = avro ? fromAvro(snapshot) : snapshot;
  if (!isJsonObject(plain)) return plain;
  return Object.fromEntries(
    Object.entries(plain).map(([snapshotClass, body]) => {
      if (!isJsonObject(body) || !Array.isArray(body.aspects)) return [snapshotClass, body];
      const aspects = body.aspects.map((wrapped) =>
        isJsonObject(wrapped) ? Object.fromEntries(Object.entries(wrapped).map(([cls, v]) => [cls, rewrapUnions(cls, v)])) : wrapped,
      );
      return [snapshotClass, { ...body, aspects }];
    }),
  );
}

/** `{json: value}` → `{value: "<JSON text>"}`: the file form of a GenericAspect in the wire form (entities-api §6.9). */
function wireAspect(aspect: unknown, patch: boolean): unknown {
  if (!isJsonObject(aspect) || aspect.json === undefined || aspect.value !== undefined) return aspect;
  const { json, ...rest } = aspect;
  return { contentType: patch ? 'application/json-patch+json' : 'application/json', ...rest, value: JSON.stringify(json) };
}

/**
 * One item of a DataHub JSON file (the `datahub ingest` file source, entities-api §6.9) as the proposals it carries:
 * an MCE (`proposedSnapshot`, in Avro's JSON or Pegasus's) gives one per aspect, an MCP itself, its `aspect.json` and
 * `entityKeyAspect.json` turned into the wire's `value` text. `where` names the item in messages (`file.json[3]`).
 */
export function fileItemProposals(item: unknown, where: string): PlacedProposal[] {
  const place = { action: 'ingest', path: where };
  if (isJsonObject(item) && item.proposedSnapshot !== undefined) {
    return snapshotProposals(pegasusSnapshot(item.proposedSnapshot), item.systemMetadata, {
      action: 'ingest',
      path: `${where}.proposedSnapshot`,
    });
  }
  if (!isJsonObject(item)) return [{ proposal: item, place }];
  const patch = item.changeType === 'PATCH';
  const proposal = {
    ...item,
    aspect: wireAspect(item.aspect, patch),
    ...(item.entityKeyAspect ? { entityKeyAspect: wireAspect(item.entityKeyAspect, false) } : {}),
  };
  return [{ proposal, place }];
}
