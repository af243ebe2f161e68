import { badRequest, unprocessable } from '@mds/schema';

/**
 * DataHub PATCH (entities-api §6.6): keyed arrays of the aspect become maps, the RFC 6902 ops run on that
 * transformed document, and the maps become arrays again (original order kept, new keys appended).
 * Keyed arrays are held as `Map`s, not objects, so insertion order survives keys that look like array indexes.
 */

type Obj = Record<string, unknown>;
type Container = Obj | unknown[] | Map<string, unknown>;

/** What the engine knows about a position in the aspect; positions it knows nothing about are `undefined`. */
type Shape = ObjectShape | MapShape | KeyedShape | LevelShape;
interface ObjectShape {
  readonly kind: 'object';
  readonly fields: Readonly<Record<string, Shape>>;
  /** The value created when a patch adds below this object while it is absent (DataHub's template default). */
  readonly init?: () => Obj;
}
/** A plain map (`customProperties`): patched as is, only created on demand; `below`: what its values are. */
interface MapShape {
  readonly kind: 'map';
  readonly below?: Shape;
}
/** An array patched as a map keyed by `keys[0]`, then (nested maps) by `keys[1]`, ... Each key is a field path. */
interface KeyedShape {
  readonly kind: 'keyed';
  readonly keys: readonly (readonly string[])[];
  readonly item: Shape;
}
/** An inner map of a multi-key array (`/owners/<owner>` is level 1 of `owners`). */
interface LevelShape {
  readonly kind: 'level';
  readonly of: KeyedShape;
  readonly level: number;
}

/** Joins the parts of a nested key field in `arrayPrimaryKeys` (`attribution␟source`). */
const KEY_PART_SEPARATOR = '\u241F';
const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

const object = (fields: Record<string, Shape>, init?: () => Obj): ObjectShape => ({ kind: 'object', fields, init });
const keyed = (keys: readonly string[], item: Shape = object({})): KeyedShape => ({
  kind: 'keyed',
  keys: keys.map((key) => key.split(KEY_PART_SEPARATOR)),
  item,
});
const MAP: MapShape = { kind: 'map' };
const mapOf = (below: Shape): MapShape => ({ kind: 'map', below });
/**
 * `upstreamLineage.fineGrainedLineages` as DataHub's fine-grained lineage template patches it: maps of transform
 * operation → downstream field → query → upstream field → `{confidenceScore, upstreamType, downstreamType}`.
 */
const FINE_GRAINED = mapOf(mapOf(mapOf(MAP)));

// Required fields get placeholders, as DataHub's templates do, so a patch on an absent aspect can validate.
// Stamps use time 0 (not "now") so a patch's result depends on its input only.
const systemStamp = () => ({ time: 0, actor: SYSTEM_ACTOR });
const changeStamps = () => ({ created: systemStamp(), lastModified: systemStamp() });
const TAGS = object({ tags: keyed(['tag']) }, () => ({ tags: [] }));
const TERMS = object({ terms: keyed(['urn']) }, () => ({ terms: [], auditStamp: systemStamp() }));
const EDGES = keyed(['destinationUrn']);

