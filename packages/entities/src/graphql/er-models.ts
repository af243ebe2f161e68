import { Privilege } from '@mds/auth';
import { isJsonObject } from '@mds/core';
import { badRequest, notFound, type MutationResolvers, type QueryResolvers, type Resolvers } from '@mds/schema';
import { createHash } from 'node:crypto';
import { editPrivileges, type Edit, type EntityService } from '../service';
import { COMMON_RULES } from './common';
import { commonFields, refWithKey, urnArgument, type Loaders } from './common-fields';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import { graphqlReader, writeAll } from './mutation-support';
import { rootQuery } from './root-queries';
import { entityRef } from './typenames';

type Aspect = Record<string, unknown>;
type Stamp = { time: number; actor: string };
type Cardinality = 'ONE_ONE' | 'ONE_N' | 'N_ONE' | 'N_N';
interface PropertiesInput {
  name: string;
  source: string;
  destination: string;
  relationshipFieldmappings?: readonly { sourceField?: string | null; destinationField?: string | null }[] | null;
  created?: boolean | null;
  createdAt?: number | null;
  createdBy?: string | null;
  erModelRelationshipCardinality?: Cardinality | null;
}
interface UpdateInput {
  properties?: PropertiesInput | null;
  editableProperties?: { name?: string | null; description: string } | null;
}

/** Who creates a relationship between two datasets (asked on each): EDIT_ENTITY or CREATE_ENTITY_ER_MODEL_RELATIONSHIP. */
const CREATE = editPrivileges([Privilege.CREATE_ENTITY_ER_MODEL_RELATIONSHIP]);

/**
 * The id DataHub's CreateERModelRelationshipResolver gives a relationship: the md5 of a JSON-like text of its name and
 * its two datasets, the smaller urn first, so the same name between the same datasets is the same relationship.
 */
export function relationshipId(name: string, source: string, destination: string): string {
  const [low, high] = source > destination ? [destination, source] : [source, destination];
  return createHash('md5').update(`{"Destination":"${low}","ERModelRelationName":"${name}","Source":"${high}"}`, 'utf8').digest('hex');
}

/** The cardinality of field mappings when none is given: a side whose fields repeat is the N side (DataHub's rule). */
function cardinalityOf(mappings: readonly { sourceField?: string | null; destinationField?: string | null }[]): Cardinality {
  const distinct = (values: unknown[]) => new Set(values).size === values.length;
  const sourceOne = distinct(mappings.map((m) => m.sourceField));
  const destinationOne = distinct(mappings.map((m) => m.destinationField));
  if (sourceOne) return destinationOne ? 'ONE_ONE' : 'N_ONE';
  return destinationOne ? 'ONE_N' : 'N_N';
}

/** A dataset urn of the input, or the caller's 400. */
function datasetArgument(urn: string, role: string): string {
  if (urnArgument(urn).entityType !== 'dataset') throw badRequest(`The ${role} of an ER model relationship must be a dataset urn: ${urn}`);
  return urn;
}

/**
 * The aspects an input writes (DataHub's ERModelRelationshipUpdateInputMapper): the properties with the mappings,
 * their cardinality (given, or worked out), the creation stamp (`created: true` the caller now, or `createdBy` at a
 * non-zero `createdAt`) and the modification stamp; the editable name and description when not blank.
 */
function proposals(urn: string, input: UpdateInput, stamp: Stamp, stored: Aspect | undefined): Edit[] {
  const edits: Edit[] = [];
  const p = input.properties;
  if (p) {
    const mappings = (p.relationshipFieldmappings ?? []).map((m) => ({ sourceField: m.sourceField, destinationField: m.destinationField }));
    const created = p.created
      ? stamp
      : p.createdBy && p.createdAt
        ? { actor: (urnArgument(p.createdBy), p.createdBy), time: p.createdAt }
        : // mds keeps the stored creation stamp an edit does not restate (DataHub's rewrite drops it).
          (stored?.created as Stamp | undefined);
    edits.push({
      urn,
      aspect: 'erModelRelationshipProperties',
      changeType: 'UPSERT',
      value: {
        ...(isJsonObject(stored?.customProperties) ? { customProperties: stored.customProperties } : {}),
        name: p.name,
        source: datasetArgument(p.source, 'source'),
        destination: datasetArgument(p.destination, 'destination'),
        relationshipFieldMappings: mappings,
        ...(mappings.length ? { cardinality: p.erModelRelationshipCardinality ?? cardinalityOf(mappings) } : {}),
        ...(created ? { created } : {}),
        lastModified: stamp,
      },
    });
  }
  const e = input.editableProperties;
  if (e) {
    const blank = (text: string | null | undefined) => !text?.trim();
    edits.push({
      urn,
      aspect: 'editableERModelRelationshipProperties',
      changeType: 'UPSERT',
      value: { ...(blank(e.name) ? {} : { name: e.name }), ...(blank(e.description) ? {} : { description: e.description }) },
    });
  }
  return edits;
}

