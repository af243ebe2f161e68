import {
  MAX_JSON_NESTING,
  JsonNestingError,
  parseJsonWithin,
  UrnError,
  aspectSpec,
  entityAspect,
  findEntity,
  keyAspectValue,
  nestedDeeperThan,
  parseUrn,
  parseEntityUrn,
  urnFromKeyAspect,
  validateAspect,
  type EntitySpec,
  type Urn,
  isJsonObject,
} from '@mds/core';
import { ApiError, badRequest, unprocessable } from '@mds/schema';
import { supportsPatch } from '../model/patch';
import type { AspectWrite, ChangeType } from '../store/port';

/** Where a proposal sits in a request, for messages: `{action: 'ingestProposalBatch', path: 'proposals.3'}`. */
export interface ProposalPlace {
  action: string;
  path: string;
}

/** A MetadataChangeProposal of a versioned aspect, checked against the registry and its aspect's shape: a write to store. */
export interface VersionedProposal {
  kind: 'versioned';
  write: AspectWrite;
}

/**
 * A proposal of a time-series aspect: handed as sent to the time-series store, which checks the rest; the entity's
 * key aspect is stored first when the entity has none (DataHub's EntityServiceImpl does so), so the entity exists.
 */
export interface TimeseriesProposal {
  kind: 'timeseries';
  urn: string;
  key: AspectWrite['key'];
  proposal: Record<string, unknown>;
}

export type ParsedProposal = VersionedProposal | TimeseriesProposal;

const CHANGE_TYPES: readonly string[] = ['UPSERT', 'CREATE', 'CREATE_ENTITY', 'UPDATE', 'PATCH'];

/**
 * Checks one MCP (entities-api §6.3-6.5) and says where it goes. `isTimeseries` decides which aspects the time-series
 * store takes (its names are matched case-insensitively, as before this package owned ingestion).
 */
export function parseProposal(
  raw: unknown,
  place: ProposalPlace,
  isTimeseries: (entityType: string, aspectName: string) => boolean,
): ParsedProposal {
  const parameter = (name: string, rule: string) =>
    badRequest(`Parameter '${place.path}${name ? `.${name}` : ''}' of action '${place.action}': ${rule}`);
  if (!isJsonObject(raw)) throw parameter('', raw === undefined ? 'is required' : 'must be an object');
  const { entityType, changeType, aspectName } = raw;
  if (typeof entityType !== 'string') throw parameter('entityType', entityType === undefined ? 'is required' : 'must be a string');
  if (typeof changeType !== 'string') throw parameter('changeType', changeType === undefined ? 'is required' : 'must be a string');
  const entity = findEntity(entityType);
  if (!entity) throw unprocessable(`Unknown entity: ${entityType}`);
  // DELETE and RESTATE, which DataHub's MCP enum also has, are refused on ingestion (entities-api §6.4).
  if (!CHANGE_TYPES.includes(changeType)) throw badRequest(`ChangeType not supported: [${changeType}]`);

  const urn = urnOf(raw, entity, parameter);
  if (urn.entityType !== entity.name) {
    throw unprocessable(`URN entity type does not match MCP entity type. ${urn.entityType} != ${entityType}`);
  }
  if (aspectName === undefined || aspectName === null) throw badRequest('Aspect name is required for create and update operations');
  if (typeof aspectName !== 'string') throw parameter('aspectName', 'must be a string');

  const spec = entityAspect(entity, aspectName);
  if (spec?.kind !== 'versioned' && spec?.kind !== 'key' && isTimeseries(entity.name, aspectName)) {
    if (changeType !== 'UPSERT')
      throw unprocessable(`ChangeType ${changeType} is not supported for time-series aspect ${aspectName}: only UPSERT is`);
    return { kind: 'timeseries', urn: urn.text, key: keyOf(entity, urn), proposal: raw };
  }
  if (!spec || spec.kind === 'timeseries') throw unprocessable(`Unknown aspect ${aspectName} for entity ${entity.name}`);
  const key = keyOf(entity, urn);

  const value = aspectValue(raw.aspect, parameter);
  checkValue(aspectName, changeType, value);
  const systemMetadata = raw.systemMetadata ?? null;
  if (systemMetadata !== null && !isJsonObject(systemMetadata)) throw parameter('systemMetadata', 'must be an object');
  if (nestedDeeperThan(systemMetadata)) throw parameter('systemMetadata', `is nested more than ${MAX_JSON_NESTING} levels deep`);
  const headers = headersOf(raw.headers, parameter);
  return {
    kind: 'versioned',
    write: { urn: urn.text, key, aspect: aspectName, changeType: changeType as ChangeType, value, systemMetadata, headers },
  };
}

/**
 * An edit of a versioned aspect from a domain rule or a GraphQL mutation, checked as an ingested one is: the urn (400),
 * its entity and aspect (422), the value (422 `Failed to validate record with class ...`).
 */
