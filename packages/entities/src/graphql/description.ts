import { Privilege } from '@mds/auth';
import { findEntity, findEntityOfUrn } from '@mds/core';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { entityTypeOf, fieldOf, graphqlReader, pointer, requireSchemaField, writeAll } from './mutation-support';

export interface DescriptionInput {
  description: string;
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

/** How a package describes entities of its own type (`@mds/tags`: tags, with its own privileges and rules). */
export type DescriptionHandler = (input: DescriptionInput, actor: Actor) => Promise<boolean>;

/** The aspect whose `description` updateDescription writes, by entity type (entities-api §10). */
const DESCRIBED_IN: Readonly<Record<string, string>> = {
  dataset: 'editableDatasetProperties',
  container: 'editableContainerProperties',
  domain: 'domainProperties',
  corpGroup: 'corpGroupEditableInfo',
  dashboard: 'editableDashboardProperties',
  chart: 'editableChartProperties',
  dataFlow: 'editableDataFlowProperties',
  dataJob: 'editableDataJobProperties',
  glossaryTerm: 'glossaryTermInfo',
  glossaryNode: 'glossaryNodeInfo',
  dataProduct: 'dataProductProperties',
  notebook: 'editableNotebookProperties',
  mlModel: 'editableMlModelProperties',
  mlModelGroup: 'editableMlModelGroupProperties',
  mlFeatureTable: 'editableMlFeatureTableProperties',
  mlFeature: 'editableMlFeatureProperties',
  mlPrimaryKey: 'editableMlPrimaryKeyProperties',
  businessAttribute: 'businessAttributeInfo',
};
/** The field of the aspect holding the description, where it is not `description`. */
const DESCRIPTION_FIELD: Readonly<Record<string, string>> = { glossaryTermInfo: 'definition', glossaryNodeInfo: 'definition' };
/** Aspects whose other fields are required: the description of an entity without one cannot be written alone. */
const NEEDS_STORED: Readonly<Record<string, string>> = {
  domainProperties: 'Properties for this Domain do not yet exist!',
  glossaryTermInfo: 'Info for this Glossary Term does not yet exist!',
  glossaryNodeInfo: 'Info for this Glossary Node does not yet exist!',
  dataProductProperties: 'Properties for this Data Product do not yet exist!',
  businessAttributeInfo: 'Info for this Business Attribute does not yet exist!',
};
const DOCS = [Privilege.EDIT_ENTITY_DOCS];
const FIELD_DOCS = [Privilege.EDIT_DATASET_COL_DESCRIPTION];

/**
 * `updateDescription` of any entity type: types whose package describes them (`handlers`, by registry name) are
 * handed over; the others write their editable description aspect, a dataset field its `editableSchemaMetadata`
 * entry. DataHub's D1-D2 and T4-T6 texts.
 */
export function descriptionResolvers(service: EntityService, handlers: Readonly<Record<string, DescriptionHandler>>): MutationResolvers {
  return {
    updateDescription: async (_parent, { input }, { actor }) => {
      const type = findEntityOfUrn(input.resourceUrn)?.name;
      const handler = type && Object.hasOwn(handlers, type) ? handlers[type] : undefined;
      if (handler) return handler(input, actor);
      const urn = input.resourceUrn;
      const field = fieldOf(urn, input);
      const reader = graphqlReader(service, actor);
      if (field !== undefined) {
        const grant = await service.authorizeEdit(actor, [urn], FIELD_DOCS);
        if ((await entityTypeOf(reader, urn)) !== 'dataset') throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
        await requireSchemaField(reader, urn, field);
        const patch = [{ op: 'add', path: `/editableSchemaFieldInfo/${pointer(field)}/description`, value: input.description }];
        return writeAll(service, grant, [{ urn, aspect: 'editableSchemaMetadata', changeType: 'PATCH', value: patch }]);
      }
      const grant = await service.authorizeEditOrGlossary(actor, [urn], DOCS);
      const aspect = type ? DESCRIBED_IN[type] : undefined;
      if (!type || !aspect || !findEntity(type)?.aspects.includes(aspect))
        throw badRequest(`Failed to update description. Unsupported resource type ${urn} provided.`);
      if (!(await entityTypeOf(reader, urn))) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
      await service.update(grant, { urn, aspect }, (current) => {
        if (!current && NEEDS_STORED[aspect]) throw badRequest(NEEDS_STORED[aspect]);
        return { ...current, [DESCRIPTION_FIELD[aspect] ?? 'description']: input.description };
      });
      return true;
    },
  };
}
