import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relationshipsOfRecord, searchableOfRecord, urnValidationsOfRecord } from '../generator/annotations';
import { emitModel, OUTPUT_FILE } from '../generator/emit';
import { buildModel, type ModelInputs } from '../generator/model';
import { parsePdl, PdlError, printPdl } from '../generator/pdl';
import { Schemas, type RDecl } from '../generator/schema';
import { factsOfFile, MODEL_DIR, PEGASUS_DIR, readVendored, vendor } from '../generator/vendor';

const DATAHUB_COMMIT = 'c731e725ff4293ef783eed998b135612d8a13218';

describe('the generated model', () => {
  it('is what the generator makes of the vendored inputs (run `pnpm --filter @mds/core model:generate` when not)', () => {
    const model = buildModel(readVendored());
    expect(emitModel(model)).toBe(readFileSync(OUTPUT_FILE, 'utf8'));
  });

  it('names the DataHub commit it was generated from, first', () => {
    const text = readFileSync(OUTPUT_FILE, 'utf8');
    expect(text.split('\n')[1]).toContain(`"commit":"${DATAHUB_COMMIT}"`);
    expect(readFileSync(join(MODEL_DIR, 'SOURCE.md'), 'utf8')).toContain(DATAHUB_COMMIT);
  });
});

function pdlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? pdlFiles(path) : [path];
  });
}

describe('the vendored PDL files', () => {
  const files = pdlFiles(PEGASUS_DIR);

  it('hold names, types and annotations only: no comments, no doc texts, printed as the printer prints them', () => {
    expect(files.length).toBeGreaterThan(400);
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
      expect(outsideStrings, path).not.toMatch(/\/\/|\/\*/);
      expect(text, path).not.toMatch(/"doc"\s*:/);
      expect(printPdl(factsOfFile(parsePdl(text, path))), path).toBe(text);
    }
  });

  it('keep what @deprecated says only as a flag', () => {
    const deprecated = files.map((path) => readFileSync(path, 'utf8')).filter((text) => /@deprecated/i.test(text));
    expect(deprecated.length).toBeGreaterThan(10);
    for (const text of deprecated) expect(text).not.toMatch(/@deprecated = /i);
  });
});

/** A set of PDL files from texts keyed by path. */
const filesOf = (texts: Record<string, string>) =>
  new Map(Object.entries(texts).map(([path, text]) => [path, parsePdl(text, path)] as const));
const recordOf = (schemas: Schemas, name: string) => schemas.get(name) as RDecl & { kind: 'record' };

