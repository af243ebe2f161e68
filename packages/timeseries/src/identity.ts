import { hash } from 'node:crypto';
import type { PartitionSpecDocument } from './port.ts';

/**
 * A document's identity, computed like DataHub's TimeseriesAspectTransformer.getDocId (its SHA-256 variant): the
 * JSON texts of timestampMillis, eventGranularity, urn, messageId and partitionSpec, concatenated, hashed. The same
 * aspect value ingested twice lands on the same id, so the second write overwrites the first.
 */
export function documentId(doc: {
  timestampMillis: number;
  eventGranularity: string | null;
  urn: string;
  messageId: string | null;
  partitionSpec: PartitionSpecDocument | null;
}): string {
  let source = String(doc.timestampMillis);
  if (doc.eventGranularity !== null) source += JSON.stringify(doc.eventGranularity);
  source += JSON.stringify(doc.urn);
  if (doc.messageId !== null) source += JSON.stringify(doc.messageId);
  if (doc.partitionSpec !== null) source += JSON.stringify(doc.partitionSpec);
  return hash('sha256', source, 'hex'); // one-shot: computed for every ingested document
}
