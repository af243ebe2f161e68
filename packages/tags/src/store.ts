import { findEntity, parseUrn } from '@mds/core';
import { ItemWriteError, pointer, updateAspect, type AspectStore, type AspectWrite, type StoredAspect } from '@mds/entities';
import type { SearchIndex } from '@mds/search';
import { badRequest, notFound } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { parsePage, parseTextQuery } from './search-query';
import type { AuditStamp, MatchedField, NewTag, Tag, TagChanges, TagOwner, TagOwnership, TagSearch, TagSearchPage } from './types';
import { parseTagUrn, tagUrn } from './urn';
import { validateColorHex, validateDescription, validateId, validateName } from './validation';

export const TAG_ALREADY_EXISTS = 'This Tag already exists!';
/** Who a clean-up after deleteTag is stamped with: the system, as DataHub's own clean-up is. */
const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

export interface TagStoreOptions {
  /** The clock for audit stamps (milliseconds since the epoch); tests pin it. */
  now?: () => number;
}

/** Where tags live: the aspect store and its search index (@mds/entities `createEntities` gives both). */
export interface TagEntities {
  store: AspectStore;
  search: SearchIndex;
}

/** The aspects a tag is made of (DataHub's `tag` entity). */
const TAG_ASPECTS = ['tagKey', 'tagProperties', 'ownership', 'status'] as const;

type Properties = Record<string, unknown> & { name?: unknown; description?: unknown; colorHex?: unknown };

/**
 * Tags as DataHub keeps them: entities of the aspect store (`tagKey`, `tagProperties`, `ownership`, `status`), so a
 * tag written here reads back over Rest.li and one ingested there answers here. Every rule of the domain is enforced
 * here (validation, existence, uniqueness), each failure an `ApiError`; privileges are the caller's (the GraphQL
 * resolvers check them).
 *
 * A change is a read-modify-write of `tagProperties`, conditional on the version it read (`If-Version-Match`), so two
 * concurrent changes never lose one another: the later one reads again and reapplies itself.
 */
export class TagStore {
  readonly #store: AspectStore;
  readonly #search: SearchIndex;
  readonly #now: () => number;

  constructor(entities: TagEntities, options: TagStoreOptions = {}) {
    this.#store = entities.store;
    this.#search = entities.search;
    this.#now = options.now ?? Date.now;
  }

