import type { GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { coordinateRatchet, DATAHUB_COORDINATES, ratchetProblems, readList } from './ratchet';
import { servedSchema } from './served-schema';

// DataHub's GraphQL schema, coordinate for coordinate (issue 31): every coordinate of DataHub's schema
// (datahub-coordinates.txt, generated from DataHub's SDL by scripts/datahub-coordinates.ts) that the schema mds serves
// lacks or types differently must be listed in remaining-coordinates.txt, and nothing listed may match already.
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await servedSchema();
});

describe("DataHub's schema coordinates in mds's served schema", () => {
  it('reads the reference: DataHub at the pinned commit, its 26 SDL files', () => {
    const header = readFileSync(DATAHUB_COORDINATES, 'utf8').split('\n', 3).join('\n');
    expect(header).toContain('c731e725ff4293ef783eed998b135612d8a13218');
    expect(header).toContain('(26 files)');
    const lines = readList(DATAHUB_COORDINATES);
    // DataHub's schema at that commit: 463 object types, 249 inputs, 96 enums, 92 queries, 144 mutations.
    expect(lines.filter((l) => l.startsWith('type '))).toHaveLength(463);
    expect(lines.filter((l) => l.startsWith('input '))).toHaveLength(249);
    expect(lines.filter((l) => l.startsWith('enum '))).toHaveLength(96);
    expect(lines.filter((l) => l.startsWith('Query.'))).toHaveLength(92);
    expect(lines.filter((l) => l.startsWith('Mutation.'))).toHaveLength(144);
  });

  it('lists in remaining-coordinates.txt exactly what mds lacks or types differently', () => {
    const { ratchet, comparison, referenceCount } = coordinateRatchet(schema);
    console.log(
      `DataHub coordinates: ${referenceCount}; in mds and equal: ${comparison.equal.length}; lacking: ${comparison.lacking.length}; ` +
        `typed differently: ${comparison.differing.length}; mds-only coordinates: ${comparison.extra.length}`,
    );
    if (comparison.differing.length > 0) {
      console.log(`typed differently (DataHub | mds):\n${comparison.differing.map((d) => `  ${d.reference}  |  ${d.mine}`).join('\n')}`);
    }
    const mine = new Map(comparison.differing.map((d) => [d.reference, d.mine]));
    const problems = ratchetProblems(ratchet, readList(ratchet.file), (entry) => {
      const line = entry.slice(entry.indexOf(' ') + 1);
      return mine.has(line) ? `mds has: ${mine.get(line)}` : 'mds has nothing of that name';
    });
    expect(problems, problems).toBe('');
  });
});
