import { Privilege } from '@mds/auth';
import { isJsonObject, MAX_PAGE_SIZE, urnTypeOf } from '@mds/core';
import { SearchQueryError, type SearchIndex } from '@mds/search';
import { badRequest, conflict, type Actor, type MutationResolvers, type QueryResolvers, type Resolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, editPrivileges, SYSTEM_ACTOR, type Edit, type EntityReader, type EntityService } from '../service';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { list, pageOrRefuse, refWithKey, text, urnArgument, type Loaders } from './common-fields';
import { fieldType } from './dataset';
import { ofType } from './glossary';
import { entityTypeResolvers, fieldResolvers, type EntityMapping } from './mapping/declare';
import { graphqlReader, writeAll, writeCreate } from './mutation-support';
import { creatorOwnership } from './ownership';
import { entityRef } from './typenames';

const INFO = 'businessAttributeInfo';
const ON_FIELD = 'businessAttributes';
/** BusinessAttributeAuthorizationUtils: creating and updating take either privilege, deleting only MANAGE. */
const CREATE = anyOf(Privilege.CREATE_BUSINESS_ATTRIBUTE, Privilege.MANAGE_BUSINESS_ATTRIBUTE);
const MANAGE = anyOf(Privilege.MANAGE_BUSINESS_ATTRIBUTE);
/** Attaching and detaching are decided on the field's dataset: EDIT_ENTITY or the column privilege. */
const EDIT_FIELD = editPrivileges([Privilege.EDIT_DATASET_COL_BUSINESS_ATTRIBUTE]);

/** The data types DataHub's BusinessAttributeUtils writes (NULL, STRUCT and UNION write none), as PDL type classes. */
const WRITTEN_TYPES = new Set(['BYTES', 'FIXED', 'ENUM', 'MAP', 'TIME', 'BOOLEAN', 'STRING', 'NUMBER', 'DATE', 'ARRAY']);
const storedType = (type: string | null | undefined) =>
  type && WRITTEN_TYPES.has(type) ? { type: { [`com.linkedin.schema.${type[0]}${type.slice(1).toLowerCase()}Type`]: {} } } : undefined;

const isBusinessAttribute = (urn: string) => urnTypeOf(urn) === 'businessAttribute';

/** Whether a business attribute other than `except` has `name` (BusinessAttributeUtils.hasNameConflict: its name, exactly). */
export const businessAttributeNameTaken =
  (search: SearchIndex) =>
  async (name: string, except?: string): Promise<boolean> => {
    const found = await search.search({
      entityTypes: ['businessAttribute'],
      input: '*',
      filters: [[{ field: 'name', values: [name] }]],
      start: 0,
      count: MAX_PAGE_SIZE,
      facets: [],
    });
    return found.hits.some((hit) => hit.urn !== except);
  };

/**
 * Business attributes (DataHub's BusinessAttributeMapper, BusinessAttributesMapper, the resolvers of
 * `resolvers/businessattribute` and BusinessAttributeUtils): the `BusinessAttribute` type, `businessAttribute(urn:)`,
 * `listBusinessAttributes`, a schema field's `businessAttributes`, and the mutations that define and attach them.
 */
