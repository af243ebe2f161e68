import { findEntityOfUrn, isJsonObject, MAX_PAGE_SIZE } from '@mds/core';
import { badRequest, type Actor, type MutationResolvers, type QueryResolvers, type Resolvers } from '@mds/schema';
import { editPrivileges, type Edit, type EntityReader, type EntityService } from '../service';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { pageOrRefuse, refWithKey, urnArgument, type Loaders } from './common-fields';
import { entityTypeResolvers, fieldResolvers, type EntityMapping } from './mapping/declare';
import { graphqlReader, writeCreate } from './mutation-support';
import { rootQuery } from './root-queries';
import { sortCriteriaOf, type createEntitySearch } from './search';
import { entityRef } from './typenames';

type Aspect = Record<string, unknown>;
/** The only scheme DataHub's linkAssetVersion numbers versions by: eight capital letters counting up from AAAAAAAA. */
const SCHEME = 'ALPHANUMERIC_GENERATED_BY_DATAHUB';
const FIRST_SORT_ID = 'AAAAAAAA';
/** The relationship a version's versionProperties draws to its set. */
const VERSION_OF = 'VersionOf';

/** The sort id after `id` (AlphanumericSortIdGenerator.increment: base 26 over A–Z, wrapping to AAAAAAAA). */
export function nextSortId(id: string): string {
  if (!/^[A-Z]{8}$/.test(id)) throw badRequest(`Version sort id ${JSON.stringify(id)} is not eight capital letters`);
  const chars = [...id];
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] !== 'Z') {
      chars[i] = String.fromCharCode(chars[i]!.charCodeAt(0) + 1);
      return chars.join('');
    }
    chars[i] = 'A';
  }
  return FIRST_SORT_ID;
}

/** A version set urn argument: well formed and a version set's, with the entity type its key names. */
function versionSetArgument(urn: string | null | undefined): { urn: string; entityType: string } {
  if (!urn) throw badRequest('A version set urn is required');
  const parsed = urnArgument(urn);
  if (parsed.entityType !== 'versionSet') throw badRequest(`Version Set urn ${urn} must be of type Version Set.`);
  return { urn, entityType: parsed.parts[1] ?? '' };
}

const sortIdOf = (properties: Aspect | undefined) => (typeof properties?.sortId === 'string' ? properties.sortId : '');

/**
 * Versioning (DataHub's LinkAssetVersionResolver, UnlinkAssetVersionResolver, VersionsSearchResolver, VersionSetMapper,
 * VersionPropertiesMapper over its EntityVersioningServiceImpl and the version side effects): an entity's
 * `versionProperties` names its set, label and sort id; the set's `versionSetProperties` names the latest version,
 * whose `isLatest` is true and every other's false. Linking and unlinking write all of that together, as DataHub's side
 * effects complete the one aspect its service writes.
 */
