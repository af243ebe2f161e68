import { Privilege } from '@mds/auth';
import { isJsonObject, MAX_PAGE_SIZE, parseUrn } from '@mds/core';
import { SearchQueryError, type Criterion, type SearchIndex } from '@mds/search';
import {
  badRequest,
  notFound,
  type Actor,
  type ApiContext,
  type MutationResolvers,
  type QueryResolvers,
  type Resolvers,
} from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { editPrivileges, type Edit, type EntityService } from '../service';
import { COMMON_RULES } from './common';
import { pageOrRefuse, refWithKey, urnArgument, type Loaders } from './common-fields';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import { graphqlReader, writeAll, writeCreate } from './mutation-support';
import { filterGroups } from './search';
import { entityRef } from './typenames';

type Aspect = Record<string, unknown>;

/** Who edits the queries about a dataset (DataHub's canEditEntityQueries: EDIT_ENTITY or EDIT_ENTITY_QUERIES on each subject). */
const EDIT_QUERIES = editPrivileges([Privilege.EDIT_ENTITY_QUERIES]);
/** ListQueriesResolver's page size when none is asked. */
const DEFAULT_COUNT = 100;
/** The sort fields a list may ask (the query's @Searchable fields an order makes sense of), each read from queryProperties. */
const SORT_KEYS: Readonly<Record<string, (properties: Aspect | undefined) => number | string>> = {
  createdAt: (p) => timeOf(p?.created),
  lastModifiedAt: (p) => timeOf(p?.lastModified),
  name: (p) => (typeof p?.name === 'string' ? p.name.toLowerCase() : ''),
};

const timeOf = (stamp: unknown) => (isJsonObject(stamp) && typeof stamp.time === 'number' ? stamp.time : 0);

/** The dataset a subject is about: the dataset itself, or the dataset of a schema field. */
function subjectOf(entity: string): { dataset: string; schemaField?: string } | undefined {
  try {
    const parsed = parseUrn(entity);
    if (parsed.entityType === 'dataset') return { dataset: entity };
    if (parsed.entityType === 'schemaField' && parsed.parts[0]) return { dataset: parsed.parts[0], schemaField: entity };
  } catch {
    // A subject the model let through but no urn parser reads answers nothing, as DataHub's mapper skips it.
  }
  return undefined;
}

/** The dataset urns of a mutation's subjects, each checked to be a dataset's urn (what the input's name promises). */
function subjectUrns(subjects: readonly { datasetUrn: string }[]): string[] {
  return subjects.map(({ datasetUrn }) => {
    if (urnArgument(datasetUrn).entityType !== 'dataset') throw badRequest(`Query subject ${datasetUrn} is not a dataset urn`);
    return datasetUrn;
  });
}

/** A statement input as queryProperties stores it. */
const statementOf = (statement: { value: string; language: string }) => ({ value: statement.value, language: statement.language });

/**
 * Saved queries (DataHub's QueryMapper, QueryPropertiesMapper, ListQueriesResolver, Create/Update/DeleteQueryResolver
 * over its QueryService): `QueryEntity` from queryProperties, querySubjects and dataPlatformInstance; `listQueries`
 * from the search index (source and subject as filters, newest first by default); the mutations write both aspects,
 * each deciding by EDIT_ENTITY_QUERIES (or EDIT_ENTITY) on every dataset the query is or will be about.
 */