export function businessAttributeResolvers(service: EntityService, search: SearchIndex, loaders: Loaders, now: () => number): Resolvers[] {
  const mapping: EntityMapping = {
    entity: 'businessAttribute',
    fields: {
      properties: (e) => {
        const v = e.value(INFO);
        // The name shown is the fieldPath (the create and update mutations write both); deleted is never mapped.
        return v && { ...v, name: text(v.fieldPath) ?? v.name, tags: v.globalTags, type: fieldType(v), deleted: undefined };
      },
      ownership: COMMON_FIELDS.ownership,
      institutionalMemory: COMMON_FIELDS.institutionalMemory,
      status: () => undefined,
    },
  };
  const onField = fieldResolvers(
    loaders,
    { businessAttributes: ON_FIELD },
    { rules: { ...COMMON_RULES, BusinessAttributeAssociation: { businessAttribute: 'businessAttributeUrn' } }, ref: refWithKey },
  );

  const nameTaken = businessAttributeNameTaken(search);
  const refuseTaken = async (name: string, except?: string) => {
    if (await nameTaken(name, except)) throw conflict(`"${name}" already exists as Business Attribute. Please pick a unique name.`);
  };

  /**
   * The schema fields of a mutation's resources with a grant to write them, decided on their datasets
   * (BusinessAttributeAuthorizationUtils.isAuthorizedToEditBusinessAttribute).
   */
  const fieldsOf = async (actor: Actor, resources: readonly { resourceUrn: string }[], failure: string) => {
    const fields = resources.map(({ resourceUrn }) => {
      const parsed = urnArgument(resourceUrn);
      if (parsed.entityType !== 'schemaField')
        throw badRequest(`${failure}: ${resourceUrn} is not a schema field urn (urn:li:schemaField:(<dataset urn>,<field path>))`);
      return { urn: resourceUrn, parent: parsed.parts[0]! };
    });
    const urns = fields.map((f) => f.urn);
    const grant = await service.authorizeFor(actor, EDIT_FIELD, [...new Set(fields.map((f) => f.parent))], urns);
    return { urns, grant };
  };

  const query: QueryResolvers = {
    businessAttribute: (_parent, { urn }, context) => ofType(loaders, 'businessAttribute', urn, context),
    listBusinessAttributes: async (_parent, { input }) => {
      const page = pageOrRefuse(input.start ?? 0, input.count ?? 20);
      let found;
      try {
        found = await search.search({
          entityTypes: ['businessAttribute'],
          input: input.query?.trim() || '*',
          start: page.start,
          count: page.count,
          facets: [],
        });
      } catch (error) {
        if (error instanceof SearchQueryError) throw badRequest(error.message);
        throw error;
      }
      const businessAttributes = found.hits.flatMap((hit) => entityRef(hit.urn) ?? []);
      return { start: page.start, count: businessAttributes.length, total: found.total, businessAttributes };
    },
  };

  const mutation: MutationResolvers = {
    createBusinessAttribute: async (_parent, { input }, { actor }) => {
      const grant = await service.authorize(actor, CREATE);
      const id = input.id ?? randomUUID();
      const urn = `urn:li:businessAttribute:${id}`;
      if (urnArgument(urn).parts[0] !== id) throw badRequest(`Invalid business attribute id: ${JSON.stringify(id)}`);
      if (input.name.trim() === '') throw badRequest("'name' must not be blank");
      const exists = 'This Business Attribute already exists!';
      if (await graphqlReader(service, actor).exists(urn)) throw badRequest(exists);
      await refuseTaken(input.name);
      const stamp = { time: now(), actor: actor.urn };
      const type = storedType(input.type);
      const info = {
        fieldPath: input.name,
        name: input.name,
        ...(input.description == null ? {} : { description: input.description }),
        ...(type ? { type } : {}),
        created: stamp,
        lastModified: stamp,
      };
      await writeCreate(
        service,
        grant,
        [
          { urn, aspect: INFO, changeType: 'CREATE_ENTITY', value: info },
          // The creator owns it (OwnerUtils.addCreatorAsOwner).
          { urn, aspect: 'ownership', changeType: 'UPSERT', value: creatorOwnership(stamp) },
        ],
        stamp,
        exists,
      );
      return entityRef(urn)!;
    },
    updateBusinessAttribute: async (_parent, { urn, input }, { actor }) => {
      urnArgument(urn);
      const grant = await service.authorize(actor, CREATE);
      const reader = graphqlReader(service, actor);
      if (!isBusinessAttribute(urn) || !(await reader.exists(urn))) throw badRequest(`This urn does not exist: ${urn}`);
      if (!(await reader.get(urn, INFO)))
        throw badRequest(`Failed to update Business Attribute. Business Attribute with urn ${urn} does not exist.`);
      if (input.name != null) {
        if (input.name.trim() === '') throw badRequest("'name' must not be blank");
        // Its own name is no conflict (DataHub's check would refuse renaming an attribute to its current name).
        await refuseTaken(input.name, urn);
      }
      const stamp = { time: now(), actor: actor.urn };
      const type = storedType(input.type);
      await service.update(
        grant,
        { urn, aspect: INFO },
        (current) => ({
          ...current,
          ...(input.name == null ? {} : { name: input.name, fieldPath: input.name }),
          ...(input.description == null ? {} : { description: input.description }),
          ...(type ? { type } : {}),
          lastModified: stamp,
        }),
        stamp,
      );
      return entityRef(urn)!;
    },
    deleteBusinessAttribute: async (_parent, { urn }, { actor }) => {
      urnArgument(urn);
      const grant = await service.authorize(actor, MANAGE);
      const reader = graphqlReader(service, actor);
      if (!isBusinessAttribute(urn) || !(await reader.exists(urn))) throw badRequest(`This urn does not exist: ${urn}`);
      // DataHub clears the fields carrying it after the delete, asynchronously; here it is done first, by the system.
      const edits = await detaching(reader, urn);
      if (edits.length) await service.write(grant, edits, { time: now(), actor: SYSTEM_ACTOR.urn });
      await service.deleteEntity(grant, urn);
      return true;
    },
    addBusinessAttribute: async (_parent, { input }, { actor }) => {
      const attribute = input.businessAttributeUrn;
      urnArgument(attribute);
      if (!isBusinessAttribute(attribute) || !(await graphqlReader(service, actor).exists(attribute)))
        throw badRequest(`This urn does not exist: ${attribute}`);
      const { urns, grant } = await fieldsOf(actor, input.resourceUrn, `Failed to add Business Attribute ${attribute}`);
      // The aspect holds the one association: attaching replaces whatever the field carried.
      const value = { businessAttribute: { businessAttributeUrn: attribute } };
      return writeAll(
        service,
        grant,
        urns.map((urn): Edit => ({ urn, aspect: ON_FIELD, changeType: 'UPSERT', value })),
        { time: now() },
      );
    },
    removeBusinessAttribute: async (_parent, { input }, { actor }) => {
      const failure = `Failed to remove Business Attribute with urn ${input.businessAttributeUrn}`;
      const { urns, grant } = await fieldsOf(actor, input.resourceUrn, failure);
      // As DataHub's resolver, whatever attribute the field carries is detached; one carrying none is refused.
      const stored = await graphqlReader(service, actor).latest(urns, [ON_FIELD]);
      for (const urn of urns) {
        if (!isJsonObject(stored.get(urn)?.get(ON_FIELD)?.value.businessAttribute))
          throw badRequest(`${failure}: Schema field has not attached with business attribute`);
      }
      return writeAll(
        service,
        grant,
        urns.map((urn): Edit => ({ urn, aspect: ON_FIELD, changeType: 'UPSERT', value: {} })),
        { time: now() },
      );
    },
  };

  return [
    { Query: query, Mutation: mutation },
    entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey }),
    { SchemaFieldEntity: onField },
  ];
}

