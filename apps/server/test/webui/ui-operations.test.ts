import type { GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationRatchet, ratchetProblems, readList } from './ratchet';
import { servedSchema } from './served-schema';
import { operationId, readUiDocuments } from './ui-documents';

// DataHub's web UI's GraphQL documents (fixtures/datahub-web-react/graphql, DataHub c731e725) validated against the
// schema mds serves (issues 31-33): every operation that does not validate must be listed in remaining-operations.txt,
// and nothing listed may validate already.
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await servedSchema();
});

describe("DataHub's web UI operations against mds's served schema", () => {
  it('reads all 268 operations of the 65 files, with their fragments resolved across files', () => {
    const { files, operations, fragments } = readUiDocuments();
    expect(files).toHaveLength(65);
    expect(operations.filter((op) => op.kind === 'query')).toHaveLength(137);
    expect(operations.filter((op) => op.kind === 'mutation')).toHaveLength(131);
    expect(fragments).toHaveLength(141);
    // getDataset (dataset.graphql) spreads fragments written in fragments.graphql, and those spread others in turn.
    const getDataset = operations.find((op) => op.name === 'getDataset')!;
    const used = getDataset.document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [d.name.value] : []));
    expect(used).toContain('nonRecursiveDatasetFields');
    expect(used).toContain('entityDisplayNameFields');
  });

  it('lists in remaining-operations.txt exactly the operations that do not validate', () => {
    const { ratchet, results, fragmentResults } = operationRatchet(schema);
    const valid = (kind: string) => results.filter((r) => r.op.kind === kind && r.errors.length === 0).length;
    const total = (kind: string) => results.filter((r) => r.op.kind === kind).length;
    const validFragments = fragmentResults.filter((r) => r.errors.length === 0).length;
    console.log(
      `validate against mds: ${valid('query')} of ${total('query')} queries, ${valid('mutation')} of ${total('mutation')} mutations, ` +
        `${validFragments} of ${fragmentResults.length} fragments`,
    );
    const errors = new Map(results.map((r) => [operationId(r.op), r.errors]));
    const problems = ratchetProblems(ratchet, readList(ratchet.file), (entry) =>
      errors
        .get(entry)!
        .map((e) => e.message)
        .join(' / '),
    );
    expect(problems, problems).toBe('');
  });
});
