import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildModel, type ModelInputs, type RegistryEntity } from './model';
import { parsePdl, printPdl, type Json, type NamedDecl, type PdlFile, type Props, type TypeExpr } from './pdl';
import { Schemas } from './schema';

/**
 * Reading DataHub's model from a checkout and writing its facts into `packages/core/model/` (the vendored inputs the
 * generator reads in CI): the entity registry without its doc texts, every PDL file the registry's aspects (and the
 * MCE snapshots) reach without comments or prose, and GraphQL's entity type names.
 */

/** Where DataHub keeps the PDL roots metadata-models builds from (its own and li-utils'). */
const PEGASUS_ROOTS = ['metadata-models/src/main/pegasus', 'li-utils/src/main/pegasus'];
const REGISTRY = 'metadata-models/src/main/resources/entity-registry.yml';
const GRAPHQL_JAVA = 'datahub-graphql-core/src/main/java/com/linkedin/datahub/graphql';
const CONSTANTS = 'li-utils/src/main/java/com/linkedin/metadata/Constants.java';

export const MODEL_DIR = new URL('../model/', import.meta.url).pathname;
export const PEGASUS_DIR = join(MODEL_DIR, 'pegasus');
export const REGISTRY_FILE = join(MODEL_DIR, 'entity-registry.yml');
export const GRAPHQL_FILE = join(MODEL_DIR, 'graphql-entity-types.yml');

function filesUnder(root: string, suffix: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(suffix)) out.push(path);
    }
  };
  walk(root);
  return out;
}

/** PDL files under a root by their path relative to it. */
export function readPdlTree(root: string): Map<string, PdlFile> {
  return new Map(filesUnder(root, '.pdl').map((path) => [relative(root, path), parsePdl(readFileSync(path, 'utf8'), path)]));
}

function registryEntities(text: string, where: string): RegistryEntity[] {
  const doc = parseYaml(text) as { entities?: unknown };
  if (!Array.isArray(doc.entities)) throw new Error(`${where}: no entities list`);
  return doc.entities.map((raw: Record<string, unknown>) => {
    const { name, category, keyAspect, aspects } = raw;
    if (typeof name !== 'string' || typeof keyAspect !== 'string') throw new Error(`${where}: an entity without name or keyAspect`);
    const list = Array.isArray(aspects) ? aspects.filter((a): a is string => typeof a === 'string') : [];
    return { name, ...(typeof category === 'string' ? { category } : {}), keyAspect, aspects: list };
  });
}

