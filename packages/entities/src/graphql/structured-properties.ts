import { Privilege } from '@mds/auth';
import { findEntity, isJsonObject, parseUrn } from '@mds/core';
import { badRequest, notFound, resolversIfDeclared, type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, type Edit, type EntityService } from '../service';
import { COMMON_RULES } from './common';
import { commonFields, refWithKey, urnArgument, type Loaders } from './common-fields';
import { ofType } from './glossary';
import { entityTypeResolvers, fieldResolvers, type EntityMapping } from './mapping/declare';
import { toGraphQL, type Json, type TypeRules } from './mapping/convert';
import type { GraphQLResolveInfo } from 'graphql';
import { graphqlReader, writeCreate } from './mutation-support';
import { entityRef, GRAPHQL_TYPENAMES } from './typenames';

const MANAGE = anyOf(Privilege.MANAGE_STRUCTURED_PROPERTIES);
/** DataHub's canEditProperties: the specific privilege, or EDIT_ENTITY. */
const EDIT_VALUES = [Privilege.EDIT_ENTITY_PROPERTIES];

/** The data types a definition's `valueType` may name (DataHub's bootstrap `data-types.yaml`), with their display names. */
const DATA_TYPES: Readonly<Record<string, { type: string; displayName: string; description: string }>> = {
  'datahub.string': { type: 'STRING', displayName: 'String', description: 'A string of characters.' },
  'datahub.number': { type: 'NUMBER', displayName: 'Number', description: 'An integer or decimal number.' },
  'datahub.urn': { type: 'URN', displayName: 'Urn', description: 'An unique identifier for a DataHub entity.' },
  'datahub.rich_text': { type: 'RICH_TEXT', displayName: 'Rich Text', description: 'An attributed string of characters.' },
  'datahub.date': { type: 'DATE', displayName: 'Date', description: 'A specific day, without time.' },
};
const DATA_TYPE_PREFIX = 'urn:li:dataType:';
const ENTITY_TYPE_PREFIX = 'urn:li:entityType:datahub.';

/** The registry entity an entity-type urn names (`urn:li:entityType:datahub.dataset`), or undefined. */
const entityTypeOfUrn = (urn: string) =>
  urn.startsWith(ENTITY_TYPE_PREFIX) ? findEntity(urn.slice(ENTITY_TYPE_PREFIX.length)) : undefined;

/** The text of a settings refusal, DataHub's (StructuredPropertyUtils.validatePropertySettings). */
const INVALID_SETTINGS = 'Cannot have property isHidden = true while other display location settings are also true.';

type PrimitiveValue = { string: string } | { double: number };
interface ValueInput {
  stringValue?: string | null;
  numberValue?: number | null;
}

/** A GraphQL value input as PDL's PrimitivePropertyValue (a string wins when both are given, as DataHub's mapper does). */
export function primitive(input: ValueInput): PrimitiveValue {
  if (input.stringValue != null) return { string: input.stringValue };
  if (input.numberValue != null) return { double: input.numberValue };
  throw badRequest('A property value needs a stringValue or a numberValue');
}

/** `{ string }` / `{ double }` as the GraphQL PropertyValue union member. */
export function propertyValueOf(value: unknown): Json | null {
  if (!isJsonObject(value)) return null;
  if (typeof value.string === 'string') return { __typename: 'StringValue', stringValue: value.string };
  if (typeof value.double === 'number') return { __typename: 'NumberValue', numberValue: value.double };
  return null;
}

const sameValue = (a: unknown, b: PrimitiveValue) =>
  isJsonObject(a) && ('string' in b ? a.string === b.string : typeof a.double === 'number' && a.double === b.double);
const shown = (value: PrimitiveValue) => JSON.stringify(value);

/** How the definition's stored shapes become DataHub's GraphQL types (StructuredPropertyMapper). */
const RULES: TypeRules = {
  ...COMMON_RULES,
  AllowedValue: { value: (allowed) => propertyValueOf(allowed.value) },
  TypeQualifier: {
    // Only urns of known entity types, as DataHub's mapper filters them.
    allowedTypes: (qualifier) =>
      Array.isArray(qualifier.allowedTypes) ? qualifier.allowedTypes.filter((t) => entityTypeOfUrn(String(t))) : [],
  },
};

