import { applyMigrations, createReadCache, type ReadCache, type SqliteDatabase } from '@mds/sqlite';
import { badRequest, notFound } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parsePage, parseTextQuery, type Page, type TextQuery } from './search-query';
import type { MatchedField, NewTag, Tag, TagChanges, TagSearch, TagSearchPage } from './types';
import { parseTagUrn, tagUrn } from './urn';
import { validateColorHex, validateDescription, validateId, validateName } from './validation';

export const TAG_ALREADY_EXISTS = 'This Tag already exists!';

export interface TagStoreOptions {
  /** The clock for audit stamps (milliseconds since the epoch); tests pin it. */
  now?: () => number;
}

const MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));

/** Applies the tags migrations to `db` and returns a store over it. */
export function createTagStore(db: SqliteDatabase, options: TagStoreOptions = {}): TagStore {
  applyMigrations(db, { folder: MIGRATIONS, owner: 'tags' });
  return new TagStore(db, options);
}

interface TagRow {
  id: string;
  name: string;
  description: string | null;
  colorHex: string | null;
  createdAt: number;
  createdBy: string;
  updatedAt: number;
  updatedBy: string;
}

interface HitRow extends TagRow {
  nameHit: string;
  descriptionHit: string | null;
}

// One column list for every read and every RETURNING, aliased to the TagRow shape.
const COLUMNS = `id, name, description, color_hex AS colorHex, created_at AS createdAt, created_by AS createdBy,
  updated_at AS updatedAt, updated_by AS updatedBy`;
// Name is weighted over description so a tag named after the words ranks above one that only mentions them.
const RANK = 'bm25(tags_fts, 10.0, 1.0)';
// highlight() marks matched tokens; a column whose highlighted text differs from the original is a matched field.
const MARK = 'char(1)';

/**
 * Tags in SQLite, usable without GraphQL. Every rule of the domain is enforced here (validation, existence,
 * uniqueness), each failure an `ApiError`; privileges are the caller's (the GraphQL resolvers check them).
 * Statements are prepared once; every write is a single statement, so there is no read-then-write anywhere.
 */
export class TagStore {
  readonly #now: () => number;
  readonly #insert;
  readonly #select;
  readonly #updateNameAndDescription;
  readonly #updateName;
  readonly #updateColor;
  readonly #updateDescription;
  readonly #delete;
  readonly #listAll;
  readonly #countAll;
  readonly #listMatching;
  readonly #countMatching;
  readonly #searchSnapshot;
  /** Tags by id, as `get` answers them: the read every `tag(urn)` makes. Emptied by any commit. */
  readonly #byId: ReadCache<string, Tag | null>;

