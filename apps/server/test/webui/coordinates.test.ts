import { buildSchema } from 'graphql';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compareCoordinates, coordinateKey, schemaCoordinates } from './coordinates';
import { ratchetProblems } from './ratchet';
import { readUiDocuments, validateOperation } from './ui-documents';

// The tools the web UI's contract tests stand on: schema coordinates, their comparison, the ratchet, the document reader.
const SDL = /* GraphQL */ `
  directive @cached(seconds: Int = 60) on FIELD_DEFINITION | OBJECT
  scalar Long
  interface Entity {
    urn: String!
  }
  type Dataset implements Entity & Browsable {
    urn: String!
    name: String
    schema(version: Long, at: Int = 0): [Field!]!
  }
  interface Browsable {
    urn: String!
  }
  type Field {
    path: String!
  }
  union Hit = Field | Dataset
  enum Kind {
    A
    B
  }
  input Filter {
    field: String!
    values: [String!] = []
    condition: Kind = A
  }
  type Query {
    dataset(urn: String!): Dataset
    hits(filter: Filter): [Hit!]
  }
`;

describe('schemaCoordinates', () => {
  it('prints one line per fact, grouped by type, arguments sorted with their defaults', () => {
    expect(schemaCoordinates(buildSchema(SDL)).map((c) => c.line)).toEqual([
      'directive @cached(seconds: Int = 60) on FIELD_DEFINITION | OBJECT',
      'scalar Boolean',
      'interface Browsable',
      'Browsable.urn: String!',
      'type Dataset',
      'Dataset implements Browsable',
      'Dataset implements Entity',
      'Dataset.name: String',
      'Dataset.schema(at: Int = 0, version: Long): [Field!]!',
      'Dataset.urn: String!',
      'interface Entity',
      'Entity.urn: String!',
      'type Field',
      'Field.path: String!',
      'input Filter',
      'Filter.condition: Kind = A',
      'Filter.field: String!',
      'Filter.values: [String!] = []',
      'union Hit = Dataset | Field',
      'scalar Int',
      'enum Kind',
      'Kind.A',
      'Kind.B',
      'scalar Long',
      'type Query',
      'Query.dataset(urn: String!): Dataset',
      'Query.hits(filter: Filter): [Hit!]',
      'scalar String',
      'schema.query: Query',
    ]);
  });

  it('keys each line by what it names, so a changed type or argument list is the same coordinate, differing', () => {
    expect(coordinateKey('Dataset.schema(at: Int = 0, version: Long): [Field!]!')).toBe('Dataset.schema');
    expect(coordinateKey('Filter.values: [String!] = []')).toBe('Filter.values');
    expect(coordinateKey('union Hit = Dataset | Field')).toBe('Hit');
    expect(coordinateKey('input Filter')).toBe('Filter');
    expect(coordinateKey('Dataset implements Entity')).toBe('Dataset implements Entity');
    expect(coordinateKey('Kind.A')).toBe('Kind.A');
    expect(coordinateKey('directive @cached(seconds: Int = 60) on OBJECT')).toBe('@cached');
  });
});

describe('compareCoordinates', () => {
  it('sorts the reference into lacking, differing and equal, and counts what only mine has', () => {
    const reference = schemaCoordinates(buildSchema(SDL)).map((c) => c.line);
    const mine = schemaCoordinates(
      buildSchema(`
        interface Entity { urn: String! }
        type Dataset implements Entity { urn: String name: String schema(version: Long): [Field!]! extra: Int }
        scalar Long
        type Field { path: String! }
        union Hit = Field
        input Kind { a: Int }
        type Query { dataset(urn: String!): Dataset }
      `),
    );
    const result = compareCoordinates(reference, mine);
    expect(result.differing).toEqual([
      { reference: 'Dataset.schema(at: Int = 0, version: Long): [Field!]!', mine: 'Dataset.schema(version: Long): [Field!]!' },
      { reference: 'Dataset.urn: String!', mine: 'Dataset.urn: String' },
      { reference: 'union Hit = Dataset | Field', mine: 'union Hit = Field' },
      { reference: 'enum Kind', mine: 'input Kind' },
    ]);
    expect(result.lacking).toContain('Dataset implements Browsable');
    expect(result.lacking).toContain('Query.hits(filter: Filter): [Hit!]');
    expect(result.lacking).not.toContain('Dataset implements Entity');
    expect(result.equal).toContain('Dataset implements Entity');
    expect(result.equal).toContain('Query.dataset(urn: String!): Dataset');
    expect(result.extra).toEqual(['Dataset.extra: Int', 'Kind.a: Int']);
  });
});

describe('ratchetProblems', () => {
  const ratchet = { file: new URL('file:///x/webui/remaining.txt'), header: [], current: ['lacking A.b: Int', 'differs C.d: String!'] };

  it('is empty when the list is exactly what does not work', () => {
    expect(ratchetProblems(ratchet, ['differs C.d: String!', 'lacking A.b: Int'])).toBe('');
  });

  it('names what stopped working and is not listed, and what is listed but works now', () => {
    const problems = ratchetProblems(ratchet, ['lacking A.b: Int', 'lacking E.f: Int', 'lacking A.b: Int']);
    expect(problems).toContain('1 not listed in x/webui/remaining.txt (a regression');
    expect(problems).toContain('  differs C.d: String!');
    expect(problems).toContain('1 listed in x/webui/remaining.txt now work: delete these lines from it:\n  lacking E.f: Int');
    expect(problems).toContain('listed twice in x/webui/remaining.txt:\n  lacking A.b: Int');
  });

  it('says why each regression does not work, when told', () => {
    const problems = ratchetProblems(ratchet, ['lacking A.b: Int'], (entry) => `because of ${entry.split(' ')[1]}`);
    expect(problems).toContain('  differs C.d: String!\n      because of C.d:');
  });
});

describe('readUiDocuments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-webui-docs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const folder = pathToFileURL(`${dir}/`);

  it('resolves fragments across files, transitively, as the UI codegen does', () => {
    writeFileSync(join(dir, 'a.graphql'), 'query getDataset($urn: String!) { dataset(urn: $urn) { ...datasetFields } }');
    writeFileSync(
      join(dir, 'b.graphql'),
      'fragment datasetFields on Dataset { name schema { ...fieldFields } }\nfragment fieldFields on Field { path }',
    );
    const { operations, fragments } = readUiDocuments(folder);
    expect(operations.map((op) => [op.file, op.kind, op.name])).toEqual([['a.graphql', 'query', 'getDataset']]);
    expect(fragments.map((f) => f.name)).toEqual(['datasetFields', 'fieldFields']);
    expect(validateOperation(buildSchema(SDL), operations[0]!)).toEqual([]);
    const withoutSchema = buildSchema(SDL.replace('schema(version: Long, at: Int = 0): [Field!]!', ''));
    expect(validateOperation(withoutSchema, operations[0]!).map((e) => e.message)).toEqual([
      'Cannot query field "schema" on type "Dataset".',
    ]);
  });

  it('refuses a fragment name written twice with different selections', () => {
    writeFileSync(join(dir, 'c.graphql'), 'fragment fieldFields on Field { path path2: path }');
    expect(() => readUiDocuments(folder)).toThrow('fragment fieldFields is written twice, differently (c.graphql)');
  });
});
