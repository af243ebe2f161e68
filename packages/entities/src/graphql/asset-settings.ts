import { Privilege } from '@mds/auth';
import { ENTITY_SPECS, findEntityOfUrn, urnTypeOf } from '@mds/core';
import { badRequest, type Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { COMMON_RULES } from './common';
import { refWithKey, urnArgument, type Loaders } from './common-fields';
import { toGraphQL, type TypeRules } from './mapping/convert';
import { entityTypeResolvers } from './mapping/declare';
import { graphqlReader } from './mutation-support';

const ASPECT = 'assetSettings';

/** An absent template list is the PDL default, empty (AssetSettingsMapper reads it through its getter). */
const RULES: TypeRules = { ...COMMON_RULES, AssetSummarySettings: { templates: (value) => value.templates ?? [] } };

/**
 * Asset settings (DataHub's AssetSettingsMapper and UpdateAssetSettingsResolver): `settings` of every entity type whose
 * model carries the assetSettings aspect, and `updateAssetSettings`, which sets the summary tab's one template.
 * DataHub's resolver checks no privilege (a TODO there); mds asks what the UI asks before offering the edit
 * (`canManageAssetSummary`: EDIT_ENTITY or MANAGE_ASSET_SUMMARY on the asset), and refuses what would leave a bad
 * record: an asset not stored or of a type without the aspect, a template urn that names no stored page template.
 */
export function assetSettingsResolvers(service: EntityService, loaders: Loaders): Resolvers[] {
  // The entity types whose model carries the aspect (asset-settings.graphql gives each its `settings` field).
  const carriers = ENTITY_SPECS.filter((spec) => spec.aspects.includes(ASPECT)).map((spec) => spec.name);
  return [
    entityTypeResolvers(
      loaders,
      carriers.map((entity) => ({ entity, fields: { settings: ASPECT } })),
      { rules: RULES, ref: refWithKey },
    ),
    {
      Mutation: {
        updateAssetSettings: async (_parent, { input }, { actor }, info) => {
          const { urn } = input;
          urnArgument(urn);
          const spec = findEntityOfUrn(urn);
          if (!spec?.aspects.includes(ASPECT))
            throw badRequest(`Failed to update asset settings: ${spec?.name ?? urnTypeOf(urn)} entities have no ${ASPECT} aspect.`);
          const grant = await service.authorizeEdit(actor, [urn], [Privilege.MANAGE_ASSET_SUMMARY]);
          const reader = graphqlReader(service, actor);
          if (!(await reader.exists(urn))) throw badRequest(`Failed to update asset settings: ${urn} does not exist.`);
          const template = input.summary?.template;
          if (template != null) {
            urnArgument(template);
            if (urnTypeOf(template) !== 'dataHubPageTemplate' || !(await reader.exists(template)))
              throw badRequest(`Failed to update asset settings: ${template} is no stored page template.`);
          }
          const { value } = await service.update(grant, { urn, aspect: ASPECT }, (current) =>
            template == null ? { ...current } : { ...current, assetSummary: { templates: [{ template }] } },
          );
          return toGraphQL(value, info.returnType, { urn, schema: info.schema, rules: RULES, ref: refWithKey }) as never;
        },
      },
    },
  ];
}