describe('the PDL reader', () => {
  it('reads records, optional fields, defaults, arrays, maps, enums, typerefs and aliased unions', () => {
    const file = parsePdl(`
      namespace com.example
      import com.example.other.Thing
      /** A doc comment. */
      @Aspect = { "name": "example", "type": "timeseries" }
      record Example includes Base {
        // a line comment
        id: string
        count: optional long = 0
        tags: array[string] = [ ]
        props: map[string, Thing]
        kind: enum Kind { A @deprecated B }
        cost: union[costId: double, costCode: string]
        @java.class = "x.Y"
        @validate.\`a.b.C\` = { "max": 2 }
        ref: typeref Ref = string
      }`);
    expect(file.namespace).toBe('com.example');
    expect(file.imports).toEqual(['com.example.other.Thing']);
    const decl = file.decl;
    expect(decl).toMatchObject({ kind: 'record', name: 'Example', props: { Aspect: { name: 'example', type: 'timeseries' } } });
    if (decl.kind !== 'record') throw new Error('no record');
    expect(decl.includes).toEqual([{ kind: 'name', name: 'Base' }]);
    expect(decl.fields.map((f) => [f.name, f.optional, f.default])).toEqual([
      ['id', false, undefined],
      ['count', true, 0],
      ['tags', false, []],
      ['props', false, undefined],
      ['kind', false, undefined],
      ['cost', false, undefined],
      ['ref', false, undefined],
    ]);
    expect(decl.fields[3]!.type).toEqual({ kind: 'map', keys: { kind: 'name', name: 'string' }, values: { kind: 'name', name: 'Thing' } });
    expect(decl.fields[4]!.type).toMatchObject({
      kind: 'decl',
      decl: { kind: 'enum', symbols: [{ name: 'A' }, { name: 'B', props: { deprecated: true } }] },
    });
    expect(decl.fields[5]!.type).toMatchObject({ kind: 'union', members: [{ alias: 'costId' }, { alias: 'costCode' }] });
    expect(decl.fields[6]!.props).toEqual({ java: { class: 'x.Y' }, validate: { 'a.b.C': { max: 2 } } });
  });

  it('prints what it reads, and reads what it prints', () => {
    const text = `namespace a\n\n@Aspect = {"name":"x"}\nrecord X {\n  @Searchable = {"/*":{"fieldType":"KEYWORD"}}\n  tags: optional array[string] = []\n  u: union[\n    string,\n    n: long\n  ]\n}\n`;
    expect(printPdl(parsePdl(text))).toBe(text);
  });

  it('refuses text that is no PDL, naming where', () => {
    expect(() => parsePdl('record X { a string }', 'X.pdl')).toThrow(new PdlError("X.pdl: expected ':' at offset 13"));
    expect(() => parsePdl('record X { a: string } extra', 'X.pdl')).toThrow(/text after the declaration/);
  });

  it('resolves names through imports, the namespace and inline declarations, and flattens includes first', () => {
    const schemas = new Schemas(
      filesOf({
        'a/Base.pdl': 'namespace a\nrecord Base { created: long }',
        'b/Thing.pdl': 'namespace b\nrecord Thing { inner: enum Inner { X } }',
        'a/Main.pdl': 'namespace a\nimport b.Thing\nrecord Main includes Base { thing: Thing  also: b.Inner  base: Base }',
      }),
    );
    const main = recordOf(schemas, 'a.Main');
    expect(main.fields.map((f) => [f.name, f.type])).toEqual([
      ['created', { k: 'primitive', name: 'long' }],
      ['thing', { k: 'named', name: 'b.Thing' }],
      ['also', { k: 'named', name: 'b.Inner' }],
      ['base', { k: 'named', name: 'a.Base' }],
    ]);
    expect(schemas.get('b.Inner')).toMatchObject({ kind: 'enum', symbols: ['X'] });
    const broken = new Schemas(filesOf({ 'a/X.pdl': 'namespace a\nrecord X { y: Missing }' }));
    expect(() => broken.get('a.X')).toThrow('a/X.pdl: cannot resolve Missing (in a.X)');
  });

  it('keys union members by alias, full name, or the primitive a typeref names', () => {
    const schemas = new Schemas(
      filesOf({
        'a/U.pdl': 'namespace a\nrecord U { u: union[Urnish, R, long, alias: string] }',
        'a/Urnish.pdl': 'namespace a\ntyperef Urnish = string',
        'a/R.pdl': 'namespace a\nrecord R {}',
      }),
    );
    const field = recordOf(schemas, 'a.U').fields[0]!;
    expect(field.type.k === 'union' && field.type.members.map((m) => m.key)).toEqual(['string', 'a.R', 'long', 'alias']);
  });
});

