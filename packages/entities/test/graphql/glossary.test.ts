import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { upsert } from './edit-support';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's business glossary golden file: four root nodes, nine terms under them, related terms, one term in a domain.
const GOLDEN = ['glossary_events_golden.json'];
const SENSITIVE = 'urn:li:glossaryTerm:Classification.Sensitive';
const CLASSIFICATION = 'urn:li:glossaryNode:Classification';

/** A term and a node of our own on top of the golden file: a root term, a node under a node, a node with only its key. */
async function glossary() {
  const api = await goldenGraphql(databases, GOLDEN);
  const mcp = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
    proposal: { entityType, entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value) } },
    place: { action: 'test', path: aspectName },
  });
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      mcp('glossaryTerm', 'urn:li:glossaryTerm:Revenue', 'glossaryTermInfo', { definition: 'Money in', termSource: 'INTERNAL' }),
      mcp('glossaryNode', 'urn:li:glossaryNode:Secret', 'glossaryNodeInfo', { definition: 'Very', parentNode: CLASSIFICATION }),
      mcp('glossaryTerm', 'urn:li:glossaryTerm:Secret.Key', 'glossaryTermInfo', {
        definition: 'A key',
        termSource: 'EXTERNAL',
        parentNode: 'urn:li:glossaryNode:Secret',
      }),
      mcp('glossaryNode', 'urn:li:glossaryNode:Bare', 'status', { removed: false }),
    ],
    { batch: true },
  );
  return api;
}

