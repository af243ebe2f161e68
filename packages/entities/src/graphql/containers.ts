import { ASSET_COMMON, ASSET_FIELDS, assetResolvers, pick } from './asset-fields';
import { COMMON_FIELDS } from './common';
import type { Loaders } from './common-fields';
import type { EntityMapping } from './mapping/declare';

/** The platform DataHub gives a container whose dataPlatformInstance names none (ContainerMapper). */
const UNKNOWN_PLATFORM = 'urn:li:dataPlatform:unknown';

/** `Container`, `DataPlatform` and `DataPlatformInstance`, declared from their aspects as DataHub's mappers map them. */
export function containerMappings(loaders: Loaders): EntityMapping[] {
  const common = assetResolvers(loaders);
  return [
    {
      entity: 'container',
      fields: {
        platform: (e) => e.value('dataPlatformInstance')?.platform ?? UNKNOWN_PLATFORM,
        properties: 'containerProperties',
        editableProperties: 'editableContainerProperties',
        browsePathV2: COMMON_FIELDS.browsePathV2,
        ...ASSET_FIELDS,
      },
      // A container has no deprecated `globalTags`, as DataHub's Container has none.
      resolvers: pick(
        common,
        ASSET_COMMON.filter((field) => field !== 'globalTags'),
      ),
    },
    {
      entity: 'dataPlatform',
      fields: {
        name: (e) => e.parts[0],
        properties: 'dataPlatformInfo',
        info: 'dataPlatformInfo',
      },
      resolvers: pick(common, ['lastIngested']),
    },
    {
      entity: 'dataPlatformInstance',
      fields: {
        platform: (e) => e.parts[0],
        instanceId: (e) => e.parts[1],
        properties: 'dataPlatformInstanceProperties',
      },
      resolvers: pick(common, ['tags', 'ownership', 'deprecation', 'status', 'institutionalMemory']),
    },
  ];
}