  /** Creates a tag owned by `actor` (a technical owner, as DataHub does); a taken id is a 400 `This Tag already exists!`. */
  async create(input: NewTag, actor: string): Promise<Tag> {
    const id = input.id === undefined || input.id === null ? randomUUID() : validateId(input.id);
    const name = validateName(input.name);
    const description = validateDescription(input.description ?? null);
    const stamp = this.#stamp(actor);
    const urn = tagUrn(id);
    const properties = description === null ? { name } : { name, description };
    const ownership: TagOwnership = { owners: [{ owner: actor, type: 'TECHNICAL_OWNER' }], lastModified: stamp };
    try {
      // CREATE_ENTITY decides between concurrent creates of one id: exactly one transaction finds no key.
      await this.#store.write(
        [tagWrite(urn, 'tagProperties', 'CREATE_ENTITY', properties), tagWrite(urn, 'ownership', 'UPSERT', ownership)],
        stamp,
      );
    } catch (error) {
      if (!(error instanceof ItemWriteError)) throw error;
      throw error.index === 0 && error.error.status === 422 ? badRequest(TAG_ALREADY_EXISTS) : error.error;
    }
    return { urn, id, name, description, colorHex: null, ownership, created: stamp, lastModified: stamp };
  }

  /** The tag with this URN, or null when there is none (a malformed URN is a 400). */
  async get(urn: string): Promise<Tag | null> {
    parseTagUrn(urn);
    return (await this.getMany([urn])).get(urn) ?? null;
  }

  /** The tags of `urns` that exist, by urn, read in one statement (a malformed URN is a 400). */
  async getMany(urns: readonly string[]): Promise<Map<string, Tag>> {
    const ids = new Map(urns.map((urn) => [urn, parseTagUrn(urn)]));
    const stored = await this.#store.latest([...ids.keys()], TAG_ASPECTS);
    const tags = new Map<string, Tag>();
    for (const [urn, aspects] of stored) {
      const tag = toTag(urn, ids.get(urn)!, aspects);
      if (tag) tags.set(urn, tag);
    }
    return tags;
  }

  /** Renames a tag and, unless `changes.description` is undefined, replaces its description. */
  update(urn: string, changes: TagChanges, actor: string): Promise<Tag> {
    const id = parseTagUrn(urn);
    const name = validateName(changes.name);
    const description = validateDescription(changes.description);
    return this.#change(urn, id, description === undefined ? { name } : { name, description }, this.#stamp(actor));
  }

  setColor(urn: string, colorHex: string, actor: string): Promise<Tag> {
    const id = parseTagUrn(urn);
    return this.#change(urn, id, { colorHex: validateColorHex(colorHex) }, this.#stamp(actor));
  }

  setDescription(urn: string, description: string, actor: string): Promise<Tag> {
    const id = parseTagUrn(urn);
    return this.#change(urn, id, { description: validateDescription(description) }, this.#stamp(actor));
  }

  /**
   * Removes the tag entity, every aspect and version of it (DataHub's deleteTag is a hard delete), after taking it off
   * every entity and dataset field that carries it (`globalTags`, `editableSchemaMetadata`; ingested
   * `schemaMetadata` is left as its source wrote it). DataHub cleans up asynchronously; here it is done first.
   */
  async delete(urn: string): Promise<void> {
    parseTagUrn(urn);
    if (!(await this.#store.exists(urn))) throw tagNotFound(urn);
    const writes: AspectWrite[] = [];
    for (const ref of await this.#store.referencesTo(urn, 'TaggedWith')) {
      const patch = await this.#untagging(ref.urn, ref.aspect, urn);
      const entityType = findEntity(parseUrn(ref.urn).entityType)?.name;
      if (patch.length && entityType) writes.push({ urn: ref.urn, entityType, aspect: ref.aspect, changeType: 'PATCH', value: patch });
    }
    if (writes.length) await this.#store.write(writes, this.#stamp(SYSTEM_ACTOR));
    if ((await this.#store.deleteEntity(urn)) === 0) throw tagNotFound(urn);
  }

  /** The PATCH that takes `tagUrn` off `aspect` of `urn`: the entity's tags, or those of each field carrying it. */
  async #untagging(urn: string, aspect: string, tagUrn: string): Promise<{ op: string; path: string }[]> {
    if (aspect === 'globalTags') return [{ op: 'remove', path: `/tags/${pointer(tagUrn)}` }];
    if (aspect !== 'editableSchemaMetadata') return [];
    const value = (await this.#store.get(urn, aspect))?.value;
    const fields = Array.isArray(value?.editableSchemaFieldInfo)
      ? (value.editableSchemaFieldInfo as { fieldPath?: unknown; globalTags?: { tags?: { tag?: unknown }[] } }[])
      : [];
    return fields
      .filter((field) => typeof field.fieldPath === 'string' && field.globalTags?.tags?.some((t) => t.tag === tagUrn))
      .map((field) => ({
        op: 'remove',
        path: `/editableSchemaFieldInfo/${pointer(field.fieldPath as string)}/globalTags/tags/${pointer(tagUrn)}`,
      }));
  }

  /** One page of tags: by relevance then urn for text queries, by name (case aside) then urn when listing all. */
  async search(search: TagSearch = {}): Promise<TagSearchPage> {
    const page = parsePage(search.start, search.count);
    const text = parseTextQuery(search.query);
    if (text.kind === 'nothing') return { start: page.start, count: 0, total: 0, hits: [] };
    // Listing everything goes by name, as a person reads a list; words by relevance.
    const sort = text.kind === 'all' ? ({ field: 'name', order: 'ASCENDING' } as const) : undefined;
    const found = await this.#search.search({
      entityTypes: ['tag'],
      input: search.query ?? '',
      start: page.start,
      count: page.count,
      facets: [],
      sort,
    });
    const tags = await this.getMany(found.hits.map((hit) => hit.urn));
    const hits = found.hits.flatMap((hit) => {
      const tag = tags.get(hit.urn);
      return tag ? [{ tag, matchedFields: hit.matchedFields as MatchedField[] }] : [];
    });
    return { start: page.start, count: hits.length, total: found.total, hits };
  }

  #stamp(actor: string): AuditStamp {
    return { time: this.#now(), actor };
  }

  /** Merges `changes` into the latest `tagProperties`, lost to no concurrent change (updateAspect of @mds/entities). */
  async #change(
    urn: string,
    id: string,
    changes: { name?: string; description?: string | null; colorHex?: string },
    stamp: AuditStamp,
  ): Promise<Tag> {
    const before = await this.get(urn);
    if (!before) throw tagNotFound(urn);
    const merge = (current: Properties | undefined): Properties => {
      const properties: Properties = { ...(current ?? { name: id }), ...changes };
      if (properties.description === null) delete properties.description;
      return properties;
    };
    const { value, written } = await updateAspect(this.#store, { urn, entityType: 'tag', aspect: 'tagProperties' }, merge, stamp);
    return { ...propertiesOf(before, value), lastModified: written ? stamp : before.lastModified };
  }
}

const UNKNOWN_STAMP: AuditStamp = { time: 0, actor: 'urn:li:corpuser:unknown' };
const tagNotFound = (urn: string) => notFound(`Tag ${urn} does not exist`);

const tagWrite = (urn: string, aspect: string, changeType: AspectWrite['changeType'], value: unknown): AspectWrite => ({
  urn,
  entityType: 'tag',
  aspect,
  changeType,
  value,
});

/** A tag from its stored aspects; null without its key (no such entity). */
function toTag(urn: string, id: string, aspects: ReadonlyMap<string, StoredAspect>): Tag | null {
  const key = aspects.get('tagKey');
  if (!key) return null;
  const ownership = aspects.get('ownership')?.value;
  // The last change to the tag is the newest latest-version row among its aspects.
  const newest = [...aspects.values()].reduce((a, b) => (b.createdOn > a.createdOn ? b : a));
  const tag: Tag = {
    urn,
    id,
    name: id,
    description: null,
    colorHex: null,
    ownership: ownership
      ? {
          owners: Array.isArray(ownership.owners) ? ownership.owners.filter((o): o is TagOwner => typeof o?.owner === 'string') : [],
          lastModified: isStamp(ownership.lastModified) ? ownership.lastModified : UNKNOWN_STAMP,
        }
      : null,
    created: { time: key.createdOn, actor: key.createdBy },
    lastModified: { time: newest.createdOn, actor: newest.createdBy },
  };
  return propertiesOf(tag, aspects.get('tagProperties')?.value ?? { name: id });
}

/** The tag with the display fields of a `tagProperties` value. */
function propertiesOf(tag: Tag, properties: Properties): Tag {
  return {
    ...tag,
    name: typeof properties.name === 'string' ? properties.name : tag.id,
    description: typeof properties.description === 'string' ? properties.description : null,
    colorHex: typeof properties.colorHex === 'string' ? properties.colorHex : null,
  };
}

const isStamp = (value: unknown): value is AuditStamp =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AuditStamp).time === 'number' &&
  typeof (value as AuditStamp).actor === 'string';