describe('annotations as DataHub resolves them', () => {
  const schemas = new Schemas(
    filesOf({
      'a/Tag.pdl': `namespace a
        record TagAssociation {
          @Relationship = { "name": "Inner", "entityTypes": ["tag"] }
          tag: string
          @Searchable = { "fieldName": "tagTime" }
          time: int
        }`,
      'a/Tags.pdl': `namespace a
        @Aspect = { "name": "tags" }
        record Tags {
          @Relationship = { "/*/tag": { "name": "TaggedWith", "entityTypes": ["tag"], "isLineage": true } }
          @Searchable = { "/*/tag": { "fieldName": "tags", "fieldType": "URN", "addToFilters": true, "filterNameOverride": "Tag" } }
          tags: array[TagAssociation]
          more: array[TagAssociation]
          @Searchable = { "/*": { "fieldType": "TEXT" } }
          props: map[string, string]
          @Searchable = { "fieldName": "tags", "boostScore": 2.0 }
          other: string
          @UrnValidation = { "exist": true, "strict": true, "entityTypes": ["dataType"] }
          valueType: string
        }`,
    }),
  );
  const tags = recordOf(schemas, 'a.Tags');

  it('an override on an enclosing field wins over the inner field’s own annotation; the inner one applies elsewhere', () => {
    expect(relationshipsOfRecord(schemas, tags).map((r) => [r.path, r.name, r.isLineage, r.isUpstream])).toEqual([
      ['/tags/*/tag', 'TaggedWith', true, true],
      ['/more/*/tag', 'Inner', false, true],
    ]);
  });

  it('search fields take DataHub’s defaults, a map field its first override, and a second use of a name its path', () => {
    const fields = searchableOfRecord(schemas, tags);
    expect(fields.map((f) => [f.path, f.fieldName, f.fieldType, f.queryByDefault, f.boostScore])).toEqual([
      ['/tags/*/tag', 'tags', 'URN', true, 1],
      ['/tags/*/time', 'tagTime', 'COUNT', false, 1],
      ['/more/*/time', 'more__time', 'COUNT', false, 1],
      ['/props', 'props', 'TEXT', true, 1],
      ['/other', 'other', 'TEXT', true, 2],
    ]);
    expect(fields[0]).toMatchObject({ addToFilters: true, filterNameOverride: 'Tag' });
  });

  it('@UrnValidation is read from the field itself', () => {
    expect(urnValidationsOfRecord(schemas, tags)).toEqual([{ path: '/valueType', exist: true, strict: true, entityTypes: ['dataType'] }]);
  });
});

describe('the model builder', () => {
  const inputs = (files: Record<string, string>): ModelInputs => ({
    source: { repository: 'example/repo', commit: 'abc' },
    entities: [{ name: 'thing', keyAspect: 'thingKey', aspects: ['thingInfo', 'thingStats'] }],
    graphqlTypes: { thing: 'THING' },
    files: filesOf(files),
  });
  const files = {
    'a/ThingKey.pdl': 'namespace a\n@Aspect = {"name": "thingKey"}\nrecord ThingKey { id: string }',
    'a/ThingInfo.pdl': 'namespace a\n@Aspect = {"name": "thingInfo"}\nrecord ThingInfo { name: string  owner: Owner }',
    'a/Owner.pdl': 'namespace a\nrecord Owner { who: string }',
    'a/ThingStats.pdl': 'namespace a\n@Aspect = {"name": "thingStats", "type": "timeseries"}\nrecord ThingStats { timestampMillis: long }',
    'a/Unused.pdl': 'namespace a\nrecord Unused { x: string }',
  };

  it('gives each aspect its kind and class, each entity its GraphQL type, and keeps only the types aspects reach', () => {
    const model = buildModel(inputs(files));
    expect(model.entities).toEqual([{ name: 'thing', keyAspect: 'thingKey', aspects: ['thingInfo', 'thingStats'], graphqlType: 'THING' }]);
    expect(Object.entries(model.aspects).map(([name, a]) => [name, a.kind, a.class])).toEqual([
      ['thingKey', 'key', 'a.ThingKey'],
      ['thingInfo', 'versioned', 'a.ThingInfo'],
      ['thingStats', 'timeseries', 'a.ThingStats'],
    ]);
    expect(Object.keys(model.types)).toEqual(['a.Owner', 'a.ThingInfo', 'a.ThingKey', 'a.ThingStats']);
  });

  it("keeps @Aspect autoRender and renderSpec (as DataHub's custom-model example declares them), only where set", () => {
    const rendered = {
      ...files,
      'a/ThingInfo.pdl':
        'namespace a\n@Aspect = {"name": "thingInfo", "autoRender": true, "renderSpec": {"displayType": "tabular", "key": "rules", "displayName": "Rules"}}\n' +
        'record ThingInfo { name: string  owner: Owner }',
    };
    const model = buildModel(inputs(rendered));
    expect(model.aspects.thingInfo).toMatchObject({
      autoRender: true,
      renderSpec: { displayType: 'tabular', key: 'rules', displayName: 'Rules' },
    });
    expect(model.aspects.thingKey).not.toHaveProperty('autoRender');
    expect(model.aspects.thingKey).not.toHaveProperty('renderSpec');
  });

  it('refuses a registry aspect no record declares', () => {
    const { 'a/ThingStats.pdl': _, ...without } = files;
    expect(() => buildModel(inputs(without))).toThrow('entity thing lists aspect thingStats, which no PDL record declares');
  });
});