export function versioningResolvers(
  service: EntityService,
  loaders: Loaders,
  searchEntities: ReturnType<typeof createEntitySearch>,
  now: () => number,
): Resolvers[] {
  const mapping: EntityMapping = {
    entity: 'versionSet',
    fields: { latestVersion: (e) => e.value('versionSetProperties')?.latest },
    resolvers: {
      versionsSearch: async (parent, { input }: { input: Parameters<typeof searchEntities>[0] & Record<string, never> }, context) => {
        const page = pageOrRefuse(input.start, input.count);
        const sortCriteria = sortCriteriaOf((input as { sortInput?: never }).sortInput);
        const scope = [{ field: 'versionSet', values: [parent.urn] }];
        if (sortCriteria.length) return searchEntities({ ...input, scope, sortCriteria }, context);
        // Newest first (DataHub sorts by versionSortId, descending): the versions of a set are few, so all are read.
        const all = await searchEntities({ ...input, scope, start: 0, count: MAX_PAGE_SIZE }, context);
        const ids = new Map(
          await Promise.all(
            all.searchResults.map(
              async (r) =>
                [r.entity.urn, sortIdOf((await loaders(context).aspects(r.entity.urn))?.get('versionProperties')?.value)] as const,
            ),
          ),
        );
        const ordered = [...all.searchResults].sort((a, b) => (ids.get(a.entity.urn)! < ids.get(b.entity.urn)! ? 1 : -1));
        const searchResults = ordered.slice(page.start, page.start + page.count);
        return { ...all, start: page.start, count: searchResults.length, searchResults };
      },
    },
  };
  const versioned = fieldResolvers(
    loaders,
    { versionProperties: COMMON_FIELDS.versionProperties },
    { rules: COMMON_RULES, ref: refWithKey },
  );

  /** The stored versions of a set with their versionProperties (other than `except`). */
  const versionsOf = async (reader: EntityReader, set: string, except: string) => {
    const members = [...new Set((await reader.referencesTo(set, VERSION_OF)).map((ref) => ref.urn))].filter((urn) => urn !== except);
    const stored = await reader.latest(members, ['versionProperties']);
    return members.flatMap((urn) => {
      const value = stored.get(urn)?.get('versionProperties')?.value;
      return value?.versionSet === set ? [{ urn, properties: value }] : [];
    });
  };
  /** A grant on the set and the entity (DataHub asks UPDATE on both), refused with its text. */
  const authorizeBoth = (actor: Actor, set: string, entity: string) =>
    service.authorize(actor, editPrivileges([]), [set, entity], `${actor.urn} is unauthorized to UPDATE entities ${set} and ${entity}`);

  const query: QueryResolvers = { versionSet: rootQuery(loaders, 'versionSet') };
  const mutation: MutationResolvers = {
    linkAssetVersion: async (_parent, { input }, { actor }) => {
      const set = versionSetArgument(input.versionSet);
      const entity = input.linkedEntity;
      const entityType = urnArgument(entity).entityType;
      const grant = await authorizeBoth(actor, set.urn, entity);
      if (set.entityType !== entityType)
        throw badRequest(`Entity type must match Version Set's specified type: ${set.entityType} invalid type: ${entityType}`);
      const reader = graphqlReader(service, actor);
      if (!(await reader.exists(entity))) throw badRequest(`${entity} does not exist`);
      const current = (await reader.latest([entity], ['versionProperties'])).get(entity)?.get('versionProperties')?.value;
      if (current) {
        // Linked already: to this set nothing changes (DataHub answers null); to another, a refusal.
        if (current.versionSet === set.urn) return null;
        throw badRequest(
          `Version already exists for specified entity: ${entity} for a different Version Set: ${String(current.versionSet)}`,
        );
      }
      const setProperties = (await reader.latest([set.urn], ['versionSetProperties'])).get(set.urn)?.get('versionSetProperties')?.value;
      const versions = await versionsOf(reader, set.urn, entity);
      const latest = typeof setProperties?.latest === 'string' ? setProperties.latest : undefined;
      if (setProperties && setProperties.versioningScheme !== SCHEME)
        throw badRequest('Only versioning scheme supported is ALPHANUMERIC_GENERATED_BY_DATAHUB');
      const previous = versions.find((v) => v.urn === latest);
      const sortId = previous ? nextSortId(sortIdOf(previous.properties)) : FIRST_SORT_ID;
      const taken = versions.find(
        (v) =>
          sortIdOf(v.properties) === sortId || (isJsonObject(v.properties.version) && v.properties.version.versionTag === input.version),
      );
      if (taken) throw badRequest(`Sort Id and Version label must be unique: sort ID: ${sortId} version label: ${input.version}`);

      const time = now();
      const stamp = { time, actor: actor.urn };
      const properties = {
        versionSet: set.urn,
        version: { versionTag: input.version, metadataAttribution: { time, actor: actor.urn } },
        aliases: [],
        ...(input.comment == null ? {} : { comment: input.comment }),
        sortId,
        versioningScheme: SCHEME,
        ...(input.sourceTimestamp == null
          ? {}
          : {
              sourceCreatedTimestamp: {
                time: input.sourceTimestamp,
                // DataHub makes the creator a user urn of the name given, or its unknown actor.
                actor: input.sourceCreator ? `urn:li:corpuser:${input.sourceCreator}` : 'urn:li:corpuser:UNKNOWN',
              },
            }),
        metadataCreatedTimestamp: stamp,
        isLatest: true,
      };
      // The new version is the latest: the set (made when new) points at it, the previous latest is no longer.
      const edits: Edit[] = [
        {
          urn: set.urn,
          aspect: 'versionSetProperties',
          changeType: setProperties ? 'UPSERT' : 'CREATE_ENTITY',
          value: { ...setProperties, latest: entity, versioningScheme: SCHEME },
        },
        { urn: entity, aspect: 'versionProperties', changeType: 'UPSERT', value: properties },
      ];
      if (previous)
        edits.push({
          urn: previous.urn,
          aspect: 'versionProperties',
          changeType: 'UPSERT',
          value: { ...previous.properties, isLatest: false },
        });
      const grants = previous ? [grant, await service.authorize(actor, editPrivileges([]), [previous.urn])] : grant;
      await writeCreate(service, grants, edits, stamp, `Version Set ${set.urn} was made by another request at the same time; try again`);
      return entityRef(set.urn)!;
    },

    unlinkAssetVersion: async (_parent, { input }, { actor }) => {
      const set = versionSetArgument(input.versionSet);
      const entity = input.unlinkedEntity;
      if (!entity) throw badRequest('The entity to unlink is required');
      urnArgument(entity);
      const grant = await authorizeBoth(actor, set.urn, entity);
      const reader = graphqlReader(service, actor);
      const current = (await reader.latest([entity], ['versionProperties'])).get(entity)?.get('versionProperties')?.value;
      // Not versioned: nothing to do (DataHub answers null).
      if (!current) return null;
      if (current.versionSet !== set.urn)
        throw badRequest(`Version is not linked to specified version set: ${set.urn} but is linked to: ${String(current.versionSet)}`);
      const setProperties = (await reader.latest([set.urn], ['versionSetProperties'])).get(set.urn)?.get('versionSetProperties')?.value;
      const others = await versionsOf(reader, set.urn, entity);
      await service.deleteAspects(grant, entity, findEntityOfUrn(entity)!, ['versionProperties']);
      if (setProperties?.latest === entity) {
        // The version before it becomes the latest; with none left the set goes too.
        // (A set whose other versions all sort after it, which only ingestion can make, gets the newest of them.)
        const sortId = sortIdOf(current);
        const newestFirst = [...others].sort((a, b) => (sortIdOf(a.properties) < sortIdOf(b.properties) ? 1 : -1));
        const before = newestFirst.find((v) => sortIdOf(v.properties) < sortId) ?? newestFirst[0];
        if (!before) await service.deleteEntity(grant, set.urn);
        else {
          const grants = [grant, await service.authorize(actor, editPrivileges([]), [before.urn])];
          await service.write(
            grants,
            [
              { urn: set.urn, aspect: 'versionSetProperties', changeType: 'UPSERT', value: { ...setProperties, latest: before.urn } },
              { urn: before.urn, aspect: 'versionProperties', changeType: 'UPSERT', value: { ...before.properties, isLatest: true } },
            ],
            { time: now() },
          );
        }
      }
      return entityRef(set.urn)!;
    },
  };

  return [
    { Query: query, Mutation: mutation, Dataset: versioned, MLModel: versioned },
    entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey }),
  ];
}