  /** Use `createTagStore`, which applies the migrations this expects. */
  constructor(db: SqliteDatabase, options: TagStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    // doc_id (the FTS rowid) is the next integer, computed inside the INSERT, which holds the write lock.
    this.#insert = db.prepare<[string, string, string | null, number, string, number, string]>(
      `INSERT INTO tags (id, doc_id, name, description, created_at, created_by, updated_at, updated_by)
       VALUES (?, (SELECT ifnull(max(doc_id), 0) + 1 FROM tags), ?, ?, ?, ?, ?, ?)`,
    );
    this.#select = db.prepare<[string], TagRow>(`SELECT ${COLUMNS} FROM tags WHERE id = ?`);
    this.#byId = createReadCache(db, { maxEntries: 10_000 });
    const update = (set: string) => `UPDATE tags SET ${set}, updated_at = @time, updated_by = @actor WHERE id = @id RETURNING ${COLUMNS}`;
    this.#updateNameAndDescription = db.prepare<[Stamped & { name: string; description: string | null }], TagRow>(
      update('name = @name, description = @description'),
    );
    this.#updateName = db.prepare<[Stamped & { name: string }], TagRow>(update('name = @name'));
    this.#updateColor = db.prepare<[Stamped & { colorHex: string }], TagRow>(update('color_hex = @colorHex'));
    this.#updateDescription = db.prepare<[Stamped & { description: string }], TagRow>(update('description = @description'));
    this.#delete = db.prepare<[string]>(`DELETE FROM tags WHERE id = ?`);
    this.#listAll = db.prepare<[number, number], TagRow>(
      `SELECT ${COLUMNS} FROM tags ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`,
    );
    this.#countAll = db.prepare<[], number>(`SELECT count(*) FROM tags`).pluck();
    this.#listMatching = db.prepare<[string, number, number], HitRow>(
      `SELECT ${COLUMNS}, hit.nameHit, hit.descriptionHit
       FROM (SELECT rowid AS docId, ${RANK} AS rank, highlight(tags_fts, 0, ${MARK}, '') AS nameHit,
               highlight(tags_fts, 1, ${MARK}, '') AS descriptionHit
             FROM tags_fts WHERE tags_fts MATCH ?) AS hit
       JOIN tags ON tags.doc_id = hit.docId
       ORDER BY hit.rank, tags.id LIMIT ? OFFSET ?`,
    );
    this.#countMatching = db.prepare<[string], number>(`SELECT count(*) FROM tags_fts WHERE tags_fts MATCH ?`).pluck();
    // The total and the page are read in one transaction, so they agree even while others write.
    this.#searchSnapshot = db.transaction((page: Page, text: Exclude<TextQuery, { kind: 'nothing' }>): TagSearchPage => {
      if (text.kind === 'all') {
        const rows = page.count === 0 ? [] : this.#listAll.all(page.count, page.start);
        const hits = rows.map((row) => ({ tag: toTag(row), matchedFields: [] }));
        return { start: page.start, count: hits.length, total: this.#countAll.get()!, hits };
      }
      const rows = page.count === 0 ? [] : this.#listMatching.all(text.fts, page.count, page.start);
      const hits = rows.map((row) => ({ tag: toTag(row), matchedFields: matchedFields(row) }));
      return { start: page.start, count: hits.length, total: this.#countMatching.get(text.fts)!, hits };
    });
  }

  /** Creates a tag owned by `actor`; an id already taken is a 400 `This Tag already exists!`. */
  create(input: NewTag, actor: string): Tag {
    const id = input.id === undefined || input.id === null ? randomUUID() : validateId(input.id);
    const name = validateName(input.name);
    const description = validateDescription(input.description ?? null);
    const time = this.#now();
    try {
      this.#insert.run(id, name, description, time, actor, time, actor);
    } catch (error) {
      // The primary key decides between concurrent creates of one id: exactly one INSERT wins.
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw badRequest(TAG_ALREADY_EXISTS);
      throw error;
    }
    const stamp = { time, actor };
    return { urn: tagUrn(id), id, name, description, colorHex: null, created: stamp, lastModified: stamp };
  }

  /** The tag with this URN, or null when there is none (a malformed URN is a 400). Frozen: it may be shared. */
  get(urn: string): Tag | null {
    const id = parseTagUrn(urn);
    return this.#byId.get(id, () => {
      const row = this.#select.get(id);
      if (!row) return null;
      // One object answers every read until the next write, so no caller may change it for the others.
      const tag = toTag(row);
      Object.freeze(tag.created);
      Object.freeze(tag.lastModified);
      return Object.freeze(tag);
    });
  }

  /** Renames a tag and, unless `changes.description` is undefined, replaces its description. */
  update(urn: string, changes: TagChanges, actor: string): Tag {
    const id = parseTagUrn(urn);
    const name = validateName(changes.name);
    const description = validateDescription(changes.description);
    const stamped = { id, time: this.#now(), actor };
    const row =
      description === undefined
        ? this.#updateName.get({ ...stamped, name })
        : this.#updateNameAndDescription.get({ ...stamped, name, description });
    return existing(row, urn);
  }

  setColor(urn: string, colorHex: string, actor: string): Tag {
    const id = parseTagUrn(urn);
    return existing(this.#updateColor.get({ id, colorHex: validateColorHex(colorHex), time: this.#now(), actor }), urn);
  }

  setDescription(urn: string, description: string, actor: string): Tag {
    const id = parseTagUrn(urn);
    const checked = validateDescription(description);
    return existing(this.#updateDescription.get({ id, description: checked, time: this.#now(), actor }), urn);
  }

  delete(urn: string): void {
    if (this.#delete.run(parseTagUrn(urn)).changes === 0) throw tagNotFound(urn);
  }

  /** One page of tags: by relevance then id for text queries, by name (case-insensitive) then id when listing all. */
  search(search: TagSearch = {}): TagSearchPage {
    const page = parsePage(search.start, search.count);
    const text = parseTextQuery(search.query);
    if (text.kind === 'nothing') return { start: page.start, count: 0, total: 0, hits: [] };
    return this.#searchSnapshot(page, text);
  }
}

interface Stamped {
  id: string;
  time: number;
  actor: string;
}

const tagNotFound = (urn: string) => notFound(`Tag ${urn} does not exist`);

function existing(row: TagRow | undefined, urn: string): Tag {
  if (!row) throw tagNotFound(urn);
  return toTag(row);
}

function toTag(row: TagRow): Tag {
  return {
    urn: tagUrn(row.id),
    id: row.id,
    name: row.name,
    description: row.description,
    colorHex: row.colorHex,
    created: { time: row.createdAt, actor: row.createdBy },
    lastModified: { time: row.updatedAt, actor: row.updatedBy },
  };
}

function matchedFields(row: HitRow): MatchedField[] {
  const fields: MatchedField[] = [];
  if (row.nameHit !== row.name) fields.push({ name: 'name', value: row.name });
  if (row.description !== null && row.descriptionHit !== row.description) {
    fields.push({ name: 'description', value: row.description });
  }
  return fields;
}