describe('model:update (vendoring from a checkout)', () => {
  /** A DataHub checkout in miniature: the registry, PDL in both roots, and the GraphQL type mapping's Java. */
  function checkout(): string {
    const root = mkdtempSync(join(tmpdir(), 'datahub-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write(
      'metadata-models/src/main/resources/entity-registry.yml',
      'entities:\n  - name: thing\n    doc: A thing, described at length.\n    category: core\n    keyAspect: thingKey\n    aspects:\n      - thingInfo\nplugins: {}\n',
    );
    const pegasus = 'metadata-models/src/main/pegasus/com/example';
    write(
      `${pegasus}/ThingKey.pdl`,
      'namespace com.example\n/** The key. */\n@Aspect = {"name": "thingKey"}\nrecord ThingKey { id: string }',
    );
    write(
      `${pegasus}/ThingInfo.pdl`,
      'namespace com.example\nimport com.linkedin.common.Urn\n@Aspect = {"name": "thingInfo"}\nrecord ThingInfo {\n  // a comment\n  @deprecated = "use other"\n  owner: Urn\n}',
    );
    write(`${pegasus}/Unreached.pdl`, 'namespace com.example\nrecord Unreached { x: string }');
    write(
      'li-utils/src/main/pegasus/com/linkedin/common/Urn.pdl',
      'namespace com.linkedin.common\n@java.class = "com.linkedin.common.urn.Urn"\ntyperef Urn = string',
    );
    write(
      'li-utils/src/main/java/com/linkedin/metadata/Constants.java',
      'class C { public static final String THING_ENTITY_NAME = "thing"; }',
    );
    const graphql = 'datahub-graphql-core/src/main/java/com/linkedin/datahub/graphql/types';
    write(`${graphql}/entitytype/EntityTypeMapper.java`, 'x.put(EntityType.THING, Constants.THING_ENTITY_NAME)');
    return root;
  }

  it('keeps the files the aspects reach, without comments or doc texts, and what the generator needs beside them', () => {
    const from = checkout();
    const out = mkdtempSync(join(tmpdir(), 'model-'));
    try {
      const source = { repository: 'example/datahub', commit: 'abc123' };
      expect(vendor(from, source, out)).toBe(3);
      expect(
        pdlFiles(join(out, 'pegasus'))
          .map((p) => p.slice(out.length))
          .sort(),
      ).toEqual(['/pegasus/com/example/ThingInfo.pdl', '/pegasus/com/example/ThingKey.pdl', '/pegasus/com/linkedin/common/Urn.pdl']);
      expect(readFileSync(join(out, 'pegasus/com/example/ThingInfo.pdl'), 'utf8')).toBe(
        'namespace com.example\n\nimport com.linkedin.common.Urn\n\n@Aspect = {"name":"thingInfo"}\nrecord ThingInfo {\n  @deprecated\n  owner: Urn\n}\n',
      );
      const registry = readFileSync(join(out, 'entity-registry.yml'), 'utf8');
      expect(registry).not.toContain('described at length');
      expect(readFileSync(join(out, 'graphql-entity-types.yml'), 'utf8')).toContain('thing: THING');
      expect(readFileSync(join(out, 'SOURCE.md'), 'utf8')).toContain('`example/datahub` at commit `abc123`');
      const model = buildModel(readVendored(out));
      expect(model.source).toEqual(source);
      expect(model.entities).toEqual([
        { name: 'thing', category: 'core', keyAspect: 'thingKey', aspects: ['thingInfo'], graphqlType: 'THING' },
      ]);
    } finally {
      rmSync(from, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});
