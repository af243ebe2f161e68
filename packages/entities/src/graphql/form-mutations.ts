import { Privilege } from '@mds/auth';
import { isJsonObject, MAX_PAGE_SIZE } from '@mds/core';
import { SearchQueryError, type Criterion, type SearchIndex } from '@mds/search';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, editPrivileges, formInfoOf, type Edit, type EntityService, type Grant } from '../service';
import { urnArgument } from './common-fields';
import type { Json } from './mapping/convert';
import { graphqlReader, writeCreate } from './mutation-support';
import { primitive, valueViolation } from './structured-properties';
import { entityRef } from './typenames';

const MANAGE = anyOf(Privilege.MANAGE_DOCUMENTATION_FORMS);
/** Who may answer a prompt besides the form's actors: who may edit the asset's structured properties. */
const EDIT_VALUES = [Privilege.EDIT_ENTITY_PROPERTIES];
/** The entity types whose forms aspect names a deleted form (DataHub's DeleteEntityUtils.getEntityNamesForFormDeletion). */
const WITH_FORMS = [
  'dataset',
  'dataJob',
  'dataFlow',
  'chart',
  'dashboard',
  'corpuser',
  'corpGroup',
  'domain',
  'container',
  'glossaryTerm',
  'glossaryNode',
  'mlModel',
  'mlModelGroup',
  'mlFeatureTable',
  'mlFeature',
  'mlPrimaryKey',
  'schemaField',
  'dataProduct',
];
/** The entity types a dynamic assignment searches (DataHub's SearchBasedFormAssignmentManager: WITH_FORMS but fields). */
const DYNAMIC_TYPES = WITH_FORMS.filter((type) => type !== 'schemaField');
/**
 * The most assets one dynamic assignment assigns, in its one write: a filter matching more is refused (400) and nothing
 * is written. DataHub scrolls any number in a background thread; mds assigns within the request, all or none.
 */
export const MAX_DYNAMIC_ASSETS = 1_000;

type Stamp = { time: number; actor: string };
type Association = { urn: string; completedPrompts: Json[]; incompletePrompts: Json[] } & Json;
interface FormsAspect extends Json {
  incompleteForms: Association[];
  completedForms: Association[];
  verifications: Json[];
}

interface PromptInput {
  id?: string | null;
  title: string;
  description?: string | null;
  type: string;
  required?: boolean | null;
  structuredPropertyParams?: { urn: string } | null;
}

/**
 * The forms aspect with `formUrn` added to its incomplete forms, every prompt of the form incomplete; undefined when
 * the form is already on the asset (DataHub's FormService.buildAssignFormChange).
 */
function withForm(forms: FormsAspect, formUrn: string, info: Json, stamp: Stamp): FormsAspect | undefined {
  if ([...forms.incompleteForms, ...forms.completedForms].some((a) => a.urn === formUrn)) return undefined;
  const incompletePrompts = objects(info.prompts).map((p) => ({ id: p.id, lastModified: stamp }));
  return { ...forms, incompleteForms: [...forms.incompleteForms, { urn: formUrn, incompletePrompts, completedPrompts: [] }] };
}

/** `{ [key]: value }`, or nothing when the value is undefined. */
const defined = (key: string, value: unknown): Json => (value === undefined ? {} : { [key]: value });
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);
const associations = (value: unknown): Association[] =>
  objects(value).map((a) => ({
    ...a,
    urn: String(a.urn),
    completedPrompts: objects(a.completedPrompts),
    incompletePrompts: objects(a.incompletePrompts),
  }));
/** A stored forms aspect with its lists present (an asset without one: none assigned). */
const formsOf = (value: Json | undefined): FormsAspect => ({
  ...value,
  incompleteForms: associations(value?.incompleteForms),
  completedForms: associations(value?.completedForms),
  verifications: objects(value?.verifications),
});

