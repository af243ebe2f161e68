import {
  JsonNestingError,
  MAX_JSON_NESTING as MAX_NESTING,
  aspectSpec,
  isJsonObject,
  nestedDeeperThan,
  parseJsonWithin,
  validateAspect,
} from '@mds/core';
import { badRequest, unprocessable } from '@mds/schema';
import { z } from 'zod';
import { documentId } from './identity.ts';
import type { PartitionSpecDocument, TimeseriesDocument } from './port.ts';
import { findEntityType, indexName, resolveAspect } from './registry.ts';

/**
 * DataHub's MetadataChangeProposal, as far as its shape goes (spec 6). Fields DataHub has and time-series
 * ingestion does not use (auditHeader, entityKeyAspect, headers) are accepted and ignored.
 */
export const proposalSchema = z.object({
  entityType: z.string(),
  entityUrn: z.string(),
  changeType: z.string(),
  aspectName: z.string(),
  aspect: z.object({
    contentType: z.string().optional(),
    value: z.string(),
  }),
  systemMetadata: z.record(z.string(), z.unknown()).nullish(),
});

export type Proposal = z.infer<typeof proposalSchema>;

const ACCEPTED_CHANGE_TYPES = ['UPSERT'];

/** The rule a proposal broke, naming the parameter the way parseActionParams does. */
function invalid(action: string, path: string, rule: string): never {
  throw badRequest(`Parameter '${path}' of action '${action}': ${rule}`);
}

/**
 * Validates one proposal and turns it into the document DataHub would index. `path` names the proposal in
 * messages (`proposal`, or `proposals.3` in a batch).
 */
export function toDocument(proposal: Proposal, where: { action: string; path: string; indexPrefix: string }): TimeseriesDocument {
  const { action, path } = where;
  if (!ACCEPTED_CHANGE_TYPES.includes(proposal.changeType)) {
    invalid(
      action,
      `${path}.changeType`,
      `'${proposal.changeType}' is not accepted for time-series aspects (accepted: ${ACCEPTED_CHANGE_TYPES.join(', ')})`,
    );
  }
  const resolved = resolveAspect(proposal.entityType, proposal.aspectName);
  if (!resolved.ok) {
    invalid(action, `${path}.${resolved.field === 'entityType' ? 'entityType' : 'aspectName'}`, resolved.reason);
  }
  const { ref } = resolved;

  const urnType = /^urn:li:([A-Za-z0-9]+):./.exec(proposal.entityUrn)?.[1];
  if (!urnType || findEntityType(urnType) !== ref.entityType) {
    invalid(
      action,
      `${path}.entityUrn`,
      `'${proposal.entityUrn}' is not an urn of entity type '${ref.entityType}' (urn:li:${ref.entityType}:...)`,
    );
  }
  const contentType = proposal.aspect.contentType;
  if (contentType !== undefined && !/^application\/json\s*(;.*)?$/i.test(contentType)) {
    invalid(action, `${path}.aspect.contentType`, `'${contentType}' is not supported (accepted: application/json)`);
  }

  const valuePath = `${path}.aspect.value`;
  let value: unknown;
  try {
    // The depth is read from the text before it is parsed: a megabyte of `[[[[…` is refused without building it.
    value = parseJsonWithin(proposal.aspect.value, MAX_NESTING);
  } catch (error) {
    if (error instanceof JsonNestingError) invalid(action, valuePath, error.message);
    invalid(action, valuePath, `must be the JSON text of an object (${(error as Error).message})`);
  }
  if (!isJsonObject(value)) invalid(action, valuePath, 'must be the JSON text of an object');
  if (nestedDeeperThan(proposal.systemMetadata, MAX_NESTING)) {
    invalid(action, `${path}.systemMetadata`, `is nested more than ${MAX_NESTING} levels deep`);
  }

  const timestampMillis = value.timestampMillis;
  if (timestampMillis === undefined || timestampMillis === null) {
    invalid(action, valuePath, 'has no timestampMillis (every time-series aspect value needs one)');
  }
  if (typeof timestampMillis !== 'number' || !Number.isSafeInteger(timestampMillis)) {
    invalid(action, `${valuePath}.timestampMillis`, 'must be an integer (epoch milliseconds)');
  }

  const eventGranularity = value.eventGranularity ?? null;
  if (eventGranularity !== null && !isJsonObject(eventGranularity)) {
    invalid(action, `${valuePath}.eventGranularity`, 'must be an object ({unit, multiple})');
  }
  const messageId = value.messageId ?? null;
  if (messageId !== null && typeof messageId !== 'string') {
    invalid(action, `${valuePath}.messageId`, 'must be a string');
  }
  const partitionSpec = partitionDocument(value.partitionSpec ?? null, (rule) => invalid(action, `${valuePath}.partitionSpec`, rule));

  checkValue(ref.aspectName, value);

  const systemMetadata = proposal.systemMetadata ?? null;
  const runId = typeof systemMetadata?.runId === 'string' ? systemMetadata.runId : null;
  const identity = {
    timestampMillis,
    eventGranularity: eventGranularity === null ? null : JSON.stringify(eventGranularity),
    urn: proposal.entityUrn,
    messageId,
    partitionSpec,
  };
  return {
    index: indexName(where.indexPrefix, ref),
    id: documentId(identity),
    ...identity,
    runId,
    eventJson: proposal.aspect.value,
    systemMetadataJson: systemMetadata === null ? null : JSON.stringify(systemMetadata),
  };
}

/** JavaScript's dates reach 8.64e15 ms either side of the epoch; a point outside cannot be shown or compared as one. */
const MAX_DATE_MILLIS = 8_640_000_000_000_000;

/**
 * The value checked as a versioned aspect's is (core's `validateAspect`: its schema, finite numbers, longs that are
 * integers), and its timestampMillis a date: a 422 naming each path at fault, in DataHub's words.
 */
function checkValue(aspectName: string, value: Record<string, unknown>): void {
  const problems = validateAspect(aspectName, value);
  const timestamp = value.timestampMillis as number;
  if (Math.abs(timestamp) > MAX_DATE_MILLIS) {
    problems.push(
      `ERROR :: /timestampMillis :: ${timestamp} is outside the range of a date (${MAX_DATE_MILLIS} ms either side of the epoch)`,
    );
  }
  if (problems.length === 0) return;
  throw unprocessable(`Failed to validate record with class ${aspectSpec(aspectName)!.pdlClass}: \n${problems.join('\n')}`);
}

/** DataHub indexes `{partition}` or `{timePartition: <JSON text>}`, and refuses both or neither. */
function partitionDocument(spec: unknown, fail: (rule: string) => never): PartitionSpecDocument | null {
  if (spec === null) return null;
  if (!isJsonObject(spec)) fail('must be an object ({partition} or {timePartition})');
  const partition = spec.partition ?? null;
  const timePartition = spec.timePartition ?? null;
  if (partition !== null && timePartition !== null) fail('cannot have both partition and timePartition');
  if (partition !== null) {
    if (typeof partition !== 'string') fail('partition must be a string');
    return { partition };
  }
  if (timePartition !== null) {
    if (!isJsonObject(timePartition)) fail('timePartition must be an object ({startTimeMillis, length})');
    return { timePartition: JSON.stringify(timePartition) };
  }
  return fail('needs partition or timePartition');
}