/**
 * ER model relationships (DataHub's ERModelRelationMapper, ERModelRelationshipType, Create/UpdateERModelRelationship
 * resolvers): the `ERModelRelationship` type from its key, properties, editable properties and the shared aspects,
 * `erModelRelationship(urn:)`, and the two mutations writing what the input gives.
 */
export function erModelResolvers(service: EntityService, loaders: Loaders, now: () => number): Resolvers[] {
  const common = commonFields(loaders);
  const mapping: EntityMapping = {
    entity: 'erModelRelationship',
    fields: {
      id: (e) => e.parts[0],
      properties: (e) => {
        const v = e.value('erModelRelationshipProperties');
        if (!v) return undefined;
        const created = isJsonObject(v.created) ? v.created : undefined;
        return {
          ...v,
          createdTime: typeof created?.time === 'number' && created.time > 0 ? created.time : 0,
          createdActor: created?.actor,
          relationshipFieldMappings: Array.isArray(v.relationshipFieldMappings) ? v.relationshipFieldMappings : null,
          cardinality: v.cardinality ?? 'N_N',
        };
      },
      editableProperties: 'editableERModelRelationshipProperties',
    },
    resolvers: {
      institutionalMemory: common.institutionalMemory,
      ownership: common.ownership,
      status: common.status,
      tags: common.tags,
      glossaryTerms: common.glossaryTerms,
    },
  };

  const stored = async (actor: Parameters<typeof graphqlReader>[1], urn: string) =>
    (await graphqlReader(service, actor).latest([urn], ['erModelRelationshipProperties'])).get(urn)?.get('erModelRelationshipProperties')
      ?.value;

  const query: QueryResolvers = { erModelRelationship: rootQuery(loaders, 'erModelRelationship') };
  const mutation: MutationResolvers = {
    createERModelRelationship: async (_parent, { input }, { actor }) => {
      const p = input.properties;
      if (!p) throw badRequest('An ER model relationship is created from its properties');
      const [source, destination] = [datasetArgument(p.source, 'source'), datasetArgument(p.destination, 'destination')];
      const urn = `urn:li:erModelRelationship:${relationshipId(p.name, source, destination)}`;
      await service.authorize(
        actor,
        CREATE,
        [source, destination],
        'Unauthorized to create erModelRelationship. Please contact your DataHub administrator.',
      );
      const grant = await service.authorizeFor(actor, CREATE, [source, destination], [urn]);
      const stamp = { time: now(), actor: actor.urn };
      await writeAll(service, grant, proposals(urn, input, stamp, await stored(actor, urn)), stamp);
      return entityRef(urn)!;
    },

    updateERModelRelationship: async (_parent, { urn, input }, { actor }) => {
      if (urnArgument(urn).entityType !== 'erModelRelationship') throw badRequest(`${urn} is not an ER model relationship urn`);
      // EDIT_ENTITY, or EDIT_ENTITY_DOCS when the editable properties change (DataHub's group is empty otherwise,
      // which would let anyone rewrite the properties: mds asks EDIT_ENTITY then).
      const grant = await service.authorizeEdit(actor, [urn], input.editableProperties ? [Privilege.EDIT_ENTITY_DOCS] : []);
      if (!(await graphqlReader(service, actor).exists(urn))) throw notFound(`ER model relationship ${urn} does not exist`);
      const stamp = { time: now(), actor: actor.urn };
      await writeAll(service, grant, proposals(urn, input, stamp, await stored(actor, urn)), stamp);
      return true;
    },

    // DataHub declares it but wires no resolver (its answer is always null); mds deletes, asking what creating asks on
    // the two datasets joined: who may create the relationship may delete it.
    deleteERModelRelationship: async (_parent, { urn }, { actor }) => {
      if (urnArgument(urn).entityType !== 'erModelRelationship') throw badRequest(`${urn} is not an ER model relationship urn`);
      const properties = await stored(actor, urn);
      if (!(await graphqlReader(service, actor).exists(urn))) throw notFound(`ER model relationship ${urn} does not exist`);
      const joined = [properties?.source, properties?.destination].filter((d): d is string => typeof d === 'string');
      const grant = joined.length
        ? await service.authorizeFor(actor, CREATE, joined, [urn])
        : await service.authorizeEdit(actor, [urn], [Privilege.DELETE_ENTITY]);
      await service.deleteEntity(grant, urn);
      return true;
    },
  };

  return [{ Query: query, Mutation: mutation }, entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey })];
}
