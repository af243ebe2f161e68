import type { Resolvers } from '@mds/schema';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { refWithKey, type Loaders } from './common-fields';
import { fieldResolvers } from './mapping/declare';

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

/** `forms` of the assets: their forms aspect, as DataHub's FormsMapper gives it (FormAssociation.form from its urn). */
export function formResolvers(loaders: Loaders): Resolvers {
  const { forms } = fieldResolvers(loaders, { forms: COMMON_FIELDS.forms }, { rules: COMMON_RULES, ref: refWithKey });
  return Object.fromEntries(WITH_FORMS.map((type) => [type, { forms }]));
}
