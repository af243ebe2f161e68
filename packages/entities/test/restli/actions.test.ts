import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createEntities } from '../../src/index';

const databases = sqliteTestDatabases();
afterAll(databases.dispose);

describe('Rest.li ingestion actions', () => {
  // The host reads bulk bodies one at a time: single proposals read so would each commit (and fsync) alone.
  it('reads ordinary single proposals concurrently, so that their writes share commits; batches one at a time', async () => {
    const { module } = await createEntities({ db: await databases.open() });
    const bulk = (name: string) => module.actions!.find((action) => action.resource === 'aspects' && action.name === name)?.bulk ?? false;
    expect(bulk('ingestProposal')).toBe('when-large');
    expect(bulk('ingestProposalBatch')).toBe(true);
    await databases.closeOpened();
  });
});
