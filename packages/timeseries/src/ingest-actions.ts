import { defineAction, type RestliAction } from '@mds/schema';
import { z } from 'zod';
import type { TimeseriesStore } from './port.ts';
import { proposalSchema, toDocument } from './proposal.ts';

export const MAX_PROPOSALS_PER_BATCH = 10_000;

/**
 * Answer of ingestProposalBatch. DataHub answers its batch action with the string `success` (RESTLI_SUCCESS);
 * we do the same so DataHub clients see no difference.
 */
export const BATCH_ANSWER = 'success';

/**
 * Rest.li actions on 'aspects'. Any authenticated actor may ingest. A batch is validated whole before anything is
 * written, then written in one transaction (embedded) or one _bulk request: a bad proposal writes nothing.
 */
export function ingestActions(store: TimeseriesStore): RestliAction[] {
  // DataHub's clients may send `async` ("true"/"false"); writes here are always synchronous.
  const async = z.union([z.string(), z.boolean()]).optional();
  return [
    defineAction({
      resource: 'aspects',
      name: 'ingestProposal',
      bulk: true,
      params: z.object({ proposal: proposalSchema, async }).strict(),
      async handler({ proposal }) {
        const document = toDocument(proposal, { action: 'ingestProposal', path: 'proposal', indexPrefix: store.indexPrefix });
        await store.write([document]);
        return proposal.entityUrn;
      },
    }),
    defineAction({
      resource: 'aspects',
      name: 'ingestProposalBatch',
      bulk: true,
      params: z
        .object({
          proposals: z
            .array(proposalSchema)
            .max(MAX_PROPOSALS_PER_BATCH, `must hold at most ${MAX_PROPOSALS_PER_BATCH} proposals; split the batch`),
          async,
        })
        .strict(),
      async handler({ proposals }) {
        const documents = proposals.map((proposal, i) =>
          toDocument(proposal, { action: 'ingestProposalBatch', path: `proposals.${i}`, indexPrefix: store.indexPrefix }),
        );
        await store.write(documents);
        return BATCH_ANSWER;
      },
    }),
  ];
}