describe("Glossary terms and nodes, as DataHub's mappers answer them", () => {
  it("a term's page (getGlossaryTerm's fields): names from its key, properties from glossaryTermInfo, its parent nodes", async () => {
    const { query } = await glossary();
    const data = await query(
      `query getGlossaryTerm($urn: String!) {
        glossaryTerm(urn: $urn) {
          urn type exists name hierarchicalName
          parentNodes { count nodes { urn type properties { name description } } }
          ownership { owners { owner { ... on CorpUser { urn } } type } }
          institutionalMemory { elements { url } }
          deprecation { deprecated }
          domain { domain { urn } }
          properties { name definition description termSource sourceRef sourceUrl rawSchema customProperties { key value associatedUrn } createdOn { time actor { urn } } }
          glossaryTermInfo { name definition termSource }
        }
      }`,
      { urn: SENSITIVE },
    );
    expect(data.glossaryTerm).toEqual({
      urn: SENSITIVE,
      type: 'GLOSSARY_TERM',
      exists: true,
      name: 'Sensitive',
      hierarchicalName: 'Classification.Sensitive',
      parentNodes: {
        count: 1,
        nodes: [
          {
            urn: CLASSIFICATION,
            type: 'GLOSSARY_NODE',
            properties: { name: 'Classification', description: 'A set of terms related to Data Classification' },
          },
        ],
      },
      ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:mjames' }, type: 'DEVELOPER' }] },
      institutionalMemory: { elements: [{ url: 'https://www.google.com' }] },
      deprecation: null,
      domain: null,
      properties: {
        name: 'Sensitive',
        definition: 'Sensitive Data',
        description: 'Sensitive Data',
        termSource: 'INTERNAL',
        sourceRef: 'DataHub',
        sourceUrl: 'https://github.com/datahub-project/datahub/',
        rawSchema: null,
        customProperties: [{ key: 'is_confidential', value: 'False', associatedUrn: SENSITIVE }],
        // When the term's key was first written, and by whom (DataHub reads the key aspect's created stamp).
        createdOn: { time: 1_700_000_000_000, actor: { urn: SYSTEM_ACTOR.urn } },
      },
      glossaryTermInfo: { name: 'Sensitive', definition: 'Sensitive Data', termSource: 'INTERNAL' },
    });
  });

  it('a term named only by its key takes the last part of the key; its domain is the first of its domains', async () => {
    const { query } = await glossary();
    const data = await query(`{
      revenue: glossaryTerm(urn: "urn:li:glossaryTerm:Revenue") { name hierarchicalName properties { name description } parentNodes { count nodes { urn } } }
      key: glossaryTerm(urn: "urn:li:glossaryTerm:Secret.Key") { name properties { name } parentNodes { nodes { urn } } }
      high: glossaryTerm(urn: "urn:li:glossaryTerm:Classification.Highly-Confidential") { name domain { domain { urn type } associatedUrn } }
    }`);
    expect(data.revenue).toEqual({
      name: 'Revenue',
      hierarchicalName: 'Revenue',
      properties: { name: 'Revenue', description: 'Money in' },
      parentNodes: { count: 0, nodes: [] },
    });
    // Nearest node first, then the nodes above it.
    expect(data.key).toEqual({
      name: 'Key',
      properties: { name: 'Key' },
      parentNodes: { nodes: [{ urn: 'urn:li:glossaryNode:Secret' }, { urn: CLASSIFICATION }] },
    });
    expect(data.high).toEqual({
      name: 'Highly-Confidential',
      domain: {
        domain: { urn: 'urn:li:domain:Marketing', type: 'DOMAIN' },
        associatedUrn: 'urn:li:glossaryTerm:Classification.Highly-Confidential',
      },
    });
  });

  it("a node's page: properties (the key's name when it has no info), children counts, parent nodes", async () => {
    const { query } = await glossary();
    const data = await query(`{
      classification: glossaryNode(urn: "${CLASSIFICATION}") {
        urn type exists
        properties { name description customProperties { key value } }
        childrenCount { termsCount nodesCount }
        parentNodes { count }
        ownership { owners { owner { ... on CorpUser { urn } } } }
      }
      secret: glossaryNode(urn: "urn:li:glossaryNode:Secret") { properties { name description } parentNodes { nodes { urn } } childrenCount { termsCount nodesCount } }
      bare: glossaryNode(urn: "urn:li:glossaryNode:Bare") { exists properties { name description createdOn { time } } }
    }`);
    expect(data.classification).toEqual({
      urn: CLASSIFICATION,
      type: 'GLOSSARY_NODE',
      exists: true,
      properties: {
        name: 'Classification',
        description: 'A set of terms related to Data Classification',
        customProperties: [{ key: 'is_confidential', value: 'True' }],
      },
      childrenCount: { termsCount: 3, nodesCount: 1 },
      parentNodes: { count: 0 },
      ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:mjames' } }] },
    });
    expect(data.secret).toEqual({
      properties: { name: 'Secret', description: 'Very' },
      parentNodes: { nodes: [{ urn: CLASSIFICATION }] },
      childrenCount: { termsCount: 1, nodesCount: 0 },
    });
    expect(data.bare).toEqual({ exists: true, properties: { name: 'Bare', description: null, createdOn: null } });
  });

  it('getRootGlossaryTerms and getRootGlossaryNodes list what sits under no node (the UI sends start 0, count 1000)', async () => {
    const { query } = await glossary();
    const data = await query(`{
      getRootGlossaryTerms(input: { start: 0, count: 1000 }) { start count total terms { urn type name properties { name description } } }
      getRootGlossaryNodes(input: { start: 0, count: 1000 }) { start count total nodes { urn properties { name } } }
      page: getRootGlossaryNodes(input: { start: 1, count: 2 }) { start count total }
    }`);
    expect(data.getRootGlossaryTerms).toEqual({
      start: 0,
      count: 1,
      total: 1,
      terms: [
        {
          urn: 'urn:li:glossaryTerm:Revenue',
          type: 'GLOSSARY_TERM',
          name: 'Revenue',
          properties: { name: 'Revenue', description: 'Money in' },
        },
      ],
    });
    // A node with no glossaryNodeInfo (Bare) says nothing of its parent: DataHub's filter on hasParentNode leaves it out too.
    expect(data.getRootGlossaryNodes.nodes.map((n: any) => n.properties.name).sort()).toEqual([
      'Classification',
      'Clients And Accounts',
      'KPIs',
      'Personal Information',
    ]);
    expect(data.getRootGlossaryNodes).toMatchObject({ start: 0, count: 4, total: 4 });
    expect(data.page).toEqual({ start: 1, count: 2, total: 4 });
  });

  it("glossaryChildrenSearch (DataHub's GlossaryChildrenSearchResolver): the one scroll search among a node's direct children", async () => {
    const { query, run } = await glossary();
    // The UI's rootGlossaryNodeWithFourLayers (fragments.graphql) asks each node's child nodes, 500 at a time, two levels here.
    const layers = `glossaryChildrenSearch(input: { query: "*", count: 500, types: [GLOSSARY_NODE] }) {
      total searchResults { entity { urn type ... on GlossaryNode { childrenCount { termsCount nodesCount }
        glossaryChildrenSearch(input: { query: "*", count: 500, types: [GLOSSARY_NODE] }) { total searchResults { entity { urn } } } } } } }`;
    const data = await query(`{
      getRootGlossaryNodes(input: { start: 0, count: 1000 }) { nodes { urn ${layers} } }
      all: glossaryNode(urn: "${CLASSIFICATION}") {
        glossaryChildrenSearch(input: { query: "*", count: 2 }) { nextScrollId count total searchResults { entity { urn type } } }
      }
      terms: glossaryNode(urn: "${CLASSIFICATION}") {
        glossaryChildrenSearch(input: { query: "*", count: 10, types: [GLOSSARY_TERM] }) { total searchResults { entity { urn } } }
      }
      bare: glossaryNode(urn: "urn:li:glossaryNode:Bare") { glossaryChildrenSearch(input: { query: "*" }) { total searchResults { entity { urn } } } }
    }`);
    const classification = data.getRootGlossaryNodes.nodes.find((n: any) => n.urn === CLASSIFICATION);
    expect(classification.glossaryChildrenSearch).toEqual({
      total: 1,
      searchResults: [
        {
          entity: {
            urn: 'urn:li:glossaryNode:Secret',
            type: 'GLOSSARY_NODE',
            childrenCount: { termsCount: 1, nodesCount: 0 },
            glossaryChildrenSearch: { total: 0, searchResults: [] },
          },
        },
      ],
    });
    // Every other root node holds terms only.
    for (const node of data.getRootGlossaryNodes.nodes.filter((n: any) => n.urn !== CLASSIFICATION))
      expect(node.glossaryChildrenSearch).toEqual({ total: 0, searchResults: [] });
    // Without types: its three terms and the node, a page of two and the scroll id of the rest.
    expect(data.all.glossaryChildrenSearch).toMatchObject({ count: 2, total: 4, nextScrollId: expect.any(String) });
    const rest = await query(
      `query rest($scrollId: String) { glossaryNode(urn: "${CLASSIFICATION}") {
        glossaryChildrenSearch(input: { query: "*", count: 2, scrollId: $scrollId }) { nextScrollId count searchResults { entity { urn } } } } }`,
      { scrollId: data.all.glossaryChildrenSearch.nextScrollId },
    );
    expect(rest.glossaryNode.glossaryChildrenSearch).toMatchObject({ count: 2, nextScrollId: null });
    const listed = [...data.all.glossaryChildrenSearch.searchResults, ...rest.glossaryNode.glossaryChildrenSearch.searchResults];
    expect(new Set(listed.map((r: any) => r.entity.urn))).toEqual(
      new Set([...data.terms.glossaryChildrenSearch.searchResults.map((r: any) => r.entity.urn), 'urn:li:glossaryNode:Secret']),
    );
    expect(data.terms.glossaryChildrenSearch.total).toBe(3);
    // Facets are counted when the selection asks for them, directly or through a fragment (a selection without them
    // skips counting): the node's children by type, 3 terms and 1 node.
    const faceted = await query(`{ glossaryNode(urn: "${CLASSIFICATION}") {
      direct: glossaryChildrenSearch(input: { query: "*" }) { total facets { field aggregations { value count } } }
      spread: glossaryChildrenSearch(input: { query: "*" }) { ... on ScrollResults { facets { field aggregations { value count } } } } } }`);
    for (const answer of [faceted.glossaryNode.direct, faceted.glossaryNode.spread]) {
      const types = answer.facets.find((f: any) => f.field === '_entityType');
      expect(new Map(types.aggregations.filter((a: any) => a.count > 0).map((a: any) => [a.value.toUpperCase(), a.count]))).toEqual(
        new Map([
          ['GLOSSARY_TERM', 3],
          ['GLOSSARY_NODE', 1],
        ]),
      );
    }
    expect(data.terms.glossaryChildrenSearch.searchResults.map((r: any) => r.entity.urn)).toContain(SENSITIVE);
    expect(data.bare.glossaryChildrenSearch).toEqual({ total: 0, searchResults: [] });
    // A negative count is the caller's 400.
    const refused = await run(
      `{ glossaryNode(urn: "${CLASSIFICATION}") { glossaryChildrenSearch(input: { query: "*", count: -1 }) { total } } }`,
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe(400);
  });

  it('a urn of another type or of nothing stored answers null; a malformed urn is refused', async () => {
    const { query, schema } = await glossary();
    const data = await query(`{
      a: glossaryTerm(urn: "${CLASSIFICATION}") { urn }
      b: glossaryNode(urn: "urn:li:glossaryNode:Nothing") { urn }
      c: glossaryTerm(urn: "urn:li:glossaryTerm:Nothing") { urn }
    }`);
    expect(data).toEqual({ a: null, b: null, c: null });
    const { graphql } = await import('graphql');
    const { context } = await import('./golden');
    const refused = await graphql({ schema, source: '{ glossaryTerm(urn: "nope") { urn } }', contextValue: context });
    expect(refused.errors?.[0]?.message).toBe('Invalid urn: nope');
  });

  it("a term's schemaMetadata(version:) reads the term's own aspect as a dataset's does (AspectResolver, SchemaMetadataMapper)", async () => {
    const { service, query } = await glossary();
    const schema = (field: string) => ({
      schemaName: 'revenue',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: [{ fieldPath: field, nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } }],
    });
    const term = 'urn:li:glossaryTerm:Revenue';
    for (const field of ['amount', 'total'])
      await service.ingest(SYSTEM_ACTOR, [upsert(term, 'schemaMetadata', schema(field))], { batch: false });
    const fields = 'name aspectVersion platformUrn fields { fieldPath type nativeDataType schemaFieldEntity { urn } }';
    const data = await query(`{
      latest: glossaryTerm(urn: "${term}") { schemaMetadata(version: 0) { ${fields} } }
      first: glossaryTerm(urn: "${term}") { schemaMetadata(version: 1) { ${fields} } }
      none: glossaryTerm(urn: "${SENSITIVE}") { schemaMetadata { name } }
    }`);
    const answer = (field: string, aspectVersion: number) => ({
      name: 'revenue',
      aspectVersion,
      platformUrn: 'urn:li:dataPlatform:hive',
      fields: [
        { fieldPath: field, type: 'NUMBER', nativeDataType: 'int', schemaFieldEntity: { urn: `urn:li:schemaField:(${term},${field})` } },
      ],
    });
    expect(data).toEqual({
      latest: { schemaMetadata: answer('total', 0) },
      first: { schemaMetadata: answer('amount', 1) },
      none: { schemaMetadata: null },
    });
  });
});