/** The definition DataHub's mapper answers for a property whose definition is not (or no longer) stored. */
const DEFAULT_DEFINITION = {
  qualifiedName: '',
  cardinality: 'SINGLE',
  immutable: true,
  valueType: `${DATA_TYPE_PREFIX}datahub.string`,
  entityTypes: [`${ENTITY_TYPE_PREFIX}dataset`],
};

interface SettingsInput {
  isHidden?: boolean | null;
  showInSearchFilters?: boolean | null;
  showInAssetSummary?: boolean | null;
  showAsAssetBadge?: boolean | null;
  showInColumnsTable?: boolean | null;
}
const SETTING_KEYS = ['isHidden', 'showInSearchFilters', 'showInAssetSummary', 'showAsAssetBadge', 'showInColumnsTable'] as const;

/** Stored settings with the input's given flags applied; a hidden property shown anywhere is refused. */
function settingsWith(current: Json | undefined, input: SettingsInput, stamp: Json): Json {
  const next: Json = Object.fromEntries(SETTING_KEYS.map((key) => [key, input[key] ?? current?.[key] === true]));
  if (next.isHidden && SETTING_KEYS.some((key) => key !== 'isHidden' && next[key])) throw badRequest(INVALID_SETTINGS);
  const changed = !current || SETTING_KEYS.some((key) => next[key] !== (current[key] === true));
  return { ...next, lastModified: changed ? stamp : (current.lastModified ?? stamp) };
}

function allowedValuesOf(inputs: readonly (ValueInput & { description?: string | null })[]): Json[] {
  return inputs.map((input) => ({ value: primitive(input), ...(input.description == null ? {} : { description: input.description }) }));
}

/** A value type or entity type urn the definition may name, or the caller's 400. */
function checkTypes(valueType: string | undefined, entityTypes: readonly string[], allowedTypes: readonly string[]) {
  if (valueType !== undefined && !(valueType.startsWith(DATA_TYPE_PREFIX) && DATA_TYPES[valueType.slice(DATA_TYPE_PREFIX.length)]))
    throw badRequest(
      `Unsupported value type ${valueType}: expected one of ${Object.keys(DATA_TYPES)
        .map((t) => DATA_TYPE_PREFIX + t)
        .join(', ')}`,
    );
  for (const type of [...entityTypes, ...allowedTypes])
    if (!entityTypeOfUrn(type)) throw badRequest(`Unknown entity type ${type}: expected an urn such as ${ENTITY_TYPE_PREFIX}dataset`);
}

/**
 * Why `values` may not be assigned to `propertyUrn` under its definition (DataHub's StructuredPropertiesValidator
 * texts), or undefined when they may.
 */
export function valueViolation(propertyUrn: string, definition: Json | undefined, values: readonly PrimitiveValue[]): string | undefined {
  if (!definition) return `Unexpected null value found for ${propertyUrn} Structured Property Definition.`;
  if ((definition.cardinality ?? 'SINGLE') === 'SINGLE' && values.length > 1)
    return `Property: ${propertyUrn} has cardinality 1, but multiple values were assigned: ${values.map(shown).join(', ')}`;
  const type = DATA_TYPES[String(definition.valueType).slice(DATA_TYPE_PREFIX.length)]?.type;
  const allowed = Array.isArray(definition.allowedValues) ? definition.allowedValues.filter(isJsonObject).map((a) => a.value) : undefined;
  for (const value of values) {
    const text = 'string' in value ? value.string : undefined;
    if (type === 'NUMBER') {
      if (text !== undefined && !Number.isFinite(Number(text)))
        return `Property: ${propertyUrn}, value: ${shown(value)} should be a number`;
    } else if (type) {
      if (text === undefined) return `Property: ${propertyUrn}, value: ${shown(value)} should be a string`;
      if (type === 'DATE' && !isDate(text))
        return `Property: ${propertyUrn}, value: ${shown(value)} should be a date with format YYYY-MM-DD`;
      if (type === 'URN') {
        let entityType: string;
        try {
          entityType = parseUrn(text).entityType;
        } catch {
          return `Property: ${propertyUrn}, value: ${shown(value)} should be an urn`;
        }
        const qualifier = isJsonObject(definition.typeQualifier) ? definition.typeQualifier.allowedTypes : undefined;
        if (Array.isArray(qualifier) && !qualifier.some((t) => entityTypeOfUrn(String(t))?.name.toLowerCase() === entityType.toLowerCase()))
          return `Property: ${propertyUrn}, value: ${shown(value)} is not of any supported urn types:${JSON.stringify(qualifier)}`;
      }
    } else return `Validation support for type ${String(definition.valueType)} is not yet implemented.`;
    if (allowed && !allowed.some((a) => sameValue(a, value)))
      return `Property: ${propertyUrn}, value: ${shown(value)} should be one of ${JSON.stringify(allowed)}`;
  }
  return undefined;
}

