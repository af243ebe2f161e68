import { Privilege } from '@mds/auth';
import { ApiError, forbidden, type Actor } from '@mds/schema';
import { ItemWriteError, type AspectStore, type AspectWrite } from './aspect-store';
import { parseProposal, type ParsedProposal, type ProposalPlace } from './proposals';

/**
 * The time-series store's side of ingestion (@mds/timeseries provides it): the proposals whose aspect is a
 * time-series one are handed over as sent, all checked (`prepare`) before any is written (`write`).
 */
export interface TimeseriesIngestPort<Document = unknown> {
  /** Whether `aspectName` is a time-series aspect of `entityType` (both matched case-insensitively). */
  accepts(entityType: string, aspectName: string): boolean;
  /** The document to index for the proposal, or a 400 naming the parameter at fault. */
  prepare(proposal: unknown, place: ProposalPlace): Document;
  /** Writes prepared documents all or nothing, where the backend allows it. */
  write(documents: readonly Document[]): Promise<void>;
  /** One entity's points, of one aspect or of every one its type has, in an inclusive window (open when absent). */
  deleteEntity(request: {
    urn: string;
    entityType: string;
    aspectName?: string;
    startTimeMillis?: number;
    endTimeMillis?: number;
  }): Promise<number>;
  /** The newest point of one entity's time-series aspect, if any (`/entitiesV2` answers it as a TIMESERIES aspect). */
  latest(request: { urn: string; entityType: string; aspectName: string }): Promise<LatestPoint | undefined>;
}

export interface LatestPoint {
  timestampMillis: number;
  value: unknown;
  systemMetadata: unknown;
}

/** What an ingestion did, item by item summed up (the CLI prints it). */
export interface IngestSummary {
  /** New aspect versions (and time-series points) written. */
  written: number;
  /** Items equal to the stored value: only their systemMetadata moved. */
  unchanged: number;
  /** Conditional items that did nothing (`If-None-Match: *` on an existing aspect). */
  skipped: number;
}

export interface PlacedProposal {
  proposal: unknown;
  place: ProposalPlace;
}

/** Names the item of a batch an error is about, unless the error already does (`Parameter 'proposals.3...`). */
function naming(error: unknown, place: ProposalPlace, batch: boolean): unknown {
  if (!batch || !(error instanceof ApiError) || error.message.includes(`'${place.path}`)) return error;
  return new ApiError(error.kind, `${place.path}: ${error.message}`);
}

/**
 * MetadataChangeProposals in, versioned aspects to the aspect store and time-series ones to the time-series store.
 * Every item is checked before anything is written, and the versioned ones are written in one transaction: a batch
 * with one bad item answers that item's error, naming its place, and writes nothing.
 */
export function createIngestion(options: { store: AspectStore; timeseries?: TimeseriesIngestPort; now?: () => number }) {
  const { store, timeseries } = options;
  const now = options.now ?? Date.now;
  const isTimeseries = (entityType: string, aspectName: string) => timeseries?.accepts(entityType, aspectName) ?? false;

  return {
    /**
     * Ingests `proposals` (MCPs), each with its place in the request. In a `batch`, errors are prefixed with the
     * failing item's place.
     */
    async ingest(proposals: readonly PlacedProposal[], actor: Actor, batch: boolean): Promise<IngestSummary> {
      const placeOf = (index: number) => proposals[index]!.place;
      const parsed: ParsedProposal[] = proposals.map(({ proposal, place }) => {
        try {
          return parseProposal(proposal, place, isTimeseries);
        } catch (error) {
          throw naming(error, place, batch);
        }
      });
      authorizeEdit(
        actor,
        parsed.map((p) => p.urn),
      );

      const documents: unknown[] = [];
      const writes: { index: number; write: AspectWrite }[] = [];
      for (const [index, item] of parsed.entries()) {
        if (item.kind === 'timeseries') {
          try {
            documents.push(timeseries!.prepare(item.proposal, placeOf(index)));
          } catch (error) {
            throw naming(error, placeOf(index), batch);
          }
          continue;
        }
        const { urn, entity, aspect, changeType, value, systemMetadata, headers } = item;
        writes.push({ index, write: { urn, entityType: entity.name, aspect, changeType, value, systemMetadata, headers } });
      }

      const summary: IngestSummary = { written: documents.length, unchanged: 0, skipped: 0 };
      if (writes.length) {
        try {
          const results = await store.write(
            writes.map((w) => w.write),
            { actor: actor.urn, time: now() },
          );
          for (const { outcome } of results) summary[outcome]++;
        } catch (error) {
          if (!(error instanceof ItemWriteError)) throw error;
          const index = writes[error.index]!.index;
          throw naming(error.error, placeOf(index), batch);
        }
      }
      if (documents.length) await timeseries!.write(documents);
      return summary;
    },
  };
}
export type Ingestion = ReturnType<typeof createIngestion>;

/** Whether `actor` could ingest anything at all: the ingestion actions' `admit`, asked before their bodies are read. */
export const mayIngest = (actor: Actor): boolean => actor.privileges.has(Privilege.EDIT_ENTITY);

/** Rest.li writes need EDIT_ENTITY on every URN written (entities-api §11); the 403 names each of them. */
export function authorizeEdit(actor: Actor, urns: readonly string[]): void {
  if (mayIngest(actor)) return;
  const refused = [...new Set(urns)].map((urn) => `HttpStatus: 403 Urn: ${urn}`).join(', ');
  throw forbidden(`User ${actor.urn} is unauthorized to modify entity: ${refused}`);
}
