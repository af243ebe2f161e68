import type { SearchIndex, SearchQuery } from '@mds/search';
import { displayNames, type AnalyticsChart, type AspectReader, type BarChart, type NamedBar, type NameOf } from './charts';

// The charts of what is catalogued, counted by the search index's facets (soft-deleted entities left out, as DataHub
// leaves out `removed`): GetMetadataAnalyticsResolver (the Analytics page's filtered "Data Assets by …" charts) and
// the "Data Landscape Summary" group of GetChartsResolver.

type Facets = Map<string, { value: string; count: number }[]>;

async function facetCounts(search: SearchIndex, query: Omit<SearchQuery, 'start' | 'count' | 'maxFacetValues'>): Promise<Facets> {
  const result = await search.search({ ...query, start: 0, count: 0, maxFacetValues: 10 });
  return new Map(result.facets.map((facet) => [facet.field, [...facet.values].sort((a, b) => b.count - a.count).slice(0, 10)]));
}

/** One "Count" segment per value, most first (GetMetadataAnalyticsResolver.buildBarChart). */
const countBars = (values: { value: string; count: number }[]): NamedBar[] =>
  values.map(({ value, count }) => ({ name: value, segments: [{ label: 'Count', value: count }] }));

const domainName: NameOf = (_urn, values) => values.get('domainProperties')?.name as string | undefined;
/** AnalyticsUtil.getPlatformName: displayName, else name, else the urn's id. */
const platformName: NameOf = (urn, values) => {
  const info = values.get('dataPlatformInfo');
  return ((info?.displayName ?? info?.name) as string | undefined) ?? urn.slice('urn:li:dataPlatform:'.length);
};
/** AnalyticsUtil.getTermName: glossaryTermInfo's name, else the key's name. */
const termName: NameOf = (_urn, values) =>
  (values.get('glossaryTermInfo')?.name ?? values.get('glossaryTermKey')?.name) as string | undefined;
const NAMES: Record<'domains' | 'platform' | 'glossaryTerms', { aspects: string[]; name: NameOf }> = {
  domains: { aspects: ['domainProperties'], name: domainName },
  platform: { aspects: ['dataPlatformInfo'], name: platformName },
  glossaryTerms: { aspects: ['glossaryTermKey', 'glossaryTermInfo'], name: termName },
};

/**
 * Names in place of urns (hydrateDisplayNameForBars / …ForSegments): what has no name found keeps its urn. A platform
 * with nothing stored still shows its id (DataHub bootstraps every platform it knows with its info).
 */
const named = (labels: string[], kind: keyof typeof NAMES, read: AspectReader) =>
  displayNames(labels, NAMES[kind].aspects, NAMES[kind].name, read);

async function namedBars(bars: NamedBar[], kind: keyof typeof NAMES, read: AspectReader): Promise<NamedBar[]> {
  const names = await named(
    bars.map((bar) => bar.name),
    kind,
    read,
  );
  return bars.map((bar) => ({ ...bar, name: names.get(bar.name) ?? bar.name }));
}

const barChart = (title: string, bars: NamedBar[]): BarChart => ({ __typename: 'BarChart', title, bars });

/** MetadataAnalyticsInput: an entity type, a domain (ALL: every one), search words. */
export interface MetadataAnalyticsInput {
  entityType?: string | null;
  domain?: string | null;
  query?: string | null;
}

/** GetMetadataAnalyticsResolver's charts: by domain (unless one is chosen), platform, term, and environment (when several). */
export async function filteredMetadataCharts(
  search: SearchIndex,
  read: AspectReader,
  input: MetadataAnalyticsInput,
): Promise<AnalyticsChart[]> {
  const domain = input.domain && input.domain !== 'ALL' ? input.domain : undefined;
  const facets = await facetCounts(search, {
    entityTypes: input.entityType ? [input.entityType] : undefined,
    input: input.query || '*',
    filters: domain ? [[{ field: 'domains', values: [domain] }]] : undefined,
    facets: ['domains', 'platform', 'glossaryTerms', 'origin'],
  });
  const charts: AnalyticsChart[] = [];
  if (!input.domain)
    charts.push(barChart('Data Assets by Domain', await namedBars(countBars(facets.get('domains') ?? []), 'domains', read)));
  charts.push(barChart('Data Assets by Platform', await namedBars(countBars(facets.get('platform') ?? []), 'platform', read)));
  charts.push(barChart('Data Assets by Term', await namedBars(countBars(facets.get('glossaryTerms') ?? []), 'glossaryTerms', read)));
  const environments = countBars(facets.get('origin') ?? []);
  if (environments.length > 1) charts.push(barChart('Data Assets by Environment', environments));
  return charts;
}

/**
 * GetChartsResolver's "Data Landscape Summary": entities by domain (each bar split by platform), by platform, by term,
 * and by environment (when several); a chart with nothing to show is left out.
 */
export async function landscapeCharts(search: SearchIndex, read: AspectReader): Promise<AnalyticsChart[]> {
  const all = await facetCounts(search, { input: '*', facets: ['domains', 'platform', 'glossaryTerms', 'origin'] });
  const charts: AnalyticsChart[] = [];
  const domains = all.get('domains') ?? [];
  if (domains.length > 0) {
    const byDomain: NamedBar[] = [];
    for (const { value } of domains) {
      const platforms = await facetCounts(search, { input: '*', filters: [[{ field: 'domains', values: [value] }]], facets: ['platform'] });
      byDomain.push({ name: value, segments: (platforms.get('platform') ?? []).map((p) => ({ label: p.value, value: p.count })) });
    }
    const platformNames = await named(
      byDomain.flatMap((bar) => bar.segments.map((s) => s.label)),
      'platform',
      read,
    );
    const bars = (await namedBars(byDomain, 'domains', read)).map((bar) => ({
      ...bar,
      segments: bar.segments.map((s) => ({ ...s, label: platformNames.get(s.label) ?? s.label })),
    }));
    charts.push(barChart('Entities By Domain', bars));
  }
  const platforms = countBars(all.get('platform') ?? []);
  if (platforms.length > 0) charts.push(barChart('Assets By Platform', await namedBars(platforms, 'platform', read)));
  const terms = countBars(all.get('glossaryTerms') ?? []);
  if (terms.length > 0) charts.push(barChart('Entities With Term', await namedBars(terms, 'glossaryTerms', read)));
  const environments = countBars(all.get('origin') ?? []);
  if (environments.length > 1) charts.push(barChart('Entities By Environment', environments));
  return charts;
}