/** Aspects with a patch template, each the shape of its root object; `init` is the empty value. */
const TEMPLATES: Readonly<Record<string, ObjectShape>> = {
  globalTags: TAGS,
  glossaryTerms: TERMS,
  // DataHub 1.x has a StatusTemplate (entity-registry/.../patch/template/common), and its ingestion sources emit
  // `add /removed` patches (kafka golden): entities-api §6.6 predates it.
  status: object({}, () => ({ removed: false })),
  ownership: object({ owners: keyed(['owner', 'type']) }, () => ({ owners: [] })),
  upstreamLineage: object({ upstreams: keyed(['dataset']), fineGrainedLineages: FINE_GRAINED }, () => ({
    upstreams: [],
    fineGrainedLineages: [],
  })),
  editableSchemaMetadata: object(
    { editableSchemaFieldInfo: keyed(['fieldPath'], object({ globalTags: TAGS, glossaryTerms: TERMS })) },
    () => ({ editableSchemaFieldInfo: [] }),
  ),
  datasetProperties: object({ customProperties: MAP }, () => ({ customProperties: {} })),
  dataFlowInfo: object({ customProperties: MAP }, () => ({ name: '', customProperties: {} })),
  dataJobInfo: object({ customProperties: MAP }, () => ({ name: '', type: { string: '' }, customProperties: {} })),
  containerProperties: object({ customProperties: MAP }, () => ({ name: '', customProperties: {} })),
  chartInfo: object({ customProperties: MAP, inputEdges: EDGES }, () => ({
    title: '',
    description: '',
    lastModified: changeStamps(),
    customProperties: {},
  })),
  dashboardInfo: object({ customProperties: MAP, datasetEdges: EDGES, chartEdges: EDGES }, () => ({
    title: '',
    description: '',
    lastModified: changeStamps(),
    customProperties: {},
  })),
  dataJobInputOutput: object({ inputDatasetEdges: EDGES, outputDatasetEdges: EDGES, inputDatajobEdges: EDGES }, () => ({
    inputDatasets: [],
    outputDatasets: [],
  })),
  // DataHub's SiblingsTemplate: the urns keyed by themselves (`add /siblings/<urn>`), `primary` false until set.
  siblings: object({ siblings: { kind: 'keyed', keys: [[]], item: object({}) } }, () => ({ siblings: [], primary: false })),
};

/** Aspects with a patch template; others are refused. */
export function supportsPatch(aspectName: string): boolean {
  return Object.hasOwn(TEMPLATES, aspectName);
}

/**
 * Applies a DataHub patch (the parsed JSON of aspect.value of a PATCH MCP: either an RFC 6902 array, or
 * {patch:[...], arrayPrimaryKeys?:{field:[keys]}, forceGenericPatch?:boolean}) to the latest value
 * (undefined when the aspect is absent: start from the template's empty value). Returns the new value;
 * never mutates `current`.
 */
export function applyPatch(aspectName: string, current: Record<string, unknown> | undefined, patch: unknown): Record<string, unknown> {
  const template = TEMPLATES[aspectName];
  if (!template || !Object.hasOwn(TEMPLATES, aspectName)) {
    throw unprocessable(`Aspect: ${aspectName} does not currently support patch operations.`);
  }
  const { ops, arrayPrimaryKeys } = parsePatch(patch);
  const shape = withPrimaryKeys(template, arrayPrimaryKeys);
  const fineGrained = aspectName === 'upstreamLineage';
  let start = current ?? template.init?.() ?? {};
  if (fineGrained) start = { ...start, fineGrainedLineages: fineGrainedMaps(start.fineGrainedLineages) };
  const doc = new Document(shape, inflate(start, shape) as Obj);
  ops.forEach((op, index) => doc.apply(op, index));
  const patched = deflate(doc.root, shape) as Obj;
  if (fineGrained) define(patched, 'fineGrainedLineages', fineGrainedArray(patched.fineGrainedLineages));
  return patched;
}

// ---------------------------------------------------------------------------------------------- fine-grained lineage

/** The fine-grained lineages as maps (FINE_GRAINED), each upstream with the score and types of its lineage. */
function fineGrainedMaps(lineages: unknown): Obj {
  const maps: Obj = {};
  const at = (parent: Obj, key: string): Obj => {
    if (!isPlainObject(own(parent, key))) define(parent, key, {});
    return own(parent, key) as Obj;
  };
  for (const lineage of Array.isArray(lineages) ? lineages : []) {
    if (!isPlainObject(lineage)) continue;
    const downstreams = lineage.downstreams;
    if (!Array.isArray(downstreams) || downstreams.length !== 1)
      throw unprocessable(
        'Patching not supported on fine grained lineages with not exactly one downstream: the patch template keys them by their downstream.',
      );
    const upstreams = Array.isArray(lineage.upstreams) ? lineage.upstreams.map(String) : [];
    const upstreamType =
      typeof lineage.upstreamType === 'string'
        ? lineage.upstreamType
        : upstreams[0]?.startsWith('urn:li:dataset:')
          ? 'DATASET'
          : 'FIELD_SET';
    const downstreamType = typeof lineage.downstreamType === 'string' ? lineage.downstreamType : 'FIELD';
    const confidenceScore = typeof lineage.confidenceScore === 'number' ? lineage.confidenceScore : 1;
    const operation = typeof lineage.transformOperation === 'string' ? lineage.transformOperation : 'NONE';
    const query = at(at(at(maps, operation), String(downstreams[0])), typeof lineage.query === 'string' ? lineage.query : 'NONE');
    for (const upstream of new Set(upstreams)) define(query, upstream, { confidenceScore, upstreamType, downstreamType });
  }
  return maps;
}

