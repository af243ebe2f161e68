import { ApiError, forbidden, type Actor } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import type { OutboxEntry } from '../store/outbox';
import { ItemWriteError, type AspectStore, type AspectWrite } from '../store/port';
import type { Policy } from './policy';
import type { IngestSummary, PlacedProposal, ProposalPlace, TimeseriesIngestPort } from './ports';
import { assertValid, parseProposal, type ParsedProposal } from './proposals';

export interface IngestOptions {
  /** A batch names the failing item's place in its errors. */
  batch: boolean;
  /** The face's 403 text for the urns refused; by default DataHub's Rest.li text, which names each (entities-api §6.5). */
  denied?: (refused: readonly string[]) => string;
}

const modifyDenied = (actor: Actor) => (urns: readonly string[]) =>
  `User ${actor.urn} is unauthorized to modify entity: ${urns.map((urn) => `HttpStatus: 403 Urn: ${urn}`).join(', ')}`;

/** Names the item of a batch an error is about, unless the error already does (`Parameter 'proposals.3...`). */
function naming(error: unknown, place: ProposalPlace, batch: boolean): unknown {
  if (!batch || !(error instanceof ApiError) || error.message.includes(`'${place.path}`)) return error;
  return new ApiError(error.kind, `${place.path}: ${error.message}`);
}

/**
 * MetadataChangeProposals in (Rest.li and OpenAPI alike): each parsed and checked (entities-api §6.3-6.5, values
 * validated), then the caller authorized on every urn (REST_API_AUTHORIZATION_ENABLED: EDIT_ENTITY, as DataHub's
 * AuthUtil.isAPIAuthorized asks, which an owner holds on what it owns), then versioned aspects written in one
 * transaction and time-series ones handed to the time-series store. A batch with one bad item answers that item's
 * error, naming its place, and writes nothing.
 *
 * A batch of both kinds is one commit: its time-series points are queued in the outbox (store/outbox.ts) in the
 * transaction of its versioned rows, relayed to the time-series store before the answer, then dequeued. A crash
 * between the commit and the relay leaves them queued, and `relayOutbox` (run at start) writes them then.
 */
export function createIngest(options: { store: AspectStore; policy: Policy; timeseries?: TimeseriesIngestPort; now: () => number }) {
  const { store, policy, timeseries, now } = options;
  const isTimeseries = (entityType: string, aspectName: string) => timeseries?.accepts(entityType, aspectName) ?? false;

  async function authorize(actor: Actor, parsed: readonly ParsedProposal[], denied: NonNullable<IngestOptions['denied']>) {
    const creates = parsed.flatMap((p) => (p.kind === 'versioned' && p.write.changeType === 'CREATE_ENTITY' ? [p.write.urn] : []));
    const updates = parsed.flatMap((p) =>
      p.kind === 'versioned' ? (p.write.changeType === 'CREATE_ENTITY' ? [] : [p.write.urn]) : [p.urn],
    );
    const refused: string[] = [];
    for (const [urns, privileges] of [
      [updates, policy.restApi('UPDATE')],
      [creates, policy.restApi('CREATE')],
    ] as const) {
      if (privileges && urns.length) refused.push(...(await policy.refused(actor, privileges, urns)));
    }
    if (refused.length === 0) return;
    const refusedSet = new Set(refused);
    const urns = [...new Set(parsed.map((p) => (p.kind === 'versioned' ? p.write.urn : p.urn)))];
    throw forbidden(denied(urns.filter((urn) => refusedSet.has(urn))));
  }

  async function ingest(actor: Actor, proposals: readonly PlacedProposal[], options: IngestOptions): Promise<IngestSummary> {
    const { batch } = options;
    const placeOf = (index: number) => proposals[index]!.place;
    const parsed: ParsedProposal[] = proposals.map(({ proposal, place }) => {
      try {
        return parseProposal(proposal, place, isTimeseries);
      } catch (error) {
        throw naming(error, place, batch);
      }
    });
    await authorize(actor, parsed, options.denied ?? modifyDenied(actor));

    const documents: unknown[] = [];
    // `counted`: false for the key aspect written for a time-series point, which the summary does not report.
    const writes: { index: number; write: AspectWrite; counted: boolean }[] = [];
    for (const [index, item] of parsed.entries()) {
      if (item.kind === 'versioned') {
        writes.push({ index, write: item.write, counted: true });
        continue;
      }
      try {
        documents.push(timeseries!.prepare(item.proposal, placeOf(index)));
      } catch (error) {
        throw naming(error, placeOf(index), batch);
      }
      // A point of an entity that does not exist yet creates it: its key aspect is written (a no-op when it exists).
      const { urn, key } = item;
      writes.push({ index, write: { urn, key, aspect: key.aspect, changeType: 'UPSERT', value: key.value }, counted: false });
    }

    const summary: IngestSummary = { written: documents.length, unchanged: 0, skipped: 0 };
    // Points of a batch that also writes versioned rows go through the outbox; alone, they are one write already.
    // Ids sort in the batch's order, so a relay writes two points of one identity in the order they were sent.
    const batchId = randomUUID();
    const queued: OutboxEntry[] = writes.length
      ? documents.map((document, i) => ({ id: `${batchId}.${String(i).padStart(6, '0')}`, document: JSON.stringify(document) }))
      : [];
    if (writes.length) {
      try {
        const audit = { actor: actor.urn, time: now() };
        const results = await store.write(
          writes.map((w) => w.write),
          audit,
          assertValid,
          { outbox: queued },
        );
        for (const [i, { outcome }] of results.entries()) if (writes[i]!.counted) summary[outcome]++;
      } catch (error) {
        if (!(error instanceof ItemWriteError)) throw error;
        throw naming(error.error, placeOf(writes[error.index]!.index), batch);
      }
    }
    if (documents.length) await timeseries!.write(documents);
    await store.outbox.remove(queued.map((entry) => entry.id));
    return summary;
  }

  /**
   * Writes the points left in the outbox by a process that stopped between a commit and its relay, and dequeues them;
   * answers how many. Writing a point again overwrites it (its id is its identity), so relaying twice is harmless.
   */
  async function relayOutbox(batch = 500): Promise<number> {
    let relayed = 0;
    for (;;) {
      const entries = await store.outbox.pending(batch);
      if (entries.length === 0 || !timeseries) return relayed;
      await timeseries.write(entries.map((entry) => JSON.parse(entry.document) as unknown));
      await store.outbox.remove(entries.map((entry) => entry.id));
      relayed += entries.length;
    }
  }

  return { ingest, relayOutbox };
}
