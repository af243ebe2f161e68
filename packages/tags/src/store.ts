import { applyMigrations, atomic, createReadCache, type ReadCache, type SqliteDatabase } from '@mds/db';
import { badRequest, notFound } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parsePage, parseTextQuery, type Page, type TextQuery } from './search-query';
import type { AuditStamp, MatchedField, NewTag, Tag, TagChanges, TagSearch, TagSearchPage } from './types';
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
  /** The row's key in tags_fts. */
  docId: number;
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

// One column list for every read, aliased to the TagRow shape.
const COLUMNS = `id, doc_id AS docId, name, description, color_hex AS colorHex, created_at AS createdAt, created_by AS createdBy,
  updated_at AS updatedAt, updated_by AS updatedBy`;
// Name is weighted over description so a tag named after the words ranks above one that only mentions them.
const RANK = 'bm25(tags_fts, 10.0, 1.0)';
// highlight() marks matched tokens; a column whose highlighted text differs from the original is a matched field.
const MARK = 'char(1)';

/**
 * Tags in SQLite, usable without GraphQL. Every rule of the domain is enforced here (validation, existence,
 * uniqueness), each failure an `ApiError`; privileges are the caller's (the GraphQL resolvers check them).
 *
 * Each write is a few single-row statements made atomic by `atomic` (@mds/db): the row, then its entry in
 * tags_fts, which the store keeps in step itself rather than by trigger (see migration 0002: a trigger made FTS5
 * write a segment per tag). Statements are prepared once, and none has a trigger or RETURNING, so none opens a
 * statement journal.
 *
 * A write throws an `ApiError` only before it has changed anything: invalid arguments and unknown tags are found
 * before the first statement, and a taken id by the first statement, which SQLite undoes alone. So a group commit
 * may take an `ApiError` as a refusal and keep the rest of its batch (see createTagsModule).
 */
export class TagStore {
  readonly #now: () => number;
  readonly #select;
  readonly #create;
  readonly #change;
  readonly #remove;
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
    this.#select = db.prepare<[string], TagRow>(`SELECT ${COLUMNS} FROM tags WHERE id = ?`);
    this.#byId = createReadCache(db, { maxEntries: 10_000 });
    const nextDocId = db.prepare<[], number>(`SELECT ifnull(max(doc_id), 0) + 1 FROM tags`).pluck();
    const insert = db.prepare<[string, number, string, string | null, number, string, number, string]>(
      `INSERT INTO tags (id, doc_id, name, description, created_at, created_by, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const update = db.prepare<[TagRow]>(
      `UPDATE tags SET name = @name, description = @description, color_hex = @colorHex, updated_at = @updatedAt, updated_by = @updatedBy
       WHERE id = @id`,
    );
    const remove = db.prepare<[string]>(`DELETE FROM tags WHERE id = ?`);
    // An external-content index: 'delete' needs the text that was indexed.
    const index = db.prepare<[number, string, string | null]>(`INSERT INTO tags_fts (rowid, name, description) VALUES (?, ?, ?)`);
    const unindex = db.prepare<[number, string, string | null]>(
      `INSERT INTO tags_fts (tags_fts, rowid, name, description) VALUES ('delete', ?, ?, ?)`,
    );
    const existingRow = (urn: string, id: string): TagRow => {
      const row = this.#select.get(id);
      if (!row) throw tagNotFound(urn);
      return row;
    };

    // doc_id (the FTS rowid) is the next integer: read and used under the write lock the transaction holds.
    this.#create = atomic(db, (row: Omit<TagRow, 'docId'>): TagRow => {
      const docId = nextDocId.get()!;
      try {
        insert.run(row.id, docId, row.name, row.description, row.createdAt, row.createdBy, row.updatedAt, row.updatedBy);
      } catch (error) {
        // The primary key decides between concurrent creates of one id: exactly one INSERT wins.
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw badRequest(TAG_ALREADY_EXISTS);
        throw error;
      }
      index.run(docId, row.name, row.description);
      return { ...row, docId };
    });
    this.#change = atomic(db, (urn: string, id: string, changes: Partial<Pick<TagRow, 'name' | 'description' | 'colorHex'>>, stamp: AuditStamp): Tag => {
      const before = existingRow(urn, id);
      const after: TagRow = { ...before, ...changes, updatedAt: stamp.time, updatedBy: stamp.actor };
      update.run(after);
      if (after.name !== before.name || after.description !== before.description) {
        unindex.run(before.docId, before.name, before.description);
        index.run(after.docId, after.name, after.description);
      }
      return toTag(after);
    });
    this.#remove = atomic(db, (urn: string, id: string): void => {
      const before = existingRow(urn, id);
      remove.run(before.id);
      unindex.run(before.docId, before.name, before.description);
    });
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
    const stamps = { createdAt: time, createdBy: actor, updatedAt: time, updatedBy: actor };
    return toTag(this.#create({ id, name, description, colorHex: null, ...stamps }));
  }

  /** The tag with this URN, or null when there is none (a malformed URN is a 400). Frozen: it may be shared. */
  get(urn: string): Tag | null {
    const id = parseTagUrn(urn);
    return this.#byId.get(id, () => {
      const row = this.#select.get(id);
      if (!row) return null;
      // One object answers every read until the next commit, so no caller may change it for the others.
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
    return this.#change(urn, id, description === undefined ? { name } : { name, description }, this.#stamp(actor));
  }

  setColor(urn: string, colorHex: string, actor: string): Tag {
    const id = parseTagUrn(urn);
    return this.#change(urn, id, { colorHex: validateColorHex(colorHex) }, this.#stamp(actor));
  }

  setDescription(urn: string, description: string, actor: string): Tag {
    const id = parseTagUrn(urn);
    return this.#change(urn, id, { description: validateDescription(description) }, this.#stamp(actor));
  }

  delete(urn: string): void {
    this.#remove(urn, parseTagUrn(urn));
  }

  #stamp(actor: string): AuditStamp {
    return { time: this.#now(), actor };
  }

  /** One page of tags: by relevance then id for text queries, by name (case-insensitive) then id when listing all. */
  search(search: TagSearch = {}): TagSearchPage {
    const page = parsePage(search.start, search.count);
    const text = parseTextQuery(search.query);
    if (text.kind === 'nothing') return { start: page.start, count: 0, total: 0, hits: [] };
    return this.#searchSnapshot(page, text);
  }
}

const tagNotFound = (urn: string) => notFound(`Tag ${urn} does not exist`);

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
