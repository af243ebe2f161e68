import { Privilege } from '@mds/auth';
import { parseUrn } from '@mds/core';
import { badRequest, resolversIfDeclared, type MutationResolvers, type QueryResolvers, type Resolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, editPrivileges, type Edit, type EntityService } from '../service';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { commonFields, refWithKey, urnArgument, type Loaders } from './common-fields';
import { ofType } from './glossary';
import { entityTypeResolvers, fieldResolvers, type EntityMapping } from './mapping/declare';
import { graphqlReader, writeAll } from './mutation-support';
import { creatorOwnership } from './ownership';
import type { EntitySearcher } from './search';
import { entityRef, GRAPHQL_TYPENAMES } from './typenames';

/** DataHub's createApplication and deleteApplication ask for EDIT_ENTITY; batchSetApplication also takes the specific one. */
const EDIT = anyOf(Privilege.EDIT_ENTITY);
const ASSIGN = editPrivileges([Privilege.EDIT_ENTITY_APPLICATIONS]);

const isApplication = (urn: string) => {
  try {
    return parseUrn(urn).entityType === 'application';
  } catch {
    return false;
  }
};

/**
 * Applications (DataHub's ApplicationMapper, CreateApplicationResolver, DeleteApplicationResolver,
 * BatchSetApplicationResolver and ApplicationService): the `Application` type and `application(urn:)`, every entity's
 * `application` (the first of its `applications` aspect), and the mutations that create, delete and assign them.
 */
