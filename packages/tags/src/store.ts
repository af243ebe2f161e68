import { applyMigrations, applyStatement, createReadCache, statementCache, type ReadCache, type SqliteDatabase, type WriteOutcome, type WriteStatement, type WriterThread } from '@mds/sqlite';
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
  readonly #prepare: ReturnType<typeof statementCache>;
  readonly #select;
  readonly #listAll;
  readonly #countAll;
  readonly #listMatching;
  readonly #countMatching;
  readonly #searchSnapshot;
  /** Tags by id, as `get` answers them: the read every `tag(urn)` makes. Emptied by any write. */
  readonly #byId: ReadCache<string, Tag | null>;

  /** Use `createTagStore`, which applies the migrations this expects. */
  constructor(db: SqliteDatabase, options: TagStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#prepare = statementCache(db);
    this.#select = db.prepare<[string], TagRow>(`SELECT ${COLUMNS} FROM tags WHERE id = ?`);
    this.#byId = createReadCache(db, { maxEntries: 10_000 });
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

  /**
   * Every write, validated and planned without running it: `apply` runs a plan on this connection, now;
   * `applyOnWriterThread` runs it on a writer thread, group-committed. One plan, the same answers either way.
   */
  readonly plan = {
    /** Creates a tag owned by `actor`; an id already taken is a 400 `This Tag already exists!`. */
    create: (input: NewTag, actor: string): TagWrite<Tag> => {
      const id = input.id === undefined || input.id === null ? randomUUID() : validateId(input.id);
      const name = validateName(input.name);
      const description = validateDescription(input.description ?? null);
      const time = this.#now();
      const stamp = { time, actor };
      return {
        statement: { sql: INSERT, params: [id, name, description, time, actor, time, actor] },
        answer: () => ({ urn: tagUrn(id), id, name, description, colorHex: null, created: stamp, lastModified: stamp }),
      };
    },
    /** Renames a tag and, unless `changes.description` is undefined, replaces its description. */
    update: (urn: string, changes: TagChanges, actor: string): TagWrite<Tag> => {
      const id = parseTagUrn(urn);
      const name = validateName(changes.name);
      const description = validateDescription(changes.description);
      const stamped = { id, time: this.#now(), actor };
      return description === undefined
        ? updated(urn, UPDATE_NAME, { ...stamped, name })
        : updated(urn, UPDATE_NAME_AND_DESCRIPTION, { ...stamped, name, description });
    },
    setColor: (urn: string, colorHex: string, actor: string): TagWrite<Tag> => {
      const id = parseTagUrn(urn);
      return updated(urn, UPDATE_COLOR, { id, colorHex: validateColorHex(colorHex), time: this.#now(), actor });
    },
    setDescription: (urn: string, description: string, actor: string): TagWrite<Tag> => {
      const id = parseTagUrn(urn);
      return updated(urn, UPDATE_DESCRIPTION, { id, description: validateDescription(description), time: this.#now(), actor });
    },
    delete: (urn: string): TagWrite<void> => ({
      statement: { sql: DELETE, params: [parseTagUrn(urn)] },
      answer: ({ changes }) => {
        if (changes === 0) throw tagNotFound(urn);
      },
    }),
  };

  create(input: NewTag, actor: string): Tag {
    return this.apply(this.plan.create(input, actor));
  }

  update(urn: string, changes: TagChanges, actor: string): Tag {
    return this.apply(this.plan.update(urn, changes, actor));
  }

  setColor(urn: string, colorHex: string, actor: string): Tag {
    return this.apply(this.plan.setColor(urn, colorHex, actor));
  }

  setDescription(urn: string, description: string, actor: string): Tag {
    return this.apply(this.plan.setDescription(urn, description, actor));
  }

  delete(urn: string): void {
    this.apply(this.plan.delete(urn));
  }

  /** Runs a planned write on this store's own connection, now. */
  apply<T>(write: TagWrite<T>): T {
    let outcome: WriteOutcome;
    try {
      outcome = applyStatement(this.#prepare, write.statement);
    } catch (error) {
      throw refusal(error);
    } finally {
      // The read cache must never outlive a change this connection made.
      this.#byId.invalidate();
    }
    return write.answer(outcome);
  }

  /** The tag with this URN, or null when there is none (a malformed URN is a 400). */
  get(urn: string): Tag | null {
    const id = parseTagUrn(urn);
    return this.#byId.get(id, () => {
      const row = this.#select.get(id);
      return row ? toTag(row) : null;
    });
  }

  /** One page of tags: by relevance then id for text queries, by name (case-insensitive) then id when listing all. */
  search(search: TagSearch = {}): TagSearchPage {
    const page = parsePage(search.start, search.count);
    const text = parseTextQuery(search.query);
    if (text.kind === 'nothing') return { start: page.start, count: 0, total: 0, hits: [] };
    return this.#searchSnapshot(page, text);
  }
}

/** A write, validated and ready to run on any connection to the file: its statement, and how its outcome answers. */
export interface TagWrite<T> {
  statement: WriteStatement;
  answer(outcome: WriteOutcome): T;
}

/**
 * Runs a planned write on a writer thread (group-committed, durable when it settles): the same statement, answers
 * and refusals as `TagStore.apply`. The store's read cache sees the thread's commit as another connection's.
 */
export function applyOnWriterThread<T>(writer: WriterThread, write: TagWrite<T>): Promise<T> {
  return writer.run(write.statement).then(write.answer, (error: unknown) => {
    throw refusal(error);
  });
}

// doc_id (the FTS rowid) is the next integer, computed inside the INSERT, which holds the write lock.
const INSERT = `INSERT INTO tags (id, doc_id, name, description, created_at, created_by, updated_at, updated_by)
  VALUES (?, (SELECT ifnull(max(doc_id), 0) + 1 FROM tags), ?, ?, ?, ?, ?, ?)`;
const update = (set: string) => `UPDATE tags SET ${set}, updated_at = @time, updated_by = @actor WHERE id = @id RETURNING ${COLUMNS}`;
const UPDATE_NAME_AND_DESCRIPTION = update('name = @name, description = @description');
const UPDATE_NAME = update('name = @name');
const UPDATE_COLOR = update('color_hex = @colorHex');
const UPDATE_DESCRIPTION = update('description = @description');
const DELETE = `DELETE FROM tags WHERE id = ?`;

/** An UPDATE … RETURNING of one tag: its new state, or 404 when there is no such tag. */
function updated(urn: string, sql: string, params: { id: string; time: number; actor: string } & Record<string, unknown>): TagWrite<Tag> {
  return {
    statement: { sql, params },
    answer: ({ row }) => {
      if (!row) throw tagNotFound(urn);
      return toTag(row as TagRow);
    },
  };
}

/** SQLite's refusal in the domain's words: the primary key decides between concurrent creates of one id. */
function refusal(error: unknown): unknown {
  return (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ? badRequest(TAG_ALREADY_EXISTS) : error;
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
