import { Privilege } from '@mds/auth';
import { whenReady, type MaybePromise } from '@mds/core';
import {
  anyOf,
  ItemWriteError,
  ownershipFromUpdate,
  pointer,
  SYSTEM_ACTOR,
  type Edit,
  type EntityService,
  type Grant,
  type StoredAspect,
} from '@mds/entities';
import type { SearchIndex } from '@mds/search';
import { badRequest, notFound, type Actor, type OwnershipUpdate } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { parsePage, parseTextQuery } from './search-query';
import type { AuditStamp, MatchedField, NewTag, Tag, TagChanges, TagOwner, TagOwnership, TagSearch, TagSearchPage } from './types';
import { parseTagUrn, tagUrn } from './urn';
import { validateColorHex, validateDescription, validateId, validateName } from './validation';

export const TAG_ALREADY_EXISTS = 'This Tag already exists!';
/** createTag: either privilege (DataHub's CreateTagResolver); every other change MANAGE_TAGS. Platform-wide: owning a tag grants neither. */
const CREATE = anyOf(Privilege.CREATE_TAGS, Privilege.MANAGE_TAGS);
const MANAGE = anyOf(Privilege.MANAGE_TAGS);

export interface TagServiceOptions {
  /** The clock for audit stamps (milliseconds since the epoch); tests pin it. */
  now?: () => number;
}

/** Where tags live: the entity service and its search index (@mds/entities `createEntities` gives both). */
export interface TagEntities {
  service: EntityService;
  search: SearchIndex;
}

/** The aspects a tag is made of (DataHub's `tag` entity). */
const TAG_ASPECTS = ['tagKey', 'tagProperties', 'ownership', 'status'] as const;

type Properties = Record<string, unknown> & { name?: unknown; description?: unknown; colorHex?: unknown };

/**
 * Tags as DataHub keeps them: entities of the entity service (`tagKey`, `tagProperties`, `ownership`, `status`), so a
 * tag written here reads back over Rest.li and one ingested there answers here. Every rule of the domain is here
 * (validation, existence, uniqueness, the privileges each change asks for), each failure an `ApiError`; the entity
 * service's policy decides whether the actor holds those privileges, and validates every value written.
 *
 * A change is a read-modify-write of `tagProperties`, conditional on the version it read (`If-Version-Match`), so two
 * concurrent changes never lose one another: the later one reads again and reapplies itself.
 */
export class TagService {
  readonly #entities: EntityService;
  readonly #search: SearchIndex;
  readonly #now: () => number;
  /** Tags are open to every reader (no view restriction applies to them), so reads need no actor. */
  readonly #reader;

  constructor(entities: TagEntities, options: TagServiceOptions = {}) {
    this.#entities = entities.service;
    this.#search = entities.search;
    this.#now = options.now ?? Date.now;
    this.#reader = entities.service.reader(undefined, { api: 'graphql' });
  }

