import { fileItemProposals, pegasusSnapshot } from '@mds/entities';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Mds } from './mds';

/** DataHub's own bootstrap file (packages/entities/test/fixtures/datahub/bootstrap_mce.json, source in SOURCES.md). */
export const BOOTSTRAP = new URL('../../../../packages/entities/test/fixtures/datahub/bootstrap_mce.json', import.meta.url);

/** The MCE snapshots of a DataHub file, in Pegasus JSON. */
export function snapshotsOf(file: URL) {
  const items = JSON.parse(readFileSync(file, 'utf8')) as { proposedSnapshot?: unknown }[];
  return items.filter((item) => item.proposedSnapshot).map((item) => pegasusSnapshot(item.proposedSnapshot));
}

/** Ingests a file's snapshots as DataHub's CLI does (`/entities?action=batchIngest`); every one must be accepted. */
export async function ingestSnapshots(mds: Mds, file: URL = BOOTSTRAP) {
  const entities = snapshotsOf(file).map((value) => ({ value }));
  const res = await mds.post('/entities?action=batchIngest', { entities, systemMetadata: entities.map(() => ({})) });
  expect([res.status, res.body?.message]).toEqual([200, undefined]);
}

/** DataHub's ingestion files (SOURCES.md beside them), by name. */
export const goldenFile = (name: string) => new URL(`../../../../packages/entities/test/fixtures/datahub/${name}`, import.meta.url);

/**
 * Ingests a DataHub file as its CLI sends it: MCEs through `/entities?action=batchIngest`, MCPs through
 * `/aspects?action=ingestProposalBatch`; every item must be accepted.
 */
export async function ingestGolden(mds: Mds, name: string) {
  const items = JSON.parse(readFileSync(goldenFile(name), 'utf8')) as { proposedSnapshot?: unknown }[];
  const entities = items.filter((item) => item.proposedSnapshot).map((item) => ({ value: pegasusSnapshot(item.proposedSnapshot) }));
  if (entities.length) {
    const res = await mds.post('/entities?action=batchIngest', { entities, systemMetadata: entities.map(() => ({})) });
    expect([res.status, res.body?.message]).toEqual([200, undefined]);
  }
  const proposals = items.flatMap((item, i) =>
    item.proposedSnapshot ? [] : fileItemProposals(item, `${name}[${i}]`).map((p) => p.proposal),
  );
  if (proposals.length) {
    const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals });
    expect([res.status, res.body?.message]).toEqual([200, undefined]);
  }
}

/** The one GraphQL error of an answer, as message and code (undefined when there is none). */
export function graphqlError(result: { body: { errors?: { message: string; extensions: Record<string, unknown> }[] } }) {
  const [error] = result.body.errors ?? [];
  return error && { message: error.message, code: error.extensions.code };
}
