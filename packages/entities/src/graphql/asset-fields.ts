import { commonFields, type Loaders } from './common-fields';
import type { EntityFieldRule } from './mapping/declare';

/**
 * Fields the asset types (datasets, charts, dashboards, flows, jobs, containers) read alike: the container of the
 * `container` aspect and the platform instance `dataPlatformInstance` names (none when it names only a platform, as
 * DataHub answers).
 */
export const ASSET_FIELDS: Readonly<Record<string, EntityFieldRule>> = {
  container: (e) => e.value('container')?.container,
  dataPlatformInstance: (e) => e.value('dataPlatformInstance')?.instance,
};

/** The resolvers of the aspects every entity shares, written by hand until they are declared as mappings too. */
export const assetResolvers = (loaders: Loaders) => commonFields(loaders);

/** The named members of `from` (the fields a type declares, of a set that serves several types). */
export function pick<T extends object, K extends keyof T>(from: T, names: readonly K[]): Pick<T, K> {
  return Object.fromEntries(names.map((name) => [name, from[name]])) as Pick<T, K>;
}

/** The shared fields every asset type declares. */
export const ASSET_COMMON = [
  'tags',
  'globalTags',
  'ownership',
  'deprecation',
  'domain',
  'status',
  'subTypes',
  'glossaryTerms',
  'institutionalMemory',
  'exists',
  'lastIngested',
  'aspects',
] as const;