export function queryResolvers(service: EntityService, loaders: Loaders, search: SearchIndex, now: () => number): Resolvers[] {
  const mapping: EntityMapping = {
    entity: 'query',
    fields: {
      properties: (e) => {
        const v = e.value('queryProperties');
        // createdOn is the creation stamp with its actor resolved to the user; absent custom properties are the
        // model's default, an empty map (QueryPropertiesMapper).
        return v && { ...v, createdOn: v.created, customProperties: v.customProperties ?? {} };
      },
      subjects: (e) => {
        const subjects = e.value('querySubjects')?.subjects;
        if (!Array.isArray(subjects)) return undefined;
        return subjects.flatMap((s) => (isJsonObject(s) && typeof s.entity === 'string' ? (subjectOf(s.entity) ?? []) : []));
      },
      platform: (e) => e.value('dataPlatformInstance')?.platform,
    },
  };

  /** The stored subjects' urns of a query; undefined when it has no querySubjects (DataHub: no such query). */
  const storedSubjects = async (actor: Actor, urn: string): Promise<string[] | undefined> => {
    const value = (await graphqlReader(service, actor).latest([urn], ['querySubjects'])).get(urn)?.get('querySubjects')?.value;
    if (!value) return undefined;
    return (Array.isArray(value.subjects) ? value.subjects : []).flatMap((s) =>
      isJsonObject(s) && typeof s.entity === 'string' ? [s.entity] : [],
    );
  };
  /** A query urn argument: well formed and a query's. */
  const queryUrn = (urn: string) => {
    if (urnArgument(urn).entityType !== 'query') throw badRequest(`${urn} is not a query urn`);
    return urn;
  };
  /**
   * A grant to write query `urn`, decided on the datasets it is (or will be) about; a query about none is decided on
   * itself (DataHub asks nothing then, which would let anyone edit it).
   */
  const authorizeQuery = async (actor: Actor, urn: string, subjects: readonly string[], denied: string) => {
    const resources = subjects.length ? [...new Set(subjects)] : [urn];
    // The refusal carries the resolver's own text; the grant then covers the query written too.
    await service.authorize(actor, EDIT_QUERIES, resources, denied);
    return service.authorizeFor(actor, EDIT_QUERIES, resources, [urn]);
  };

  const query: QueryResolvers = {
    listQueries: async (_parent, { input }, context: ApiContext) => {
      const page = pageOrRefuse(input.start ?? 0, input.count ?? DEFAULT_COUNT);
      const sortField = input.sortInput?.sortCriterion.field ?? 'createdAt';
      const sortKey = SORT_KEYS[sortField];
      if (!sortKey) throw badRequest(`Queries cannot be sorted by ${sortField}; sort by one of ${Object.keys(SORT_KEYS).join(', ')}`);
      const descending = (input.sortInput?.sortCriterion.sortOrder ?? 'DESCENDING') === 'DESCENDING';
      // The source and dataset narrow every or-group of the caller's filters (DataHub's combineFilters).
      const narrowing: Criterion[] = [
        ...(input.source ? [{ field: 'source', values: [input.source] }] : []),
        ...(input.datasetUrn ? [{ field: 'entities', values: [input.datasetUrn] }] : []),
      ];
      const groups = filterGroups({ orFilters: input.orFilters });
      const filters = groups.length ? groups.map((group) => [...group, ...narrowing]) : narrowing.length ? [narrowing] : [];
      // The index orders by name or urn only: every match is read, then ordered by its stored properties.
      const urns: string[] = [];
      try {
        for (let total = Infinity; urns.length < total;) {
          const found = await search.search({
            entityTypes: ['query'],
            input: input.query?.trim() || '*',
            filters,
            start: urns.length,
            count: MAX_PAGE_SIZE,
            facets: [],
          });
          urns.push(...found.hits.map((hit) => hit.urn));
          total = found.hits.length ? found.total : urns.length;
        }
      } catch (error) {
        if (error instanceof SearchQueryError) throw badRequest(error.message);
        throw error;
      }
      const keys = new Map(
        await Promise.all(
          urns.map(async (urn) => [urn, sortKey((await loaders(context).aspects(urn))?.get('queryProperties')?.value)] as const),
        ),
      );
      urns.sort((a, b) => {
        const [x, y] = [keys.get(a)!, keys.get(b)!];
        const order = x < y ? -1 : x > y ? 1 : 0;
        return (descending ? -order : order) || (a < b ? -1 : 1);
      });
      const queries = urns.slice(page.start, page.start + page.count).flatMap((urn) => entityRef(urn) ?? []);
      return { start: page.start, count: queries.length, total: urns.length, queries };
    },
  };

  const mutation: MutationResolvers = {
    createQuery: async (_parent, { input }, { actor }) => {
      const subjects = subjectUrns(input.subjects);
      // A query about nothing would be decided on nothing (DataHub lets anyone save one); mds asks for a subject.
      if (!subjects.length) throw badRequest('A query needs at least one subject dataset');
      const urn = `urn:li:query:${randomUUID()}`;
      const denied = 'Unauthorized to create Query. Please contact your DataHub administrator for more information.';
      const grant = await authorizeQuery(actor, urn, subjects, denied);
      const stamp = { time: now(), actor: actor.urn };
      const { name, description, statement } = input.properties;
      const properties = {
        statement: statementOf(statement),
        source: 'MANUAL',
        ...(name == null ? {} : { name }),
        ...(description == null ? {} : { description }),
        created: stamp,
        lastModified: stamp,
      };
      await writeCreate(
        service,
        grant,
        [
          { urn, aspect: 'queryProperties', changeType: 'CREATE_ENTITY', value: properties },
          { urn, aspect: 'querySubjects', changeType: 'UPSERT', value: { subjects: subjects.map((entity) => ({ entity })) } },
        ],
        stamp,
        `Query ${urn} already exists`,
      );
      return entityRef(urn)!;
    },

    updateQuery: async (_parent, { urn, input }, { actor }) => {
      queryUrn(urn);
      const existing = await storedSubjects(actor, urn);
      if (!existing) throw notFound(`Failed to find query with urn ${urn}`);
      const next = input.subjects == null ? undefined : subjectUrns(input.subjects);
      if (next && !next.length) throw badRequest('A query needs at least one subject dataset');
      const denied = 'Unauthorized to update Query. Please contact your DataHub administrator if this needs corrective action.';
      const impacted = [...existing, ...(next ?? [])].flatMap((s) => subjectOf(s)?.dataset ?? []);
      const grant = await authorizeQuery(actor, urn, impacted, denied);
      const stamp = { time: now(), actor: actor.urn };
      const changes = input.properties ?? {};
      const edits: Edit[] = [];
      const properties = (await graphqlReader(service, actor).latest([urn], ['queryProperties'])).get(urn)?.get('queryProperties')?.value;
      if (!properties) throw badRequest(`Failed to update Query. Query with urn ${urn} does not exist.`);
      edits.push({
        urn,
        aspect: 'queryProperties',
        changeType: 'UPSERT',
        value: {
          ...properties,
          ...(changes.name == null ? {} : { name: changes.name }),
          ...(changes.description == null ? {} : { description: changes.description }),
          ...(changes.statement == null ? {} : { statement: statementOf(changes.statement) }),
          lastModified: stamp,
        },
      });
      if (next) edits.push({ urn, aspect: 'querySubjects', changeType: 'UPSERT', value: { subjects: next.map((entity) => ({ entity })) } });
      await writeAll(service, grant, edits, stamp);
      return entityRef(urn)!;
    },

    deleteQuery: async (_parent, { urn }, { actor }) => {
      queryUrn(urn);
      const reader = graphqlReader(service, actor);
      if (!(await reader.exists(urn))) throw notFound(`Failed to find query with urn ${urn}`);
      const subjects = ((await storedSubjects(actor, urn)) ?? []).flatMap((s) => subjectOf(s)?.dataset ?? []);
      const denied = 'Unauthorized to delete Query. Please contact your DataHub administrator if this needs corrective action.';
      const grant = await authorizeQuery(actor, urn, subjects, denied);
      await service.deleteEntity(grant, urn);
      return true;
    },
  };

  return [{ Query: query, Mutation: mutation }, entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey })];
}