const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

/** The structured property urn of an input, or the caller's 400. */
function propertyUrnArgument(urn: string) {
  if (urnArgument(urn).entityType !== 'structuredProperty') throw badRequest(`Invalid structured property urn: ${urn}`);
  return urn;
}

/**
 * Structured properties (DataHub's StructuredPropertyMapper, StructuredPropertiesMapper and the resolvers of
 * `resolvers/structuredproperties`): the `StructuredPropertyEntity` type and `structuredProperty(urn:)`, the data and
 * entity types a definition names, every entity's `structuredProperties`, and the five mutations defining properties
 * and assigning their values, each value checked against its definition as DataHub's validator checks it.
 */
export function structuredPropertyResolvers(service: EntityService, loaders: Loaders, now: () => number): Resolvers[] {
  const common = commonFields(loaders);
  const mapping: EntityMapping = {
    entity: 'structuredProperty',
    fields: {
      definition: (e) => e.value('propertyDefinition') ?? DEFAULT_DEFINITION,
      settings: 'structuredPropertySettings',
    },
    resolvers: { exists: common.exists },
  };
  // Data and entity types answer what DataHub bootstraps for them when nothing is stored (dataTypeInfo, entityTypeInfo).
  const typeMappings: EntityMapping[] = [
    {
      entity: 'dataType',
      fields: {
        info: (e) => {
          const id = e.urn.slice(DATA_TYPE_PREFIX.length);
          const known = DATA_TYPES[id];
          const stored = e.value('dataTypeInfo');
          return {
            qualifiedName: id,
            ...(known && { displayName: known.displayName, description: known.description }),
            ...stored,
            type: known?.type ?? 'OTHER',
          };
        },
      },
    },
    {
      entity: 'entityType',
      fields: {
        info: (e) => {
          const spec = entityTypeOfUrn(e.urn);
          const stored = e.value('entityTypeInfo');
          return {
            qualifiedName: e.parts[0] ?? '',
            ...(spec && { displayName: spec.name }),
            ...stored,
            type: spec?.graphqlType ?? 'OTHER',
          };
        },
      },
    },
  ];
  const valuesField = fieldResolvers(loaders, { structuredProperties: 'structuredProperties' }, { rules: COMMON_RULES, ref: refWithKey });

  /** The definitions of some property urns, by urn (absent: none stored). */
  const definitions = async (actor: ApiContext['actor'], urns: readonly string[]) => {
    const stored = await graphqlReader(service, actor).latest(urns, ['propertyDefinition']);
    return new Map(urns.map((urn) => [urn, stored.get(urn)?.get('propertyDefinition')?.value]));
  };
  const answer = (urn: string): EntityParent => entityRef(urn)!;
  /** The aspect a mutation wrote, answered as every entity's `structuredProperties` reads it (DataHub maps what it wrote). */
  const valuesAnswer = (assetUrn: string, value: Json, info: GraphQLResolveInfo) =>
    toGraphQL(value, info.returnType, { urn: assetUrn, schema: info.schema, rules: COMMON_RULES, ref: refWithKey }) as never;

  return [
    {
      Query: { structuredProperty: (_parent, { urn }, context) => ofType(loaders, 'structuredProperty', urn, context) },
      Mutation: {
        createStructuredProperty: async (_parent, { input }, { actor }) => {
          const grant = await service.authorize(
            actor,
            MANAGE,
            undefined,
            'Unable to create structured property. Please contact your admin.',
          );
          if (input.id != null && input.qualifiedName != null && input.id !== input.qualifiedName)
            throw badRequest('Qualified name and the ID of a structured property must match');
          const id = input.qualifiedName ?? input.id ?? randomUUID();
          const urn = `urn:li:structuredProperty:${id}`;
          propertyUrnArgument(urn);
          checkTypes(input.valueType, input.entityTypes, input.typeQualifier?.allowedTypes ?? []);
          if (await graphqlReader(service, actor).exists(urn)) throw badRequest('A structured property already exists with this urn');
          const stamp = { time: now(), actor: actor.urn };
          const definition: Json = {
            qualifiedName: id,
            valueType: input.valueType,
            entityTypes: [...new Set(input.entityTypes)],
            cardinality: input.cardinality ?? 'SINGLE',
            immutable: input.immutable ?? false,
            ...(input.displayName == null ? {} : { displayName: input.displayName }),
            ...(input.description == null ? {} : { description: input.description }),
            ...(input.typeQualifier?.allowedTypes == null ? {} : { typeQualifier: { allowedTypes: input.typeQualifier.allowedTypes } }),
            // No allowed values (the UI's form sends []) leaves any value allowed, as DataHub's patch adds none.
            ...(input.allowedValues?.length ? { allowedValues: allowedValuesOf(input.allowedValues) } : {}),
            created: stamp,
            lastModified: stamp,
          };
          const edits: Edit[] = [{ urn, aspect: 'propertyDefinition', changeType: 'CREATE_ENTITY', value: definition }];
          if (input.settings)
            edits.push({
              urn,
              aspect: 'structuredPropertySettings',
              changeType: 'UPSERT',
              value: settingsWith(undefined, input.settings, stamp),
            });
          await writeCreate(service, grant, edits, stamp, 'A structured property already exists with this urn');
          return answer(urn);
        },
        updateStructuredProperty: async (_parent, { input }, { actor }) => {
          const grant = await service.authorize(
            actor,
            MANAGE,
            undefined,
            'Unable to update structured property. Please contact your admin.',
          );
          const urn = propertyUrnArgument(input.urn);
          if (!(await definitions(actor, [urn])).get(urn)) throw notFound(`Structured property ${urn} does not exist`);
          checkTypes(undefined, input.newEntityTypes ?? [], input.typeQualifier?.newAllowedTypes ?? []);
          const stamp = { time: now(), actor: actor.urn };
          const widened =
            input.displayName != null ||
            input.description != null ||
            input.immutable != null ||
            input.typeQualifier?.newAllowedTypes != null ||
            input.newAllowedValues != null ||
            input.setCardinalityAsMultiple === true ||
            input.newEntityTypes != null;
          if (widened) {
            await service.update(
              grant,
              { urn, aspect: 'propertyDefinition' },
              (current = {}) => {
                const next: Json = { ...current, lastModified: stamp };
                if (input.displayName != null) next.displayName = input.displayName;
                if (input.description != null) next.description = input.description;
                if (input.immutable != null) next.immutable = input.immutable;
                if (input.setCardinalityAsMultiple === true) next.cardinality = 'MULTIPLE';
                const strings = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
                if (input.newEntityTypes != null)
                  next.entityTypes = [...new Set([...strings(current.entityTypes), ...input.newEntityTypes])];
                if (input.typeQualifier?.newAllowedTypes != null) {
                  const before = isJsonObject(current.typeQualifier) ? strings(current.typeQualifier.allowedTypes) : [];
                  next.typeQualifier = { allowedTypes: [...new Set([...before, ...input.typeQualifier.newAllowedTypes])] };
                }
                if (input.newAllowedValues?.length) {
                  const before = Array.isArray(current.allowedValues) ? current.allowedValues.filter(isJsonObject) : [];
                  const added = allowedValuesOf(input.newAllowedValues).filter(
                    (a) => !before.some((b) => sameValue(b.value, a.value as PrimitiveValue)),
                  );
                  next.allowedValues = [...before, ...added];
                }
                return next;
              },
              stamp,
            );
          }
          if (input.settings) {
            const settings = input.settings;
            await service.update(
              grant,
              { urn, aspect: 'structuredPropertySettings' },
              (current) => settingsWith(current, settings, stamp),
              stamp,
            );
          }
          return answer(urn);
        },
        deleteStructuredProperty: async (_parent, { input }, { actor }) => {
          const grant = await service.authorize(
            actor,
            MANAGE,
            undefined,
            'Unable to delete structured property. Please contact your admin.',
          );
          const urn = propertyUrnArgument(input.urn);
          await service.deleteEntity(grant, urn);
          return true;
        },
        upsertStructuredProperties: async (_parent, { input }, { actor }, info) => {
          const assetUrn = input.assetUrn;
          const asset = urnArgument(assetUrn);
          const grant = await service.authorizeEdit(
            actor,
            [assetUrn],
            EDIT_VALUES,
            `Not authorized to update properties on the gives urn ${assetUrn}`,
          );
          // A schema field's entity is often not stored: its values create it, as DataHub's resolver allows.
          if (asset.entityType !== 'schemaField' && !(await graphqlReader(service, actor).exists(assetUrn)))
            throw notFound(`Asset with provided urn ${assetUrn} does not exist`);
          const assigned = new Map<string, PrimitiveValue[]>();
          for (const param of input.structuredPropertyInputParams)
            assigned.set(propertyUrnArgument(param.structuredPropertyUrn), param.values.map(primitive));
          const defined = await definitions(actor, [...assigned.keys()]);
          for (const [urn, values] of assigned) {
            const violation = valueViolation(urn, defined.get(urn), values);
            if (violation) throw badRequest(violation);
          }
          const stamp = { time: now(), actor: actor.urn };
          const { value } = await service.update(
            grant,
            { urn: assetUrn, aspect: 'structuredProperties' },
            (current) => {
              const properties = (Array.isArray(current?.properties) ? current.properties.filter(isJsonObject) : []).map((entry) => {
                const values = assigned.get(String(entry.propertyUrn));
                if (!values) return entry;
                if (isJsonObject(defined.get(String(entry.propertyUrn))) && defined.get(String(entry.propertyUrn))!.immutable === true)
                  throw badRequest(`Cannot mutate an immutable property: ${String(entry.propertyUrn)}`);
                const { attribution: _dropped, ...kept } = entry;
                return { ...kept, values, lastModified: stamp };
              });
              const present = new Set(properties.map((entry) => String(entry.propertyUrn)));
              for (const [propertyUrn, values] of assigned)
                if (!present.has(propertyUrn)) properties.push({ propertyUrn, values, created: stamp, lastModified: stamp });
              return { ...current, properties };
            },
            stamp,
          );
          return valuesAnswer(assetUrn, value, info);
        },
        removeStructuredProperties: async (_parent, { input }, { actor }, info) => {
          const assetUrn = input.assetUrn;
          urnArgument(assetUrn);
          const grant = await service.authorizeEdit(
            actor,
            [assetUrn],
            EDIT_VALUES,
            `Not authorized to update properties on the gives urn ${assetUrn}`,
          );
          const removed = new Set(input.structuredPropertyUrns.map(propertyUrnArgument));
          const defined = await definitions(actor, [...removed]);
          const stamp = { time: now(), actor: actor.urn };
          const { value } = await service.update(
            grant,
            { urn: assetUrn, aspect: 'structuredProperties' },
            (current) => {
              const properties = Array.isArray(current?.properties) ? current.properties.filter(isJsonObject) : [];
              for (const entry of properties)
                if (removed.has(String(entry.propertyUrn)) && defined.get(String(entry.propertyUrn))?.immutable === true)
                  throw badRequest(`Cannot delete an immutable property ${String(entry.propertyUrn)}`);
              return { ...current, properties: properties.filter((entry) => !removed.has(String(entry.propertyUrn))) };
            },
            stamp,
          );
          return valuesAnswer(assetUrn, value, info);
        },
      },
    },
    entityTypeResolvers(loaders, [mapping, ...typeMappings], { rules: RULES, ref: refWithKey }),
    resolversIfDeclared(Object.fromEntries(Object.values(GRAPHQL_TYPENAMES).map((type) => [type, valuesField]))),
  ];
}