/** The registry file as vendored: name, category, key aspect and aspects of each entity; doc texts left out. */
export function printRegistry(entities: readonly RegistryEntity[], source: ModelInputs['source']): string {
  const lines = [
    `# DataHub's entity registry (${REGISTRY}) at ${source.repository}@${source.commit},`,
    '# as vendored by `pnpm --filter @mds/core model:update`: the entities and their aspects, without doc texts.',
    `repository: ${source.repository}`,
    `commit: ${source.commit}`,
    'entities:',
  ];
  for (const e of entities) {
    lines.push(`  - name: ${e.name}`);
    if (e.category) lines.push(`    category: ${e.category}`);
    lines.push(`    keyAspect: ${e.keyAspect}`);
    if (!e.aspects.length) lines.push('    aspects: []');
    else lines.push('    aspects:', ...e.aspects.map((a) => `      - ${a}`));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * GraphQL's `EntityType` of each entity: DataHub's EntityTypeMapper, then the GraphQL types that each serve one
 * entity (`VersionSetType` returns `VERSION_SET` for `versionSet`), for the entities the mapper leaves out.
 */
export function graphqlEntityTypes(checkout: string): Record<string, string> {
  const constants = new Map<string, string>();
  for (const m of readFileSync(join(checkout, CONSTANTS), 'utf8').matchAll(/static final String (\w+)\s*=\s*"([^"]*)";/g)) {
    constants.set(m[1]!, m[2]!);
  }
  const byEntity = new Map<string, string>();
  const mapper = readFileSync(join(checkout, GRAPHQL_JAVA, 'types/entitytype/EntityTypeMapper.java'), 'utf8');
  for (const m of mapper.matchAll(/\.put\(\s*EntityType\.(\w+),\s*Constants\.(\w+)\s*\)/g)) {
    const entity = constants.get(m[2]!);
    if (!entity) throw new Error(`EntityTypeMapper names Constants.${m[2]}, which Constants.java lacks`);
    byEntity.set(entity, m[1]!);
  }
  for (const path of filesUnder(join(checkout, GRAPHQL_JAVA, 'types'), 'Type.java')) {
    const text = readFileSync(path, 'utf8');
    const returned = new Set([...text.matchAll(/return EntityType\.(\w+);/g)].map((m) => m[1]!).filter((t) => t !== 'OTHER'));
    const names = new Set(
      [...text.matchAll(/\b([A-Z][A-Z_]*_ENTITY_NAME)\b/g)].map((m) => constants.get(m[1]!)).filter((n) => n !== undefined),
    );
    if (returned.size !== 1 || names.size !== 1) continue;
    const [entity] = names;
    if (!byEntity.has(entity!)) byEntity.set(entity!, [...returned][0]!);
  }
  return Object.fromEntries([...byEntity].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function printGraphqlTypes(types: Readonly<Record<string, string>>, source: ModelInputs['source']): string {
  const lines = [
    `# GraphQL's EntityType of each entity at ${source.repository}@${source.commit}: DataHub's EntityTypeMapper`,
    '# (datahub-graphql-core), then the GraphQL types that each serve one entity. Entities missing here are OTHER.',
    ...Object.entries(types).map(([entity, type]) => `${entity}: ${type}`),
  ];
  return `${lines.join('\n')}\n`;
}

// --- Facts only: what the vendored PDL keeps ------------------------------------------------------------------

/** Annotation values keep their facts; `doc` texts go, and `@deprecated` keeps only that it is deprecated. */
function factsOfProps(props: Props): Props {
  const strip = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === 'doc' ? [] : [[k, strip(v)]])));
  };
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, k.toLowerCase() === 'deprecated' ? true : strip(v)]));
}

function factsOfType(type: TypeExpr): TypeExpr {
  switch (type.kind) {
    case 'name':
      return type;
    case 'array':
      return { kind: 'array', items: factsOfType(type.items) };
    case 'map':
      return { kind: 'map', keys: factsOfType(type.keys), values: factsOfType(type.values) };
    case 'union':
      return { kind: 'union', members: type.members.map((m) => ({ ...m, type: factsOfType(m.type), props: factsOfProps(m.props) })) };
    case 'decl':
      return { kind: 'decl', decl: factsOfDecl(type.decl) };
  }
}

function factsOfDecl(decl: NamedDecl): NamedDecl {
  const props = factsOfProps(decl.props);
  switch (decl.kind) {
    case 'record':
      return {
        ...decl,
        props,
        includes: decl.includes.map(factsOfType),
        fields: decl.fields.map((f) => ({ ...f, type: factsOfType(f.type), props: factsOfProps(f.props) })),
      };
    case 'enum':
      return { ...decl, props, symbols: decl.symbols.map((s) => ({ ...s, props: factsOfProps(s.props) })) };
    case 'typeref':
      return { ...decl, props, ref: factsOfType(decl.ref) };
    case 'fixed':
      return { ...decl, props };
  }
}

export const factsOfFile = (file: PdlFile): PdlFile => ({ ...file, decl: factsOfDecl(file.decl) });

// --- Reading the vendored inputs ------------------------------------------------------------------------------