/**
 * The maps as fine-grained lineages again: one per (operation, downstream, query) with upstreams left, its score the
 * lowest of its upstreams', its types the last given; a value set whole (`add /fineGrainedLineages [...]`) stays.
 */
function fineGrainedArray(maps: unknown): unknown[] {
  if (Array.isArray(maps)) return maps;
  const lineages: unknown[] = [];
  const entries = (value: unknown) => (isPlainObject(value) ? Object.entries(value) : []);
  for (const [transformOperation, downstreams] of entries(maps))
    for (const [downstream, queries] of entries(downstreams))
      for (const [query, upstreams] of entries(queries)) {
        if (entries(upstreams).length === 0) continue;
        let confidenceScore = 1;
        let upstreamType = 'FIELD_SET';
        let downstreamType = 'FIELD';
        for (const [, value] of entries(upstreams)) {
          if (!isPlainObject(value)) continue;
          if (typeof value.confidenceScore === 'number' && value.confidenceScore <= confidenceScore)
            confidenceScore = value.confidenceScore;
          if (typeof value.upstreamType === 'string') upstreamType = value.upstreamType;
          if (typeof value.downstreamType === 'string') downstreamType = value.downstreamType;
        }
        lineages.push({
          downstreams: [downstream],
          upstreams: entries(upstreams).map(([upstream]) => upstream),
          ...(query !== 'NONE' && query.trim() !== '' ? { query } : {}),
          upstreamType,
          downstreamType,
          confidenceScore,
          transformOperation,
        });
      }
  return lineages;
}

// ---------------------------------------------------------------------------------------------- patch parsing

interface Operation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}
const OPS = new Set(['add', 'remove', 'replace', 'test', 'move', 'copy']);

const invalid = (what: string) => badRequest(`Invalid JSON Patch: ${what}`);

function parsePatch(patch: unknown): { ops: Operation[]; arrayPrimaryKeys: Record<string, string[]> } {
  if (Array.isArray(patch)) return { ops: patch.map(parseOperation), arrayPrimaryKeys: {} };
  if (!isPlainObject(patch) || !Array.isArray(patch.patch)) {
    throw invalid('expected an array of operations or an object with a "patch" array');
  }
  if (patch.forceGenericPatch !== undefined && typeof patch.forceGenericPatch !== 'boolean') {
    throw invalid('forceGenericPatch must be a boolean');
  }
  return { ops: patch.patch.map(parseOperation), arrayPrimaryKeys: parsePrimaryKeys(patch.arrayPrimaryKeys) };
}

function parsePrimaryKeys(value: unknown): Record<string, string[]> {
  if (value === undefined || value === null) return {};
  const ok =
    isPlainObject(value) &&
    Object.values(value).every(
      (keys) => Array.isArray(keys) && keys.length > 0 && keys.every((key) => typeof key === 'string' && key !== ''),
    );
  if (!ok) throw invalid('arrayPrimaryKeys must map array fields to non-empty lists of key fields');
  return value as Record<string, string[]>;
}

