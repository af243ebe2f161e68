import { graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, buildApiSchema, defineAction, forbidden, parseActionParams, resolversIfDeclared } from '../src/index';

describe('parseActionParams', () => {
  const action = defineAction({
    resource: 'operations',
    name: 'demo',
    params: z.object({ entityType: z.string(), batchSize: z.number().int().positive().default(5000) }),
    handler: (params) => params,
  });
  const messageOf = (body: unknown) => {
    try {
      parseActionParams(action, body);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      return (error as ApiError).message;
    }
    throw new Error('expected a 400');
  };

  it('applies defaults and reads an empty body as no parameters', () => {
    expect(parseActionParams(action, { entityType: 'dataset' })).toEqual({ entityType: 'dataset', batchSize: 5000 });
    expect(messageOf(undefined)).toBe("Parameter 'entityType' of action 'demo': is required");
  });

  it('names the parameter and the rule', () => {
    expect(messageOf({ entityType: 3 })).toBe("Parameter 'entityType' of action 'demo': must be a string");
    expect(messageOf({ entityType: 'x', batchSize: 0 })).toMatch(/^Parameter 'batchSize' of action 'demo': .*>0/);
    expect(messageOf([1])).toBe("Body of action 'demo': must be an object");
  });
});

describe('errors', () => {
  it('carry DataHub’s code and type for GraphQL and a status for REST', () => {
    const error = forbidden();
    expect(error.status).toBe(403);
    expect(error.toJSON()).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      extensions: { code: 403, type: 'UNAUTHORIZED' },
    });
  });
});

describe('buildApiSchema', () => {
  // Two modules as packages give theirs: SDL beside their resolvers, each extending the base's roots.
  const schema = buildApiSchema([
    {
      typeDefs: ['extend type Query { appConfig: AppConfig }  type AppConfig { appVersion: String }'],
      resolvers: { Query: { appConfig: () => ({ appVersion: '1.2.3' }) } },
    },
    {
      typeDefs: ['extend type Query { tagCount: Int }  extend type Mutation { noop: Boolean }  extend type AppConfig { name: String }'],
      resolvers: { Query: { tagCount: () => 3 } as never },
    },
  ]);

  it('assembles the base SDL and every module’s, `extend type` included, with the resolvers each gives', async () => {
    expect(await graphql({ schema, source: '{ appConfig { appVersion } tagCount }' })).toEqual({
      data: { appConfig: { appVersion: '1.2.3' }, tagCount: 3 },
    });
    for (const type of ['AuditStamp', 'Entity', 'EntityType', 'CorpUser', 'Mutation']) expect(schema.getType(type)).toBeDefined();
    expect(Object.keys((schema.getType('AppConfig') as import('graphql').GraphQLObjectType).getFields())).toEqual(['appVersion', 'name']);
  });

  it('keeps no source locations in the schema it serves (they would stay in memory for the life of the process)', () => {
    const appConfig = schema.getType('AppConfig') as import('graphql').GraphQLObjectType;
    expect(appConfig.astNode?.name.value).toBe('AppConfig');
    expect([appConfig.astNode?.loc, appConfig.extensionASTNodes[0]?.loc, appConfig.getFields().name!.astNode?.loc]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('has a Mutation root only when a module gives mutations', async () => {
    const queriesOnly = buildApiSchema([
      { typeDefs: ['extend type Query { ping: Int }'], resolvers: { Query: { ping: () => 1 } as never } },
    ]);
    expect(queriesOnly.getMutationType()).toBeUndefined();
    expect(await graphql({ schema: queriesOnly, source: '{ ping }' })).toEqual({ data: { ping: 1 } });
    expect(schema.getMutationType()?.name).toBe('Mutation');
  });

  it('Long takes integers and digit strings, and refuses the rest', async () => {
    const long = schema.getType('Long') as import('graphql').GraphQLScalarType;
    expect(long.parseValue(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(long.parseValue('1700000000000')).toBe(1_700_000_000_000);
    expect(() => long.parseValue(1.5)).toThrow(/Long cannot represent 1.5/);
    expect(() => long.parseValue('soon')).toThrow(/Long cannot represent/);
  });
});

describe('resolversIfDeclared', () => {
  const sdl = [
    'extend type Query { word: String }',
    'type Word implements Entity { urn: String! type: EntityType! relationships(input: RelationshipsInput!): EntityRelationshipsResult }',
  ];
  // A fresh map each time: marking one marks that object.
  const everyEntity = () => ({
    Word: { relationships: () => ({ relationships: [] }), notAField: () => 1 },
    Absent: { relationships: () => null },
  });

  it('keeps the resolvers of declared types and fields, and drops the others, for a map so marked', async () => {
    const schema = buildApiSchema([
      { typeDefs: sdl, resolvers: [{ Query: { word: () => 'w' } }, resolversIfDeclared(everyEntity())] as never },
    ]);
    expect(schema.getType('Absent')).toBeUndefined();
    expect((await graphql({ schema, source: '{ word }' })).data).toEqual({ word: 'w' });
  });

  it('still refuses an unmarked resolver of a type the schema does not declare', () => {
    expect(() => buildApiSchema([{ typeDefs: sdl, resolvers: [everyEntity()] as never }])).toThrow(/Absent.*not in schema|notAField/);
  });
});