/** The vendored inputs in `model/`, as the generator reads them. */
export function readVendored(dir = MODEL_DIR): ModelInputs {
  const registryText = readFileSync(join(dir, 'entity-registry.yml'), 'utf8');
  const registry = parseYaml(registryText) as { repository?: unknown; commit?: unknown };
  if (typeof registry.repository !== 'string' || typeof registry.commit !== 'string')
    throw new Error('entity-registry.yml names no source');
  const graphqlTypes = (parseYaml(readFileSync(join(dir, 'graphql-entity-types.yml'), 'utf8')) ?? {}) as Record<string, string>;
  return {
    source: { repository: registry.repository, commit: registry.commit },
    entities: registryEntities(registryText, 'entity-registry.yml'),
    graphqlTypes,
    files: readPdlTree(join(dir, 'pegasus')),
  };
}

/** Reads a DataHub checkout and writes its model's facts into `dir`; answers how many PDL files it kept. */
export function vendor(checkout: string, source: ModelInputs['source'], dir = MODEL_DIR): number {
  const files = new Map<string, PdlFile>();
  for (const root of PEGASUS_ROOTS) {
    for (const [path, file] of readPdlTree(join(checkout, root))) {
      if (files.has(path)) throw new Error(`${path} is in two PDL roots`);
      files.set(path, file);
    }
  }
  const inputs: ModelInputs = {
    source,
    entities: registryEntities(readFileSync(join(checkout, REGISTRY), 'utf8'), REGISTRY),
    graphqlTypes: graphqlEntityTypes(checkout),
    files,
  };
  const model = buildModel(inputs);
  const schemas = new Schemas(files);
  const kept = [...new Set(Object.keys(model.types).map((name) => schemas.pathOf(name)))].sort();

  rmSync(join(dir, 'pegasus'), { recursive: true, force: true });
  for (const path of kept) {
    const target = join(dir, 'pegasus', path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, printPdl(factsOfFile(files.get(path)!)));
  }
  writeFileSync(join(dir, 'entity-registry.yml'), printRegistry(inputs.entities, source));
  writeFileSync(join(dir, 'graphql-entity-types.yml'), printGraphqlTypes(inputs.graphqlTypes, source));
  writeFileSync(join(dir, 'SOURCE.md'), sourceNote(source, kept.length, inputs.entities.length));
  return kept.length;
}

/** The commit of a git checkout, when it is one. */
export function commitOf(checkout: string): string | undefined {
  try {
    return execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function sourceNote(source: ModelInputs['source'], pdlFiles: number, entities: number): string {
  return `# DataHub's model, vendored

The facts of DataHub's metadata model that \`@mds/core\` generates its registry and validators from
(\`src/model/datahub-model.json\`), so that CI needs no DataHub checkout.

- **Source:** \`${source.repository}\` at commit \`${source.commit}\`.
- \`entity-registry.yml\`: the ${entities} entities of \`${REGISTRY}\` (name, category, key aspect, aspects), without
  their \`doc\` texts.
- \`pegasus/\`: the ${pdlFiles} PDL files of \`${PEGASUS_ROOTS.join('` and `')}\` that the registry's aspects and the MCE
  snapshot records reach (records, enums, typerefs, unions, includes), as names, types and annotations only: every
  comment and doc text is removed, \`@deprecated\` keeps no text, and annotation values lose their \`doc\` entries.
  They are written by mds's own PDL printer (\`generator/pdl.ts\`), so their layout is not DataHub's.
- \`graphql-entity-types.yml\`: GraphQL's \`EntityType\` of each entity, read from DataHub's \`EntityTypeMapper.java\`
  and the GraphQL type classes of \`datahub-graphql-core\`.

To re-vendor from a newer checkout and regenerate: \`pnpm --filter @mds/core model:update --from <checkout>\`
(\`--commit <sha>\` when the checkout is no git repository). \`pnpm --filter @mds/core model:generate\` regenerates
from the vendored files alone; \`test/model-generator.test.ts\` fails when the committed output differs from that.
`;
}