export function applicationResolvers(
  service: EntityService,
  loaders: Loaders,
  searchEntities: EntitySearcher,
  now: () => number,
): Resolvers[] {
  const common = commonFields(loaders);
  const mapping: EntityMapping = {
    entity: 'application',
    fields: {
      properties: (e) => {
        const v = e.value('applicationProperties');
        // The name is optional in the aspect; DataHub's non-null field then answers the key's id.
        return v && { ...v, name: typeof v.name === 'string' ? v.name : e.parts[0] };
      },
      forms: COMMON_FIELDS.forms,
    },
    resolvers: {
      ownership: common.ownership,
      tags: common.tags,
      glossaryTerms: common.glossaryTerms,
      domain: common.domain,
      institutionalMemory: common.institutionalMemory,
      aspects: common.aspects,
    },
  };
  const membership = fieldResolvers(loaders, { application: COMMON_FIELDS.application }, { rules: COMMON_RULES, ref: refWithKey });

  const query: QueryResolvers = {
    application: (_parent, { urn }, context) => ofType(loaders, 'application', urn, context),
    // DataHub declares it without a resolver; mds answers as listDataProductAssets does for a product: a search, as
    // searchAcrossEntities searches, of the entities whose `applications` aspect names the application.
    listApplicationAssets: (_parent, { urn, input }, context) => {
      urnArgument(urn);
      if (!isApplication(urn)) throw badRequest(`${urn} is not an application urn`);
      return searchEntities(
        {
          types: input.types,
          query: input.query,
          start: input.start ?? 0,
          count: input.count ?? 10,
          filters: input.filters,
          orFilters: input.orFilters,
          searchFlags: input.searchFlags,
          scope: [{ field: 'applications', values: [urn] }],
        },
        context,
      );
    },
  };
  const mutation: MutationResolvers = {
    createApplication: async (_parent, { input }, { actor }) => {
      const grant = await service.authorize(actor, EDIT);
      const id = input.id?.trim() ? input.id : randomUUID();
      const urn = `urn:li:application:${id}`;
      if (urnArgument(urn).parts[0] !== id) throw badRequest(`Invalid application id: ${JSON.stringify(id)}`);
      const reader = graphqlReader(service, actor);
      if (await reader.exists(urn)) throw badRequest('This Application already exists!');
      if (input.domainUrn != null && (urnArgument(input.domainUrn), !(await reader.exists(input.domainUrn))))
        throw badRequest(`Domain ${input.domainUrn} does not exist`);
      const stamp = { time: now(), actor: actor.urn };
      const properties = {
        name: input.properties.name,
        ...(input.properties.description == null ? {} : { description: input.properties.description }),
      };
      const edits: Edit[] = [
        { urn, aspect: 'applicationProperties', changeType: 'CREATE_ENTITY', value: properties },
        // The creator owns it, as DataHub's OwnerUtils.addCreatorAsOwner makes them.
        {
          urn,
          aspect: 'ownership',
          changeType: 'UPSERT',
          value: creatorOwnership(stamp),
        },
      ];
      if (input.domainUrn != null) edits.push({ urn, aspect: 'domains', changeType: 'UPSERT', value: { domains: [input.domainUrn] } });
      await writeAll(service, grant, edits, stamp);
      return entityRef(urn)!;
    },
    // DataHub declares it without a resolver; mds updates as updateDataProduct does: the name and description given
    // replace the stored ones (EDIT_ENTITY on the application, as deleting it asks).
    updateApplication: async (_parent, { urn, input }, { actor }) => {
      urnArgument(urn);
      const reader = graphqlReader(service, actor);
      if (!isApplication(urn) || !(await reader.exists(urn))) throw badRequest('The Application provided does not exist');
      const grant = await service.authorize(actor, EDIT, [urn]);
      await service.update(grant, { urn, aspect: 'applicationProperties' }, (current) => ({
        ...current,
        ...(input.name == null ? {} : { name: input.name }),
        ...(input.description == null ? {} : { description: input.description }),
      }));
      return entityRef(urn) ?? null;
    },
    deleteApplication: async (_parent, { urn }, { actor }) => {
      urnArgument(urn);
      const reader = graphqlReader(service, actor);
      if (!isApplication(urn) || !(await reader.exists(urn))) throw badRequest('The Application provided does not exist');
      const grant = await service.authorize(actor, EDIT, [urn]);
      // Its members leave it first, so no entity is left naming an application that is gone.
      const members = (await reader.referencesTo(urn, 'AssociatedWith')).filter((ref) => ref.aspect === 'applications');
      const memberGrant = members.length ? await service.authorize(actor, ASSIGN, [...new Set(members.map((m) => m.urn))]) : undefined;
      for (const { urn: member } of members) {
        await service.update(memberGrant!, { urn: member, aspect: 'applications' }, (current) => ({
          ...current,
          applications: (Array.isArray(current?.applications) ? current.applications : []).filter((a) => a !== urn),
        }));
      }
      await service.deleteEntity(grant, urn);
      return true;
    },
    batchSetApplication: async (_parent, { input }, { actor }) => {
      const reader = graphqlReader(service, actor);
      for (const resource of input.resourceUrns) {
        urnArgument(resource);
        if (!(await reader.exists(resource))) throw badRequest(`Failed to batch set Application, ${resource} in resources does not exist`);
      }
      const grant = await service.authorize(actor, ASSIGN, input.resourceUrns);
      const application = input.applicationUrn ?? null;
      if (application !== null && !(isApplication(application) && (await reader.exists(application))))
        throw badRequest(`Failed to batch set Application, Application urn ${application} does not exist`);
      // One application per entity: setting replaces, unsetting empties (ApplicationService's proposals).
      const value = { applications: application === null ? [] : [application] };
      await writeAll(
        service,
        grant,
        input.resourceUrns.map((urn): Edit => ({ urn, aspect: 'applications', changeType: 'UPSERT', value })),
        { time: now() },
      );
      return true;
    },
  };
  return [
    { Query: query, Mutation: mutation },
    entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey }),
    resolversIfDeclared(
      Object.fromEntries(Object.values(GRAPHQL_TYPENAMES).flatMap((type) => (type === 'Application' ? [] : [[type, membership]]))),
    ),
  ];
}