function parseOperation(raw: unknown, index: number): Operation {
  if (!isPlainObject(raw)) throw invalid(`operation ${index} is not an object`);
  const { op, path, from } = raw;
  if (typeof op !== 'string' || !OPS.has(op)) throw invalid(`operation ${index} has unknown op ${JSON.stringify(op) ?? 'undefined'}`);
  if (typeof path !== 'string') throw invalid(`operation ${index} (${op}) has no string path`);
  const hasValue = Object.hasOwn(raw, 'value');
  if ((op === 'add' || op === 'replace' || op === 'test') && !hasValue) throw invalid(`operation ${index} (${op} ${path}) has no value`);
  if ((op === 'move' || op === 'copy') && typeof from !== 'string') throw invalid(`operation ${index} (${op} ${path}) has no string from`);
  return { op, path, value: raw.value, from: from as string | undefined };
}

/** `arrayPrimaryKeys` names top-level array fields; it overrides (or adds) their key fields, keeping nested shapes. */
function withPrimaryKeys(shape: ObjectShape, overrides: Record<string, string[]>): ObjectShape {
  if (Object.keys(overrides).length === 0) return shape;
  const fields: Record<string, Shape> = { ...shape.fields };
  for (const [field, keys] of Object.entries(overrides)) {
    const known = own(shape.fields, field);
    fields[field] = keyed(keys, known?.kind === 'keyed' ? known.item : undefined);
  }
  return object(fields, shape.init);
}

// ---------------------------------------------------------------------------------------------- shapes

function childShape(shape: Shape | undefined, token: string): Shape | undefined {
  switch (shape?.kind) {
    case 'object':
      return own(shape.fields, token);
    case 'keyed':
      return levelOrItem(shape, 1);
    case 'level':
      return levelOrItem(shape.of, shape.level + 1);
    case 'map':
      return shape.below;
    default:
      return undefined;
  }
}

function levelOrItem(of: KeyedShape, level: number): Shape {
  return level < of.keys.length ? { kind: 'level', of, level } : of.item;
}

const isKeyed = (shape: Shape | undefined): shape is KeyedShape | LevelShape => shape?.kind === 'keyed' || shape?.kind === 'level';

