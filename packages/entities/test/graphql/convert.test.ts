import { buildSchema, graphqlSync, type GraphQLFieldResolver, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { toGraphQL, type Scope, type TypeRules } from '../../src/graphql/mapping/convert';
import { entityRef } from '../../src/graphql/typenames';

// A few of DataHub's types, as its schema declares them, to convert stored aspects into.
const schema = buildSchema(`
  interface Entity { urn: String! type: EntityType! }
  enum EntityType { DATASET CORP_USER CORP_GROUP TAG }
  enum OwnershipType { TECHNICAL_OWNER BUSINESS_OWNER }
  type CorpUser implements Entity { urn: String! type: EntityType! }
  type CorpGroup implements Entity { urn: String! type: EntityType! }
  type Tag implements Entity { urn: String! type: EntityType! }
  union OwnerType = CorpUser | CorpGroup
  type AuditStamp { time: Long! actor: String }
  scalar Long
  type Owner { owner: OwnerType! type: OwnershipType ownershipType: String associatedUrn: String! }
  type Ownership { owners: [Owner!] lastModified: AuditStamp! }
  type CustomPropertiesEntry { key: String! value: String associatedUrn: String! }
  type Properties { name: String! created: Long customProperties: [CustomPropertiesEntry!] tags: [Tag!]! count: Int }
  type StringType { nothing: String }
  type NumberType { nothing: String }
  union FieldType = StringType | NumberType
  type SchemaField { fieldPath: String! type: FieldType }
  type StringValue { stringValue: String! }
  type NumberValue { numberValue: Float! }
  union PropertyValue = StringValue | NumberValue
  type Holder { values: [PropertyValue]! }
  type Query { ownership: Ownership properties: Properties field: SchemaField holder: Holder }
`);
const rules: TypeRules = { Owner: { ownershipType: 'typeUrn' } };
const scope: Scope = { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', schema, rules, ref: (urn) => entityRef(urn) };
const typeOf = (field: string) => (schema.getQueryType() as GraphQLObjectType).getFields()[field]!.type;

describe('toGraphQL: a stored aspect as the GraphQL type DataHub gives it', () => {
  it('copies a record field by field, applies the rules, makes urns entities of the union member they name', () => {
    const stored = {
      owners: [
        { owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER', typeUrn: 'urn:li:ownershipType:x' },
        { owner: 'urn:li:corpGroup:eng', type: 'SOMETHING_NEW' },
        { owner: 'urn:li:dataset:(urn:li:dataPlatform:hive,u,PROD)', type: 'BUSINESS_OWNER' },
      ],
      lastModified: { time: 5, actor: 'urn:li:corpuser:jdoe' },
    };
    expect(toGraphQL(stored, typeOf('ownership'), scope)).toEqual({
      __typename: 'Ownership',
      owners: [
        {
          __typename: 'Owner',
          owner: { __typename: 'CorpUser', urn: 'urn:li:corpuser:jdoe', type: 'CORP_USER' },
          type: 'TECHNICAL_OWNER',
          ownershipType: 'urn:li:ownershipType:x',
          associatedUrn: scope.urn,
        },
        // An enum value GraphQL does not know answers null; the owner is kept.
        {
          __typename: 'Owner',
          owner: { __typename: 'CorpGroup', urn: 'urn:li:corpGroup:eng', type: 'CORP_GROUP' },
          type: null,
          ownershipType: null,
          associatedUrn: scope.urn,
        },
        // A dataset is no OwnerType: its non-null owner has no answer, so that owner is left out (not an error).
      ],
      lastModified: { __typename: 'AuditStamp', time: 5, actor: 'urn:li:corpuser:jdoe' },
    });
  });

  it('turns maps into entries, stamps into times, and answers empties for absent non-null data', () => {
    const stored = { customProperties: { a: '1', b: '2' }, created: { time: 7, actor: 'urn:li:corpuser:x' }, count: 2.9 };
    expect(toGraphQL(stored, typeOf('properties'), scope)).toEqual({
      __typename: 'Properties',
      name: '',
      created: 7,
      customProperties: [
        { __typename: 'CustomPropertiesEntry', key: 'a', value: '1', associatedUrn: scope.urn },
        { __typename: 'CustomPropertiesEntry', key: 'b', value: '2', associatedUrn: scope.urn },
      ],
      tags: [],
      count: 2,
    });
    expect(toGraphQL(undefined, typeOf('properties'), scope)).toBeNull();
    expect(toGraphQL('not a record', typeOf('properties'), scope)).toBeNull();
  });

  it('unwraps a PDL union member into the GraphQL union member of that name, or the one a rule names', () => {
    expect(toGraphQL({ fieldPath: 'a', type: { type: { 'com.linkedin.schema.NumberType': {} } } }, typeOf('field'), scope)).toEqual({
      __typename: 'SchemaField',
      fieldPath: 'a',
      type: null, // the record under `type` is no union member: only a member key names one
    });
    expect(toGraphQL({ fieldPath: 'a', type: { 'com.linkedin.schema.NumberType': {} } }, typeOf('field'), scope)).toEqual({
      __typename: 'SchemaField',
      fieldPath: 'a',
      type: { __typename: 'NumberType', nothing: null },
    });
    expect(
      toGraphQL({ values: [{ __typename: 'StringValue', stringValue: 's' }, { __typename: 'Unknown' }, 3] }, typeOf('holder'), scope),
    ).toEqual({ __typename: 'Holder', values: [{ __typename: 'StringValue', stringValue: 's' }, null, null] });
  });
});

describe('toGraphQL for a resolver: only what the query asks', () => {
  // Its own schema: resolvers are set on it below.
  const asked = buildSchema(`
    interface Entity { urn: String! type: EntityType! }
    enum EntityType { CORP_USER CORP_GROUP }
    type CorpUser implements Entity { urn: String! type: EntityType! }
    type CorpGroup implements Entity { urn: String! type: EntityType! }
    union OwnerType = CorpUser | CorpGroup
    type AuditStamp { time: Long! actor: String }
    scalar Long
    type Owner { owner: OwnerType! type: String costly: String associatedUrn: String! }
    type Ownership { owners: [Owner!] lastModified: AuditStamp note: String }
    type Note { text: String label: String shout: String }
    type Holder { note: Note costly: String }
    type Query { ownership: Ownership holder: Holder }
  `);
  let costlyRuns = 0;
  const askedRules: TypeRules = {
    Owner: {
      costly: (v) => {
        costlyRuns++;
        return `costly ${String(v.owner)}`;
      },
    },
    Holder: {
      costly: () => {
        costlyRuns++;
        return 'costly';
      },
    },
  };
  const stored = {
    owners: [
      { owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' },
      { owner: 'urn:li:corpGroup:eng', type: 'TECHNICAL' },
      { owner: 'urn:li:dataset:(urn:li:dataPlatform:hive,u,PROD)', type: 'NONE' }, // no OwnerType: left out, asked or not
    ],
    lastModified: { time: 5, actor: 'urn:li:corpuser:jdoe' },
    note: 'n',
  };
  const fields = (type: string) => (asked.getType(type) as GraphQLObjectType).getFields();
  const answer =
    (value: unknown): GraphQLFieldResolver<unknown, unknown> =>
    (_parent, _args, _context, info) =>
      toGraphQL(value, info.returnType, { urn: 'urn:li:dataset:x', schema: asked, rules: askedRules, ref: entityRef }, info);
  fields('Query').ownership!.resolve = answer(stored);
  fields('Query').holder!.resolve = answer({ note: { text: 't', label: 'l' } });
  const run = (query: string) => {
    costlyRuns = 0;
    const result = graphqlSync({ schema: asked, source: query });
    expect(result.errors).toBeUndefined();
    return result.data;
  };

  it('answers the fields asked, through aliases and fragments, as the whole conversion would, without working out the rest', () => {
    const query = `{ ownership { ...owners lastModified { when: time } } }
      fragment owners on Ownership { owners { owner { ... on CorpUser { urn } ... on Entity { type } } kind: type } }`;
    expect(run(query)).toEqual({
      ownership: {
        owners: [
          { owner: { urn: 'urn:li:corpuser:jdoe', type: 'CORP_USER' }, kind: 'DATAOWNER' },
          { owner: { type: 'CORP_GROUP' }, kind: 'TECHNICAL' },
        ],
        lastModified: { when: 5 },
      },
    });
    expect(costlyRuns).toBe(0);
    expect(run('{ ownership { owners { costly } } }')).toEqual({
      ownership: { owners: [{ costly: 'costly urn:li:corpuser:jdoe' }, { costly: 'costly urn:li:corpGroup:eng' }] },
    });
  });

  it('converts an object whole when its type has a resolver of its own, which may read any of its fields', () => {
    fields('Note').shout!.resolve = (note: { text: string; label: string }) => `${note.text}${note.label}!`;
    expect(run('{ holder { note { shout } } }')).toEqual({ holder: { note: { shout: 'tl!' } } });
    expect(costlyRuns).toBe(0);
  });
});
