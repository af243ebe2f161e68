import type { ApiContext, EntityParent } from '@mds/schema';
import type { EntityReader, EntityService, StoredAspect } from '../service';
import { graphqlReader } from './mutation-support';

/** The GraphQL objects of one entity type for `urns`, by urn; urns it cannot answer are left out. */
export type EntityFace = (urns: readonly string[]) => Promise<ReadonlyMap<string, EntityParent>>;

/** What one GraphQL request reads, batched: every field of every entity asked at one depth shares one store read. */
export interface RequestLoaders {
  /** The request's reads (VIEW_AUTHORIZATION_ENABLED decides what its caller sees). */
  reader: EntityReader;
  /** The latest aspects of an entity (all of them; undefined when none is stored). */
  aspects(urn: string): Promise<ReadonlyMap<string, StoredAspect> | undefined>;
  /** An entity of a type with a face (`TAG`, ...); undefined when absent or faceless. */
  entity(graphqlType: string, urn: string): Promise<EntityParent | undefined>;
  /**
   * An entity's aspects at the versions named, by aspect (0 the latest; `EntityReader.atVersions`), batched as `aspects`
   * is; undefined when the caller may not view it.
   */
  versioned(urn: string, versions: ReadonlyMap<string, number>): Promise<ReadonlyMap<string, StoredAspect> | undefined>;
}

/**
 * Per-request loaders, created on a request's first read and dropped with its context. A request sees the store
 * as its reads find it; nothing is kept across requests.
 */
export function requestLoaders(
  service: EntityService,
  faces: Readonly<Record<string, EntityFace>>,
): (context: ApiContext) => RequestLoaders {
  const byRequest = new WeakMap<ApiContext, RequestLoaders>();
  return (context) => {
    let loaders = byRequest.get(context);
    if (!loaders) {
      const reader = graphqlReader(service, context.actor);
      const aspects = batchLoader(async (urns) => reader.latest(urns));
      const byFace = new Map<string, (urn: string) => Promise<EntityParent | undefined>>();
      const entity = (graphqlType: string, urn: string) => {
        const face = faces[graphqlType];
        if (!face) return Promise.resolve(undefined);
        let load = byFace.get(graphqlType);
        if (!load) byFace.set(graphqlType, (load = batchLoader(face)));
        return load(urn);
      };
      const versioned = versionedLoader(reader);
      loaders = { reader, aspects, entity, versioned };
      byRequest.set(context, loaders);
    }
    return loaders;
  };
}

/** `RequestLoaders.versioned`: one key per entity and versions asked, the reads of a depth in one `atVersions`. */
function versionedLoader(reader: EntityReader): RequestLoaders['versioned'] {
  const asked = new Map<string, { urn: string; versions: ReadonlyMap<string, number> }>();
  const load = batchLoader(async (keys) => {
    const found = await reader.atVersions(keys.map((key) => asked.get(key)!));
    return new Map(keys.flatMap((key, i) => (found[i] ? [[key, found[i]] as const] : [])));
  });
  return (urn, versions) => {
    const key = `${urn}\n${[...versions].map(([aspect, version]) => `${aspect}:${version}`).join(';')}`;
    asked.set(key, { urn, versions });
    return load(key);
  };
}

/**
 * Keys read by one call of `batch`. A page of a thousand entities is read and completed a chunk at a time, each chunk
 * in a turn of the event loop of its own, so that other requests are answered in between (issue 30: one search of a
 * thousand datasets held /health for seconds). 25 datasets are read and completed in a few milliseconds on an idle
 * machine; with 100, a cheap query waiting behind them on a busy one took ~70 ms (median), with 25 ~45 ms.
 */
const CHUNK = 25;

/**
 * Loads each key once, and the keys asked for together in one call of `batch` (a chunk of them at a time). "Together"
 * is what graphql-js asks while completing one depth of the answer: the batch goes on the next turn of the event loop
 * (setImmediate), once every promise job and tick queued so far has run, so sibling fields of every list item share
 * it; the other chunks follow, a turn apart.
 */
export function batchLoader<V>(batch: (keys: string[]) => Promise<ReadonlyMap<string, V>>): (key: string) => Promise<V | undefined> {
  const loaded = new Map<string, Promise<V | undefined>>();
  let waiting: { key: string; settle: (found: Promise<ReadonlyMap<string, V>>) => void }[] = [];
  let scheduled = false;
  const dispatch = () => {
    const keys = waiting.length > CHUNK ? waiting.splice(0, CHUNK) : waiting;
    if (keys === waiting) waiting = [];
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(dispatch);
    const found = batch(keys.map((k) => k.key));
    for (const { settle } of keys) settle(found);
  };
  return (key) => {
    let value = loaded.get(key);
    if (!value) {
      if (!scheduled) {
        scheduled = true;
        setImmediate(dispatch);
      }
      value = new Promise<ReadonlyMap<string, V>>((resolve) => waiting.push({ key, settle: resolve })).then((found) => found.get(key));
      loaded.set(key, value);
    }
    return value;
  };
}