export interface Edit {
  urn: string;
  aspect: string;
  changeType: ChangeType;
  /** The aspect value; for PATCH, the patch applied to the latest value inside the write. */
  value: unknown;
  /** `If-Version-Match` of a read-modify-write, `If-None-Match`. */
  headers?: Record<string, string>;
}

/** The write of an edit, after the checks every written value passes. */
export function checkedEdit(edit: Edit): AspectWrite {
  const urn = urnParameter(edit.urn);
  const entity = findEntity(urn.entityType);
  if (!entity) throw unprocessable(`Unknown entity: ${urn.entityType}`);
  const spec = entityAspect(entity, edit.aspect);
  if (!spec || spec.kind === 'timeseries') throw unprocessable(`Unknown aspect ${edit.aspect} for entity ${entity.name}`);
  checkValue(edit.aspect, edit.changeType, edit.value);
  return {
    urn: edit.urn,
    key: keyOf(entity, urn),
    aspect: edit.aspect,
    changeType: edit.changeType,
    value: edit.value,
    headers: edit.headers,
  };
}

/** A value that may be written as `changeType`: a patch of an aspect with a PATCH template, else a valid aspect value. */
function checkValue(aspectName: string, changeType: string, value: unknown): void {
  if (changeType === 'PATCH') {
    if (!supportsPatch(aspectName)) throw unprocessable(`Aspect: ${aspectName} does not currently support patch operations.`);
    return;
  }
  if (!isJsonObject(value)) throw badRequest('Failed to parse aspect value');
  assertValid(aspectName, value);
}

/** The entity's key aspect built from its parsed urn, or the 400 naming why it cannot be (entities-api §3.4, §4.1). */
export function keyOf(entity: EntitySpec, urn: Urn): AspectWrite['key'] {
  try {
    return { aspect: entity.keyAspect, value: keyAspectValue(entity, urn) };
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

/** DataHub's validation failure (entities-api §6.5): 422 with one `ERROR :: /path :: message` line per problem. */
export function assertValid(aspectName: string, value: unknown): void {
  const problems = validateAspect(aspectName, value);
  if (problems.length === 0) return;
  throw unprocessable(`Failed to validate record with class ${aspectSpec(aspectName)!.pdlClass}: \n${problems.join('\n')}`);
}

type ParameterError = (name: string, rule: string) => ApiError;

/** `entityUrn`, or the URN the `entityKeyAspect` names; either way parsed and checked (entities-api §4.1). */
function urnOf(raw: Record<string, unknown>, entity: EntitySpec, parameter: ParameterError) {
  let text = raw.entityUrn;
  if (text === undefined || text === null) {
    if (raw.entityKeyAspect === undefined || raw.entityKeyAspect === null) throw parameter('entityUrn', 'is required');
    const key = aspectValue(raw.entityKeyAspect, (name, rule) => parameter(`entityKeyAspect.${name}`, rule));
    if (!isJsonObject(key)) throw badRequest('Failed to parse aspect value');
    try {
      text = urnFromKeyAspect(entity, key);
    } catch (error) {
      throw badRequest((error as Error).message);
    }
  }
  if (typeof text !== 'string') throw parameter('entityUrn', 'must be a string');
  return urnParameter(text);
}

/** A URN from a request, or the 400 DataHub gives for one it cannot parse or refuses (entities-api §4.1). */
export function urnParameter(text: string) {
  try {
    return parseUrn(text);
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(error.message);
    throw error;
  }
}

/**
 * A URN a read or a delete names (Rest.li, OpenAPI, GraphQL, tags): ingestion's rule whole, `parseUrn`'s and the key's
 * (`parseEntityUrn`), so that nothing ingestion refuses is found, and nothing it accepts is refused. The 400 says
 * `Invalid urn: <urn>` and why.
 */
export function readUrnParameter(text: string) {
  try {
    return parseEntityUrn(text);
  } catch (error) {
    if (!(error instanceof UrnError)) throw error;
    throw badRequest(/^(Invalid urn|Error:)/.test(error.message) ? error.message : `Invalid urn: ${text}\n Cause: ${error.message}`);
  }
}

/** The parsed JSON of a GenericAspect (`{value: "<JSON text>", contentType}`); `{json: ...}` is a file format only. */
function aspectValue(aspect: unknown, parameter: ParameterError): unknown {
  if (aspect === undefined || aspect === null) throw parameter('aspect', 'is required');
  if (!isJsonObject(aspect)) throw parameter('aspect', 'must be an object');
  if (aspect.value === undefined) throw badRequest('Field "value" is required but it is not present');
  if (typeof aspect.value !== 'string') throw parameter('aspect.value', 'must be a string');
  // The depth is read from the text before it is parsed: a megabyte of `[[[[…` is refused without building it.
  try {
    return parseJsonWithin(aspect.value);
  } catch (error) {
    if (error instanceof JsonNestingError) throw parameter('aspect.value', error.message);
    throw badRequest('Failed to parse aspect value');
  }
}

function headersOf(headers: unknown, parameter: ParameterError): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (!isJsonObject(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
    throw parameter('headers', 'must be a map of strings');
  }
  return headers as Record<string, string>;
}