/** The key of an array item for one key field: "" when missing, as the spec says for `arrayPrimaryKeys`. */
function keyOf(item: unknown, fieldPath: readonly string[]): string {
  let value = item;
  for (const part of fieldPath) value = isPlainObject(value) ? own(value, part) : undefined;
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

// ---------------------------------------------------------------------------------------------- transform

/** Containers created because a patch reached below an absent field; dropped again if still empty at the end. */
const vivified = new WeakSet<object>();

/** Plain JSON → the transformed document (keyed arrays as maps), deep-cloned. */
function inflate(value: unknown, shape: Shape | undefined): unknown {
  if (isKeyed(shape)) {
    if (Array.isArray(value)) return groupItems(value, shape.kind === 'keyed' ? shape : shape.of, shape.kind === 'keyed' ? 0 : shape.level);
    // A map-form value (`add /tags` with `{<key>: item}`) is already keyed.
    if (isPlainObject(value)) return new Map(Object.entries(value).map(([key, v]) => [key, inflate(v, childShape(shape, key))]));
  }
  if (Array.isArray(value)) return value.map((item) => inflate(item, undefined));
  if (isPlainObject(value)) {
    const out: Obj = {};
    for (const [key, v] of Object.entries(value))
      define(out, key, inflate(v, childShape(shape?.kind === 'object' ? shape : undefined, key)));
    return out;
  }
  return value;
}

/** Items by their key at `level`; a duplicate key keeps the first position and the last value. */
function groupItems(items: unknown[], of: KeyedShape, level: number): Map<string, unknown> {
  const keyField = of.keys[level] ?? [];
  if (level === of.keys.length - 1) return new Map(items.map((item) => [keyOf(item, keyField), inflate(item, of.item)]));
  const groups = new Map<string, unknown[]>();
  for (const item of items) {
    const key = keyOf(item, keyField);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return new Map([...groups].map(([key, group]) => [key, groupItems(group, of, level + 1)]));
}

/** The transformed document → plain JSON: maps become arrays again, in map order. */
function deflate(value: unknown, shape: Shape | undefined): unknown {
  if (value instanceof Map) return deflateMap(value, shape);
  if (Array.isArray(value)) return value.map((item) => deflate(item, undefined));
  if (isPlainObject(value)) {
    const out: Obj = {};
    for (const [key, v] of Object.entries(value)) {
      if (isVivifiedEmpty(v)) continue;
      define(out, key, deflate(v, childShape(shape?.kind === 'object' ? shape : undefined, key)));
    }
    return out;
  }
  return value;
}

function deflateMap(map: Map<string, unknown>, shape: Shape | undefined): unknown[] {
  const items: unknown[] = [];
  for (const [key, value] of map) {
    const child = childShape(shape, key);
    const out = deflate(value, child);
    // Inner levels of a multi-key array flatten into the one array.
    if (child?.kind === 'level' && Array.isArray(out)) items.push(...out);
    else items.push(out);
  }
  return items;
}

function isVivifiedEmpty(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !vivified.has(value)) return false;
  return value instanceof Map ? value.size === 0 : Object.keys(value).length === 0;
}

// ---------------------------------------------------------------------------------------------- operations

/** Where an op lands: the parent container, the last token and the shape at that position. */
interface Slot {
  parent: Container;
  key: string;
  shape: Shape | undefined;
}

class Document {
  constructor(
    private readonly shape: ObjectShape,
    public root: Obj,
  ) {}

  apply(op: Operation, index: number): void {
    const fail = (what: string) => invalid(`operation ${index} (${op.op} ${op.path}) ${what}`);
    const path = pointer(op.path, fail);
    switch (op.op) {
      case 'add':
        return this.add(path, op.value, fail);
      case 'remove':
        return this.remove(path, fail);
      case 'replace':
        return this.replace(path, op.value, fail);
      case 'test':
        if (!jsonEqual(this.read(path), op.value)) throw fail('failed: the value differs');
        return;
      default:
        return this.moveOrCopy(op, path, fail);
    }
  }

  private moveOrCopy(op: Operation, path: string[], fail: (what: string) => Error): void {
    const from = pointer(op.from ?? '', fail);
    const value = this.read(from);
    if (value === undefined) throw fail(`has a missing from ${op.from}`);
    if (op.op === 'move') {
      if (from.length < path.length && from.every((token, i) => token === path[i])) throw fail('moves a value into itself');
      this.remove(from, fail);
    }
    this.add(path, value, fail);
  }

  /** The plain JSON at `path`, or undefined when absent. */
  private read(path: string[]): unknown {
    if (path.length === 0) return deflate(this.root, this.shape);
    const slot = this.locate(path, false);
    const value = slot && childOf(slot.parent, slot.key);
    return value === undefined ? undefined : deflate(value, slot?.shape);
  }

  private add(path: string[], value: unknown, fail: (what: string) => Error): void {
    if (path.length === 0) {
      if (!isPlainObject(value)) throw fail('must set the whole aspect to an object');
      this.root = inflate(value, this.shape) as Obj;
      return;
    }
    const slot = this.locate(path, true);
    if (!slot) throw fail('targets a missing parent');
    const inflated = inflate(value, slot.shape);
    const { parent, key } = slot;
    if (parent instanceof Map) parent.set(key, inflated);
    else if (!Array.isArray(parent)) define(parent, key, inflated);
    else if (key === '-') parent.push(inflated);
    else {
      const at = arrayIndex(key);
      if (at === undefined || at > parent.length) throw fail('has an array index out of bounds');
      parent.splice(at, 0, inflated);
    }
  }

  private replace(path: string[], value: unknown, fail: (what: string) => Error): void {
    if (path.length === 0) return this.add(path, value, fail);
    const slot = this.locate(path, false);
    if (!slot || childOf(slot.parent, slot.key) === undefined) throw fail('targets a missing path');
    const { parent, key } = slot;
    const inflated = inflate(value, slot.shape);
    if (Array.isArray(parent)) parent[Number(key)] = inflated;
    else setChild(parent, key, inflated);
  }

  /** Removing what is absent (key or any parent) is a no-op (spec §6.6). */
  private remove(path: string[], fail: (what: string) => Error): void {
    if (path.length === 0) throw fail('cannot remove the whole aspect');
    const slot = this.locate(path, false);
    if (!slot) return;
    const { parent, key } = slot;
    if (parent instanceof Map) parent.delete(key);
    else if (!Array.isArray(parent)) delete parent[key];
    else {
      const at = arrayIndex(key);
      if (at !== undefined && at < parent.length) parent.splice(at, 1);
    }
  }

  /**
   * Walks to the parent of the last token. With `create`, absent parents the template knows about are created
   * (an owner's type map, a new schema field's `globalTags`), as the Python builders expect of the server.
   */
  private locate(path: string[], create: boolean): Slot | undefined {
    let node: unknown = this.root;
    let shape: Shape | undefined = this.shape;
    let keyTokens: string[] = [];
    for (const [i, token] of path.entries()) {
      if (!isContainer(node)) return undefined;
      const next = childShape(shape, token);
      if (i === path.length - 1) return { parent: node, key: token, shape: next };
      keyTokens = shape?.kind === 'keyed' ? [token] : shape?.kind === 'level' ? [...keyTokens, token] : [];
      let child = childOf(node, token);
      if (child === undefined && create) {
        child = newContainer(next, isKeyed(shape) ? keyFieldsOf(shape, keyTokens) : undefined);
        if (child !== undefined) setChild(node, token, child);
      }
      node = child;
      shape = next;
    }
    return undefined;
  }
}

/** A container for an absent position, or undefined when the template does not know what belongs there. */
function newContainer(shape: Shape | undefined, keyFields: Obj | undefined): unknown {
  switch (shape?.kind) {
    case 'level':
      return new Map();
    case 'keyed':
    case 'map': {
      const made = shape.kind === 'keyed' ? new Map() : {};
      vivified.add(made);
      return made;
    }
    case 'object': {
      // A new array item carries its key fields (`{fieldPath}`), so it converts back to a valid element.
      const made = inflate(shape.init?.() ?? {}, shape) as Obj;
      return keyFields ? mergeDeep(made, keyFields) : made;
    }
    default:
      return undefined;
  }
}

/** The key fields of a new item, from the path tokens that addressed it; only when the last level was reached. */
function keyFieldsOf(shape: KeyedShape | LevelShape, tokens: string[]): Obj | undefined {
  const of = shape.kind === 'keyed' ? shape : shape.of;
  if (tokens.length !== of.keys.length) return undefined;
  const fields: Obj = {};
  of.keys.forEach((fieldPath, i) => {
    const token = tokens[i] ?? '';
    // An empty token stands for a missing key field; a single top-level key field is always set.
    if (token === '' && fieldPath.length > 1) return;
    let target = fields;
    for (const part of fieldPath.slice(0, -1)) target = (target[part] ??= {}) as Obj;
    define(target, fieldPath[fieldPath.length - 1] ?? '', token);
  });
  return fields;
}

function mergeDeep(target: Obj, source: Obj): Obj {
  for (const [key, value] of Object.entries(source)) {
    const existing = own(target, key);
    if (isPlainObject(existing) && isPlainObject(value)) mergeDeep(existing, value);
    else define(target, key, value);
  }
  return target;
}

// ---------------------------------------------------------------------------------------------- helpers

/** RFC 6901 pointer → tokens, unescaping `~1` → `/` then `~0` → `~`. */
function pointer(path: string, fail: (what: string) => Error): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw fail('has a path not starting with "/"');
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

function childOf(node: Container, key: string): unknown {
  if (node instanceof Map) return node.get(key);
  if (Array.isArray(node)) {
    const at = arrayIndex(key);
    return at === undefined ? undefined : node[at];
  }
  return own(node, key);
}

function setChild(node: Container, key: string, value: unknown): void {
  if (node instanceof Map) node.set(key, value);
  else if (!Array.isArray(node)) define(node, key, value);
}

function isContainer(value: unknown): value is Container {
  return value instanceof Map || Array.isArray(value) || isPlainObject(value);
}

function isPlainObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map);
}

function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets an own property even for `__proto__`, which plain assignment would treat as the prototype. */
function define(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return a === b;
}