/** The edits detaching a business attribute from every schema field carrying it (its `BusinessAttributeOf` edges). */
async function detaching(reader: EntityReader, urn: string): Promise<Edit[]> {
  const fields = (await reader.referencesTo(urn, 'BusinessAttributeOf')).filter((ref) => ref.aspect === ON_FIELD).map((ref) => ref.urn);
  return [...new Set(fields)].map((field) => ({ urn: field, aspect: ON_FIELD, changeType: 'UPSERT', value: {} }));
}

/** Where a kind of label is kept: its set's name, the set's list and each association's urn key (tag-mutations.ts). */
interface Labels {
  aspect: string;
  list: string;
  key: string;
  /** Whether the set carries the caller's stamp (glossary terms). */
  stamped: boolean;
}

/**
 * The edit adding or removing labels of a business attribute: its businessAttributeInfo takes no PATCH, so the set
 * is read, changed and written back, conditional on the version read (a concurrent edit fails rather than being
 * lost). An attribute without info has no set to change.
 */
export async function businessAttributeLabels(
  reader: EntityReader,
  urn: string,
  labels: Labels,
  labelUrns: readonly string[],
  op: 'add' | 'remove',
  stamp: { time: number; actor: string },
): Promise<Edit> {
  const stored = (await reader.latest([urn], [INFO])).get(urn)?.get(INFO);
  if (!stored) throw badRequest(`Failed to update resource with urn ${urn}. Business Attribute info does not exist.`);
  const held = stored.value[labels.aspect];
  const set: Record<string, unknown> = isJsonObject(held) ? held : {};
  const current = list(set[labels.list]);
  const has = (label: string) => current.some((association) => association[labels.key] === label);
  const changed =
    op === 'add'
      ? [...current, ...[...new Set(labelUrns)].filter((label) => !has(label)).map((label) => ({ [labels.key]: label }))]
      : current.filter((association) => !labelUrns.includes(association[labels.key] as string));
  const value = { ...stored.value, [labels.aspect]: { ...set, [labels.list]: changed, ...(labels.stamped ? { auditStamp: stamp } : {}) } };
  const version = stored.systemMetadata?.version;
  return {
    urn,
    aspect: INFO,
    changeType: 'UPSERT',
    value,
    headers: { 'If-Version-Match': version === undefined ? '-1' : String(version) },
  };
}
