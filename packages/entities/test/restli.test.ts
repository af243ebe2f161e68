import { openSqliteDatabase } from '@mds/db';
import { afterAll, describe, expect, it } from 'vitest';
import { createAspectStore, createIngestion, restliEndpoints } from '../src/index';

const db = openSqliteDatabase(':memory:');
afterAll(() => db.close());

describe('Rest.li ingestion actions', () => {
  // The host reads bulk bodies one at a time: single proposals read so would each commit (and fsync) alone.
  it('reads ordinary single proposals concurrently, so that their writes share commits; batches one at a time', () => {
    const store = createAspectStore(db);
    const { actions } = restliEndpoints(store, createIngestion({ store }), undefined);
    const bulk = (name: string) => actions.find((action) => action.resource === 'aspects' && action.name === name)?.bulk ?? false;
    expect(bulk('ingestProposal')).toBe('when-large');
    expect(bulk('ingestProposalBatch')).toBe(true);
  });
});