/** DataHub's FormUtils.mapPrompt: a prompt's id is given or made; a structured property prompt must name its property. */
function promptOf(input: PromptInput): Json {
  if (!input.structuredPropertyParams)
    throw badRequest('Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params');
  if (urnArgument(input.structuredPropertyParams.urn).entityType !== 'structuredProperty')
    throw badRequest(`Invalid structured property urn: ${input.structuredPropertyParams.urn}`);
  return {
    id: input.id ?? randomUUID(),
    title: input.title,
    ...(input.description == null ? {} : { description: input.description }),
    type: input.type,
    structuredPropertyParams: { urn: input.structuredPropertyParams.urn },
    ...(input.required == null ? {} : { required: input.required }),
  };
}

const userUrns = (urns: readonly string[] | null | undefined, entityType: string) =>
  (urns ?? []).map((urn) => {
    if (urnArgument(urn).entityType !== entityType) throw badRequest(`Invalid ${entityType} urn: ${urn}`);
    return urn;
  });

/** The form's urn, or the caller's 400 (DataHub's UrnUtils.getUrn refuses a malformed one; another type names no form). */
function formUrnArgument(urn: string) {
  if (urnArgument(urn).entityType !== 'form') throw badRequest(`Invalid form urn: ${urn}`);
  return urn;
}

/** Whether every required prompt of the form is among the association's completed ones (DataHub's isFormCompleted). */
function isCompleted(association: Association, info: Json): boolean {
  const done = new Set(association.completedPrompts.map((p) => p.id));
  return objects(info.prompts).every((prompt) => prompt.required !== true || done.has(prompt.id));
}

/**
 * Moves the association to the completed or incomplete list by what its prompts say (DataHub's updateFormCompletion);
 * an incomplete verification form loses its verification.
 */
function settleCompletion(forms: FormsAspect, association: Association, info: Json): FormsAspect {
  const others = (list: Association[]) => list.filter((a) => a.urn !== association.urn);
  if (isCompleted(association, info))
    return { ...forms, incompleteForms: others(forms.incompleteForms), completedForms: [...others(forms.completedForms), association] };
  return {
    ...forms,
    completedForms: others(forms.completedForms),
    incompleteForms: [...others(forms.incompleteForms), association],
    verifications: info.type === 'VERIFICATION' ? forms.verifications.filter((v) => v.form !== association.urn) : forms.verifications,
  };
}

/**
 * The form mutations (DataHub's resolvers of `resolvers/form` and its FormService): forms defined, changed and deleted
 * by who holds MANAGE_DOCUMENTATION_FORMS; assigned to and taken off assets (the assets' `forms` aspect); a prompt's
 * answer written as the asset's (or its field's) structured property values, the prompt then marked done; a completed
 * verification form verified by one it is assigned to.
 */