  /** Creates a tag owned by `actor` (a technical owner, as DataHub does); a taken id is a 400 `This Tag already exists!`. */
  async create(input: NewTag, actor: Actor): Promise<Tag> {
    const grant = await this.#entities.authorize(actor, CREATE);
    const id = input.id === undefined || input.id === null ? randomUUID() : validateId(input.id);
    const name = validateName(input.name);
    const description = validateDescription(input.description ?? null);
    const stamp = this.#stamp(actor.urn);
    const urn = tagUrn(id);
    const properties = description === null ? { name } : { name, description };
    const ownership: TagOwnership = { owners: [{ owner: actor.urn, type: 'TECHNICAL_OWNER' }], lastModified: stamp };
    try {
      // CREATE_ENTITY decides between concurrent creates of one id: exactly one transaction finds no key.
      await this.#entities.write(
        grant,
        [tagEdit(urn, 'tagProperties', 'CREATE_ENTITY', properties), tagEdit(urn, 'ownership', 'UPSERT', ownership)],
        stamp,
      );
    } catch (error) {
      if (!(error instanceof ItemWriteError)) throw error;
      throw error.entityExists ? badRequest(TAG_ALREADY_EXISTS) : error.error;
    }
    return { urn, id, name, description, colorHex: null, ownership, created: stamp, lastModified: stamp };
  }

  /**
   * The tag with this URN, or null when there is none (a malformed URN is a 400). Answered synchronously when the
   * store's cache holds the tag (the hot read of `tag(urn)`), a promise otherwise.
   */
  get(urn: string): MaybePromise<Tag | null> {
    const id = parseTagUrn(urn);
    return whenReady(this.#reader.latest([urn], TAG_ASPECTS), (stored) => {
      const aspects = stored.get(urn);
      return aspects ? toTag(urn, id, aspects) : null;
    });
  }

  /** The tags of `urns` that exist, by urn, read in one statement (a malformed URN is a 400). */
  async getMany(urns: readonly string[]): Promise<Map<string, Tag>> {
    const ids = new Map(urns.map((urn) => [urn, parseTagUrn(urn)]));
    const stored = await this.#reader.latest([...ids.keys()], TAG_ASPECTS);
    const tags = new Map<string, Tag>();
    for (const [urn, aspects] of stored) {
      const tag = toTag(urn, ids.get(urn)!, aspects);
      if (tag) tags.set(urn, tag);
    }
    return tags;
  }

  /**
   * Renames a tag and, unless `changes.description` is undefined, replaces its description; with `changes.ownership`
   * its owners are replaced in the same write.
   */
  async update(urn: string, changes: TagChanges, actor: Actor): Promise<Tag> {
    const grant = await this.#entities.authorize(actor, MANAGE);
    const id = parseTagUrn(urn);
    const name = validateName(changes.name);
    const description = validateDescription(changes.description);
    return this.#change(grant, urn, id, description === undefined ? { name } : { name, description }, changes.ownership ?? undefined);
  }

  async setColor(urn: string, colorHex: string, actor: Actor): Promise<Tag> {
    const grant = await this.#entities.authorize(actor, MANAGE);
    const id = parseTagUrn(urn);
    return this.#change(grant, urn, id, { colorHex: validateColorHex(colorHex) });
  }

  async setDescription(urn: string, description: string, actor: Actor): Promise<Tag> {
    const grant = await this.#entities.authorize(actor, MANAGE);
    const id = parseTagUrn(urn);
    return this.#change(grant, urn, id, { description: validateDescription(description) });
  }

  /**
   * Removes the tag entity, every aspect and version of it (DataHub's deleteTag is a hard delete), after taking it off
   * every entity and dataset field that carries it (`globalTags`, `editableSchemaMetadata`; ingested
   * `schemaMetadata` is left as its source wrote it). DataHub cleans up asynchronously; here it is done first.
   */
  async delete(urn: string, actor: Actor): Promise<void> {
    const grant = await this.#entities.authorize(actor, MANAGE);
    parseTagUrn(urn);
    if (!(await this.#reader.exists(urn))) throw tagNotFound(urn);
    const writes: Edit[] = [];
    // An entity's own tags are `TaggedWith`, a field's tags edited in the UI `EditableSchemaFieldTaggedWith`.
    const refs = [
      ...(await this.#reader.referencesTo(urn, 'TaggedWith')),
      ...(await this.#reader.referencesTo(urn, 'EditableSchemaFieldTaggedWith')),
    ];
    for (const ref of refs) {
      const patch = await this.#untagging(ref.urn, ref.aspect, urn);
      if (patch.length) writes.push({ urn: ref.urn, aspect: ref.aspect, changeType: 'PATCH', value: patch });
    }
    // The clean-up is stamped by the system, as DataHub's own (asynchronous) clean-up is.
    if (writes.length) await this.#entities.write(grant, writes, this.#stamp(SYSTEM_ACTOR.urn));
    if ((await this.#entities.deleteEntity(grant, urn)).rows === 0) throw tagNotFound(urn);
  }

  /** The PATCH that takes `tagUrn` off `aspect` of `urn`: the entity's tags, or those of each field carrying it. */
  async #untagging(urn: string, aspect: string, tagUrn: string): Promise<{ op: string; path: string }[]> {
    if (aspect === 'globalTags') return [{ op: 'remove', path: `/tags/${pointer(tagUrn)}` }];
    if (aspect !== 'editableSchemaMetadata') return [];
    const value = (await this.#reader.get(urn, aspect))?.value;
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

  /**
   * Merges `changes` into the latest `tagProperties`, lost to no concurrent change (the entity service's update);
   * `ownership`, when given, replaces the tag's owners in the same write.
   */
  async #change(
    grant: Grant,
    urn: string,
    id: string,
    changes: { name?: string; description?: string | null; colorHex?: string },
    ownership?: OwnershipUpdate,
  ): Promise<Tag> {
    const stamp = this.#stamp(grant.actor.urn);
    const before = await this.get(urn);
    if (!before) throw tagNotFound(urn);
    const merge = (current: Properties | undefined): Properties => {
      const properties: Properties = { ...(current ?? { name: id }), ...changes };
      if (properties.description === null) delete properties.description;
      return properties;
    };
    const owners = ownership && { urn, aspect: 'ownership', modify: () => ownershipFromUpdate(ownership, stamp) };
    const [properties, owned] = await this.#entities.updateAll(
      grant,
      [{ urn, aspect: 'tagProperties', modify: merge }, ...(owners ? [owners] : [])],
      stamp,
    );
    const written = properties!.written || owned?.written === true;
    const tag = owned ? { ...before, ownership: ownershipOf(owned.value) } : before;
    return { ...propertiesOf(tag, properties!.value), lastModified: written ? stamp : before.lastModified };
  }
}

const UNKNOWN_STAMP: AuditStamp = { time: 0, actor: 'urn:li:corpuser:unknown' };
const tagNotFound = (urn: string) => notFound(`Tag ${urn} does not exist`);

const tagEdit = (urn: string, aspect: string, changeType: Edit['changeType'], value: unknown): Edit => ({ urn, aspect, changeType, value });

/** A tag's owners from its `ownership` aspect. */
const ownershipOf = (ownership: Record<string, unknown>): TagOwnership => ({
  owners: Array.isArray(ownership.owners) ? ownership.owners.filter((o): o is TagOwner => typeof o?.owner === 'string') : [],
  lastModified: isStamp(ownership.lastModified) ? ownership.lastModified : UNKNOWN_STAMP,
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
    ownership: ownership ? ownershipOf(ownership) : null,
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
