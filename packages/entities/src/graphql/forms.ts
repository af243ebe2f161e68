import type { ApiContext, Resolvers } from '@mds/schema';
import { formInfoOf, groupsOf, namesActor } from '../service';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { refWithKey, type Loaders } from './common-fields';
import type { TypeRules } from './mapping/convert';
import { entityTypeResolvers, fieldResolvers, type EntityMapping } from './mapping/declare';
import { rootQuery } from './root-queries';

/** The asset types of this package whose GraphQL type has `forms` (DataHub's schema). */
const WITH_FORMS = [
  'Dataset',
  'Chart',
  'Dashboard',
  'DataFlow',
  'DataJob',
  'Container',
  'DataProduct',
  'Domain',
  'GlossaryTerm',
  'GlossaryNode',
  'MLModel',
  'MLModelGroup',
  'MLFeature',
  'MLFeatureTable',
  'MLPrimaryKey',
];

/** DataHub's FormMapper: a prompt knows its form; its structured property params name the property entity. */
const FORM_RULES: TypeRules = {
  FormPrompt: { formUrn: (_value, scope) => scope.urn },
  StructuredPropertyParams: { structuredProperty: 'urn' },
};

/**
 * Forms (DataHub's FormType, FormMapper and IsFormAssignedToMeResolver): the `Form` entity from its formInfo and
 * ownership, `form(urn:)`, `isAssignedToMe` of a form's actors for the caller (named, or in a group named), and the
 * `forms` of the assets (their forms aspect, as DataHub's FormsMapper gives it).
 */
export function formResolvers(loaders: Loaders): Resolvers[] {
  const { forms } = fieldResolvers(loaders, { forms: COMMON_FIELDS.forms }, { rules: COMMON_RULES, ref: refWithKey });
  const mapping: EntityMapping = {
    entity: 'form',
    fields: { info: (form) => formInfoOf(form.value('formInfo')), ownership: COMMON_FIELDS.ownership },
  };
  const assignedToMe = async (
    parent: { users?: readonly { urn: string }[] | null; groups?: readonly { urn: string }[] | null },
    _args: unknown,
    context: ApiContext,
  ) => {
    const me = context.actor.urn;
    const actors = { users: (parent.users ?? []).map((u) => u.urn), groups: (parent.groups ?? []).map((g) => g.urn) };
    if (actors.users.includes(me)) return true;
    if (actors.groups.length === 0) return false;
    return namesActor(actors, me, groupsOf(await loaders(context).aspects(me)));
  };
  return [
    Object.fromEntries(WITH_FORMS.map((type) => [type, { forms }])),
    { Query: { form: rootQuery(loaders, 'form') }, FormActorAssignment: { isAssignedToMe: assignedToMe } },
    entityTypeResolvers(loaders, [mapping], { rules: { ...COMMON_RULES, ...FORM_RULES }, ref: refWithKey }),
  ];
}