export function formMutationResolvers(service: EntityService, search: SearchIndex, now: () => number): MutationResolvers {
  const stampOf = (actor: Actor): Stamp => ({ time: now(), actor: actor.urn });
  const formInfo = async (actor: Actor, urn: string) =>
    formInfoOf((await graphqlReader(service, actor).latest([urn], ['formInfo'])).get(urn)?.get('formInfo')?.value);
  /** The form's definition, or DataHub's error when it is not stored. */
  const requireForm = async (actor: Actor, urn: string, absent: string) => {
    const info = await formInfo(actor, formUrnArgument(urn));
    if (!info) throw badRequest(absent);
    return info;
  };
  /** Every asset named exists (DataHub's verifyEntitiesExist), or the 400 naming the first that does not. */
  const requireAssets = async (actor: Actor, urns: readonly string[]) => {
    const reader = graphqlReader(service, actor);
    for (const urn of urns) {
      urnArgument(urn);
      if (!(await reader.exists(urn))) throw badRequest(`Entity ${urn} does not exist. Skipping batch form assignment`);
    }
  };
  /** A read-modify-write of an asset's forms aspect; `change` answers undefined to leave it as it is. */
  const editForms = (grant: Grant, urn: string, change: (forms: FormsAspect) => FormsAspect | undefined, stamp?: Stamp) =>
    service.update(
      grant,
      { urn, aspect: 'forms' },
      (current) => {
        const changed = change(formsOf(current));
        return changed ?? (current as Json) ?? formsOf(undefined);
      },
      stamp,
    );

  /** The assets a dynamic assignment's filter matches: at most MAX_DYNAMIC_ASSETS, a 400 when more (or a filter the index refuses). */
  const matching = async (filters: readonly Criterion[][]) => {
    const query = { entityTypes: DYNAMIC_TYPES, input: '*', filters, facets: [] };
    try {
      const found = new Set<string>();
      for (let start = 0; ; start += MAX_PAGE_SIZE) {
        const page = await search.search({ ...query, start, count: MAX_PAGE_SIZE });
        if (page.total > MAX_DYNAMIC_ASSETS)
          throw badRequest(
            `The filter matches ${page.total} entities; mds assigns a form dynamically to at most ${MAX_DYNAMIC_ASSETS}. Narrow the filter, or assign with batchAssignForm.`,
          );
        for (const hit of page.hits) found.add(hit.urn);
        if (page.hits.length < MAX_PAGE_SIZE) return [...found];
      }
    } catch (error) {
      throw error instanceof SearchQueryError ? badRequest(error.message) : error;
    }
  };

  return {
    createForm: async (_parent, { input }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE, undefined, 'Unable to create form. Please contact your admin.');
      const urn = `urn:li:form:${input.id ?? randomUUID()}`;
      formUrnArgument(urn);
      const value: Json = {
        name: input.name,
        ...(input.description == null ? {} : { description: input.description }),
        ...(input.type == null ? {} : { type: input.type }),
        ...(input.prompts == null ? {} : { prompts: input.prompts.map(promptOf) }),
        ...(input.actors == null
          ? {}
          : {
              actors: {
                ...(input.actors.owners == null ? {} : { owners: input.actors.owners }),
                ...(input.actors.users == null ? {} : { users: userUrns(input.actors.users, 'corpuser') }),
                ...(input.actors.groups == null ? {} : { groups: userUrns(input.actors.groups, 'corpGroup') }),
              },
            }),
      };
      const edits: Edit[] = [{ urn, aspect: 'formInfo', changeType: 'CREATE_ENTITY', value }];
      await writeCreate(service, grant, edits, stampOf(actor), `Form with urn ${urn} already exists`);
      return entityRef(urn)!;
    },

    updateForm: async (_parent, { input }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE, undefined, 'Unable to update form. Please contact your admin.');
      const urn = formUrnArgument(input.urn);
      const absent = `Form with urn ${urn} does not exist`;
      if (!(await formInfo(actor, urn))) throw badRequest(absent);
      const added = (input.promptsToAdd ?? []).map(promptOf);
      const removed = new Set(input.promptsToRemove ?? []);
      const { actors } = input;
      await service.update(
        grant,
        { urn, aspect: 'formInfo' },
        (current) => {
          if (!current) throw badRequest(absent);
          const info = formInfoOf(current)!;
          // As DataHub's FormInfoPatchBuilder: prompts are keyed by id (an added one replaces its namesake), users and
          // groups are sets.
          const addedIds = new Set(added.map((p) => p.id));
          const prompts = [...objects(info.prompts).filter((p) => !addedIds.has(p.id)), ...added].filter((p) => !removed.has(String(p.id)));
          const was = isJsonObject(info.actors) ? info.actors : {};
          // A list neither stored nor added to stays absent (DataHub's patch leaves it unset).
          const edited = (list: unknown, add: readonly string[], remove: readonly string[]) => {
            if (!Array.isArray(list) && add.length === 0) return undefined;
            const kept = new Set(Array.isArray(list) ? list.map(String) : []);
            for (const urn of add) kept.add(urn);
            for (const urn of remove) kept.delete(urn);
            return [...kept];
          };
          return {
            ...current,
            ...(input.name == null ? {} : { name: input.name }),
            ...(input.description == null ? {} : { description: input.description }),
            ...(input.type == null ? {} : { type: input.type }),
            prompts,
            actors: actors
              ? {
                  ...was,
                  ...(actors.owners == null ? {} : { owners: actors.owners }),
                  ...defined('users', edited(was.users, userUrns(actors.usersToAdd, 'corpuser'), actors.usersToRemove ?? [])),
                  ...defined('groups', edited(was.groups, userUrns(actors.groupsToAdd, 'corpGroup'), actors.groupsToRemove ?? [])),
                }
              : was,
          };
        },
        stampOf(actor),
      );
      return entityRef(urn)!;
    },

    deleteForm: async (_parent, { input }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE, undefined, 'Unable to delete form. Please contact your admin.');
      const urn = formUrnArgument(input.urn);
      // The assets the form is assigned to (DataHub's DeleteEntityService finds them by the forms aspect's search fields)
      // lose it, its answers and its verification; DataHub does this after answering, mds before the form goes.
      const holders = new Set<string>();
      for (let start = 0; ; start += MAX_PAGE_SIZE) {
        const found = await search.search({
          entityTypes: WITH_FORMS,
          input: '*',
          filters: [[{ field: 'incompleteForms', values: [urn] }], [{ field: 'completedForms', values: [urn] }]],
          start,
          count: MAX_PAGE_SIZE,
          facets: [],
          includeSoftDeleted: true,
        });
        for (const hit of found.hits) holders.add(hit.urn);
        if (found.hits.length < MAX_PAGE_SIZE) break;
      }
      for (const asset of holders)
        await editForms(grant, asset, (forms) => ({
          ...forms,
          incompleteForms: forms.incompleteForms.filter((a) => a.urn !== urn),
          completedForms: forms.completedForms.filter((a) => a.urn !== urn),
          verifications: forms.verifications.filter((v) => v.form !== urn),
        }));
      await service.deleteEntity(grant, urn);
      return true;
    },

    batchAssignForm: async (_parent, { input }, { actor }) => {
      const info = await requireForm(actor, input.formUrn, `Entity ${input.formUrn} does not exist. Skipping batch form assignment`);
      await requireAssets(actor, input.entityUrns);
      const grant = await service.authorize(actor, MANAGE, input.entityUrns, 'Unable to assign form. Please contact your admin.');
      const stamp = stampOf(actor);
      for (const asset of input.entityUrns) await editForms(grant, asset, (forms) => withForm(forms, input.formUrn, info, stamp));
      return true;
    },

    batchRemoveForm: async (_parent, { input }, { actor }) => {
      await requireForm(actor, input.formUrn, `Entity ${input.formUrn} does not exist. Skipping batch form assignment`);
      await requireAssets(actor, input.entityUrns);
      const grant = await service.authorize(actor, MANAGE, input.entityUrns, 'Unable to remove form. Please contact your admin.');
      const holding = (await graphqlReader(service, actor).latest(input.entityUrns, ['forms'])).entries();
      // An asset without the form is left as it is (DataHub's buildUnassignFormChange writes nothing for it).
      for (const [asset] of [...holding].filter(([, aspects]) => aspects.has('forms')))
        await editForms(grant, asset, (forms) => {
          const incompleteForms = forms.incompleteForms.filter((a) => a.urn !== input.formUrn);
          const completedForms = forms.completedForms.filter((a) => a.urn !== input.formUrn);
          const unchanged =
            incompleteForms.length === forms.incompleteForms.length && completedForms.length === forms.completedForms.length;
          return unchanged ? undefined : { ...forms, incompleteForms, completedForms };
        });
      return true;
    },

    createDynamicFormAssignment: async (_parent, { input }, { actor }) => {
      const urn = formUrnArgument(input.formUrn);
      const grant = await service.authorize(actor, MANAGE, undefined, 'Unable to assign form. Please contact your admin.');
      const info = await formInfo(actor, urn);
      if (!info) throw badRequest(`Form ${urn} does not exist. Skipping dynamic form assignment`);
      // Stored as DataHub's resolver builds it (a Filter of or-ed and-groups).
      const or = input.orFilters.map((group) => ({
        and: (group.and ?? []).map((f) => ({
          field: f.field,
          value: '',
          values: f.values ?? (f.value == null ? [] : [f.value]),
          condition: f.condition ?? 'EQUAL',
          negated: f.negated ?? false,
        })),
      }));
      // Then applied as DataHub's FormAssignmentHook has SearchBasedFormAssignmentManager apply it: every asset the filter
      // matches gets the form (one it already has keeps it as it is); the filter and the assets written together.
      const matches = await matching(or.map((group) => group.and));
      const stamp = stampOf(actor);
      await service.updateAll(
        grant,
        [
          { urn, aspect: 'dynamicFormAssignment', modify: () => ({ filter: { or } }) },
          ...matches.map((asset) => ({
            urn: asset,
            aspect: 'forms',
            modify: (current: Json | undefined) => withForm(formsOf(current), urn, info, stamp) ?? current ?? formsOf(undefined),
          })),
        ],
        stamp,
      );
      return true;
    },

    submitFormPrompt: async (_parent, { urn, input }, { actor }) => {
      urnArgument(urn);
      const formUrn = formUrnArgument(input.formUrn);
      const params = input.structuredPropertyParams;
      if (!params) throw badRequest(`Failed to provide structured property params for prompt type ${input.type}`);
      const fieldPath = input.type === 'FIELDS_STRUCTURED_PROPERTY' ? input.fieldPath : undefined;
      if (input.type === 'FIELDS_STRUCTURED_PROPERTY' && fieldPath == null)
        throw badRequest('Failed to provide fieldPath for prompt type FIELDS_STRUCTURED_PROPERTY');
      const propertyUrn = params.structuredPropertyUrn;
      if (urnArgument(propertyUrn).entityType !== 'structuredProperty') throw badRequest(`Invalid structured property urn: ${propertyUrn}`);
      const reader = graphqlReader(service, actor);
      const info = await requireForm(actor, formUrn, `Form ${formUrn} does not exist.`);
      const forms = (await reader.latest([urn], ['forms'])).get(urn)?.get('forms')?.value;
      if (!forms) throw badRequest(`Entity is missing forms aspect, form is not assigned to entity with urn ${urn}`);
      if (![...formsOf(forms).incompleteForms, ...formsOf(forms).completedForms].some((a) => a.urn === formUrn))
        throw badRequest(`Form ${formUrn} has not been assigned to entity ${urn}`);
      // The values are checked against the property's definition as upsertStructuredProperties checks them.
      const values = params.values.map(primitive);
      const definition = (await reader.latest([propertyUrn], ['propertyDefinition'])).get(propertyUrn)?.get('propertyDefinition')?.value;
      const violation = valueViolation(propertyUrn, definition, values);
      if (violation) throw badRequest(violation);
      let target = urn;
      let fields: string[] = [];
      if (fieldPath != null) {
        const schema = (await reader.latest([urn], ['schemaMetadata'])).get(urn)?.get('schemaMetadata')?.value;
        if (!schema) throw badRequest(`Schema metadata does not exist on entity ${urn}.`);
        fields = objects(schema.fields).map((f) => String(f.fieldPath));
        target = `urn:li:schemaField:(${urn},${fieldPath})`;
      }
      const grant = await service.authorizeFormAnswer(actor, formUrn, urn, [urn, target], editPrivileges(EDIT_VALUES));
      const stamp = stampOf(actor);
      // DataHub's ingestStructuredProperties: the property's assignment replaced by the answer.
      await service.update(
        grant,
        { urn: target, aspect: 'structuredProperties' },
        (current) => ({
          ...current,
          properties: [
            ...objects(current?.properties).filter((p) => p.propertyUrn !== propertyUrn),
            { propertyUrn, values, created: stamp, lastModified: stamp },
          ],
        }),
        stamp,
      );
      await editForms(
        grant,
        urn,
        (current) => {
          const association = [...current.incompleteForms, ...current.completedForms].find((a) => a.urn === formUrn);
          if (!association) throw badRequest(`Form ${formUrn} has not been assigned to entity ${urn}`);
          const existing = [...association.completedPrompts, ...association.incompletePrompts].find((p) => p.id === input.promptId);
          let prompt: Json = { ...existing, id: input.promptId, lastModified: stamp };
          let complete = true;
          if (fieldPath != null) {
            // DataHub's updateFieldPromptToComplete: this field done; the prompt is done when every field of the schema is.
            const was = isJsonObject(prompt.fieldAssociations) ? prompt.fieldAssociations : {};
            const completedFieldPrompts = [
              ...objects(was.completedFieldPrompts).filter((f) => f.fieldPath !== fieldPath),
              { fieldPath, lastModified: stamp },
            ];
            const incompleteFieldPrompts = objects(was.incompleteFieldPrompts).filter((f) => f.fieldPath !== fieldPath);
            prompt = { ...prompt, fieldAssociations: { completedFieldPrompts, incompleteFieldPrompts } };
            const done = new Set(completedFieldPrompts.map((f) => f.fieldPath));
            complete = fields.every((f) => done.has(f));
          }
          const without = (list: Json[]) => list.filter((p) => p.id !== input.promptId);
          const updated: Association = complete
            ? {
                ...association,
                completedPrompts: [...without(association.completedPrompts), prompt],
                incompletePrompts: without(association.incompletePrompts),
              }
            : {
                ...association,
                completedPrompts: association.completedPrompts.map((p) => (p.id === input.promptId ? prompt : p)),
                incompletePrompts: association.completedPrompts.some((p) => p.id === input.promptId)
                  ? association.incompletePrompts
                  : [...without(association.incompletePrompts), prompt],
              };
          const replaced = (list: Association[]) => list.map((a) => (a.urn === formUrn ? updated : a));
          const next = { ...current, incompleteForms: replaced(current.incompleteForms), completedForms: replaced(current.completedForms) };
          return complete ? settleCompletion(next, updated, info) : next;
        },
        stamp,
      );
      return true;
    },

    verifyForm: async (_parent, { input }, { actor }) => {
      const formUrn = formUrnArgument(input.formUrn);
      const urn = input.entityUrn;
      urnArgument(urn);
      const info = await requireForm(actor, formUrn, `Form ${formUrn} does not exist.`);
      const grant = await service.authorizeFormAnswer(actor, formUrn, urn, [urn]);
      if (info.type !== 'VERIFICATION') throw badRequest(`Form ${formUrn} is not of type VERIFICATION. Cannot verify form.`);
      const stored = (await graphqlReader(service, actor).latest([urn], ['forms'])).get(urn)?.get('forms')?.value;
      if (!stored) throw badRequest(`Entity is missing forms aspect, form is not assigned to entity with urn ${urn}`);
      const stamp = stampOf(actor);
      await editForms(
        grant,
        urn,
        (forms) => {
          if (!forms.completedForms.some((a) => a.urn === formUrn))
            throw badRequest(`Form ${formUrn} is not in the list of completed forms for this entity. Skipping verification.`);
          return {
            ...forms,
            verifications: [...forms.verifications.filter((v) => v.form !== formUrn), { form: formUrn, lastModified: stamp }],
          };
        },
        stamp,
      );
      return true;
    },
  };
}
