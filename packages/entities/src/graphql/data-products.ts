import { COMMON_RULES } from './common';
import { refWithKey } from './common-fields';
import { isJsonObject, parseUrn } from '@mds/core';
import type { ApiContext, EntityParent, QueryResolvers, Resolvers, SearchAcrossEntitiesInput } from '@mds/schema';
import { commonFields, type Loaders } from './common-fields';
import { keyCreated, ofType } from './glossary';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import type { EntitySearcher } from './search';
import { findEntity } from '@mds/core';

/** The urns a data product lists as its assets (dataProductProperties.assets[].destinationUrn). */
function assetsOf(properties: Record<string, unknown> | undefined): string[] {
  const assets = Array.isArray(properties?.assets) ? properties.assets : [];
  return assets.flatMap((asset) => (isJsonObject(asset) && typeof asset.destinationUrn === 'string' ? [asset.destinationUrn] : []));
}

/**
 * The `DataProduct` entity type (DataHub's DataProductMapper and ListDataProductAssetsResolver), `dataProduct(urn:)`
 * and `listDataProductAssets`: its assets are those its properties list, searched as searchAcrossEntities searches.
 */
export function dataProductResolvers(loaders: Loaders, searchEntities: EntitySearcher): Resolvers[] {
  const common = commonFields(loaders);
  const assets = async (urn: string, input: SearchAcrossEntitiesInput | null | undefined, context: ApiContext) => {
    const start = input?.start ?? 0;
    const count = input?.count ?? 10;
    const urns = assetsOf((await loaders(context).aspects(urn))?.get('dataProductProperties')?.value);
    if (urns.length === 0) return { start, count, total: 0, searchResults: [], facets: [] };
    // The types asked for, else the types of its assets.
    const types = input?.types?.length
      ? input.types
      : [...new Set(urns.flatMap((asset) => findEntity(parseUrn(asset).entityType)?.graphqlType ?? []))];
    return searchEntities(
      {
        types,
        query: input?.query ?? '*',
        start,
        count,
        filters: input?.filters,
        orFilters: input?.orFilters,
        searchFlags: input?.searchFlags,
        scope: [{ field: 'urn', values: urns }],
      },
      context,
    );
  };
  const mapping: EntityMapping = {
    entity: 'dataProduct',
    fields: {
      properties: (e) => {
        const v = e.value('dataProductProperties');
        if (!v) return undefined;
        return {
          ...v,
          name: typeof v.name === 'string' ? v.name : e.parts[0],
          numAssets: assetsOf(v).length,
          createdOn: keyCreated(e, 'dataProductKey'),
          customProperties: isJsonObject(v.customProperties) ? v.customProperties : {},
        };
      },
    },
    resolvers: {
      entities: (parent: EntityParent, { input }: { input?: SearchAcrossEntitiesInput | null }, context: ApiContext) =>
        assets(parent.urn, input, context),
      ownership: common.ownership,
      tags: common.tags,
      glossaryTerms: common.glossaryTerms,
      domain: common.domain,
      institutionalMemory: common.institutionalMemory,
      aspects: common.aspects,
    },
  };
  const query: QueryResolvers = {
    dataProduct: (_parent, { urn }, context) => ofType(loaders, 'dataProduct', urn, context),
    listDataProductAssets: (_parent, { urn, input }, context) => assets(urn, input, context),
  };
  return [{ Query: query }, entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey })];
}
