import { findEntity, keyAspectValue, parseUrn } from '@mds/core';
import type { SqlDatabase } from '@mds/db';
import { createSqlSearchIndex } from '@mds/search';
import type { AspectWrite, ChangeType } from './port';
import { createSqlAspectStore } from './sql-store';

/** The MCP fields the bare store reads; anything else of a proposal is ignored. */
interface BareProposal {
  entityType: string;
  entityUrn: string;
  changeType: string;
  aspectName: string;
  aspect: { value: string };
  systemMetadata?: Record<string, unknown> | null;
}

/**
 * The aspect store bare, for `pnpm bench` only (`@mds/entities/raw-store`; the lint rule lets nothing else import it):
 * MetadataChangeProposals written with no check at all — no validation of the value or the proposal, no
 * authorization, no service — into the same store and search index the server writes (migrated on `db` here). Only
 * what a write cannot do without: the urn parsed for the entity's key aspect, and the value's JSON text parsed.
 * `pnpm bench` measures the server's ingestion against it, so that the cost of the checks reads as a ratio on any
 * machine (issue 34).
 */
export async function openBareStore(db: SqlDatabase) {
  const search = createSqlSearchIndex(db);
  await search.migrate();
  const store = createSqlAspectStore(db, { search });
  await store.migrate();
  return {
    /** Writes every proposal in one transaction, as a batch of the server's does; answers how many were written. */
    async ingest(proposals: readonly BareProposal[], actor: string): Promise<number> {
      const writes = proposals.map((p): AspectWrite => {
        const entity = findEntity(p.entityType)!;
        return {
          urn: p.entityUrn,
          key: { aspect: entity.keyAspect, value: keyAspectValue(entity, parseUrn(p.entityUrn)) },
          aspect: p.aspectName,
          changeType: p.changeType as ChangeType,
          value: JSON.parse(p.aspect.value) as unknown,
          systemMetadata: p.systemMetadata ?? null,
        };
      });
      const results = await store.write(writes, { actor, time: Date.now() }, () => {});
      return results.filter((r) => r.outcome === 'written').length;
    },
    close: () => db.close(),
  };
}
