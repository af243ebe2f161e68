import { useEffect, useState } from 'preact/hooks';
import { facetCounts, recentEntities, searchEntities, type EntityRow, type Facet } from './catalog-api';
import { EntityView, type View } from './EntityView';
import { ErrorText } from './ErrorText';
import { count, utcSecond } from './format';

const RECENT = 10;
const SEARCH_COUNT = 25;

type Counts = Awaited<ReturnType<typeof facetCounts>>;
/** A listed entity and the time its table shows. */
type Listed = EntityRow & { time: number | undefined };

/** Counts per entity type and platform, the most recently ingested entities, and a search over all of them. */
export function Catalog() {
  const [counts, setCounts] = useState<Counts>();
  const [countsError, setCountsError] = useState<unknown>();
  const [recent, setRecent] = useState<Listed[]>();
  const [recentError, setRecentError] = useState<unknown>();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; total: number; rows: Listed[] }>();
  const [searchError, setSearchError] = useState<unknown>();
  const [view, setView] = useState<View>();

  useEffect(() => {
    facetCounts().then(setCounts, setCountsError);
    recentEntities(RECENT).then((rows) => setRecent(rows.map((r) => ({ ...r, time: r.lastWritten }))), setRecentError);
  }, []);

  const search = async () => {
    setSearchError(undefined);
    try {
      const { total, rows } = await searchEntities(query, SEARCH_COUNT);
      setFound({ query, total, rows: rows.map((r) => ({ ...r, time: r.lastIngested })) });
    } catch (failure) {
      setSearchError(failure);
    }
  };

  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">Catalog</h1>
      <ErrorText error={countsError} />
      {counts && (
        <>
          <p>{count(counts.total)} entities.</p>
          <div class="columns">
            <CountTable caption="Entities per type" heading="Type" facets={counts.byType} />
            <CountTable caption="Entities per platform" heading="Platform" facets={counts.byPlatform} />
          </div>
        </>
      )}
      <ErrorText error={recentError} />
      {recent && <EntityTable caption="Most recently ingested" timeHeading="Last written" rows={recent} onView={setView} />}
      <form
        role="search"
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <label>
          Search entities{' '}
          <input
            name="q"
            type="search"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
            placeholder="name, description, urn"
          />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorText error={searchError} />
      {found && (
        <EntityTable
          caption={`Search results for “${found.query}”: ${count(found.total)}`}
          timeHeading="Last ingested"
          rows={found.rows}
          onView={setView}
        />
      )}
      {view && <EntityView view={view} onClose={() => setView(undefined)} />}
    </section>
  );
}

function CountTable(props: { caption: string; heading: string; facets: Facet[] }) {
  return (
    <table class="figures">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.heading}</th>
          <th scope="col">Entities</th>
        </tr>
      </thead>
      <tbody>
        {props.facets.map((f) => (
          <tr key={f.value}>
            <th scope="row" title={f.value}>
              {f.label}
            </th>
            <td class="num">{count(f.count)}</td>
          </tr>
        ))}
        {props.facets.length === 0 && (
          <tr>
            <td colSpan={2}>none</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

function EntityTable(props: { caption: string; timeHeading: string; rows: Listed[]; onView: (view: View) => void }) {
  return (
    <table class="figures entities">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Platform</th>
          <th scope="col">{props.timeHeading}</th>
          <th scope="col">Views</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.urn}>
            <th scope="row" title={row.urn}>
              {row.name}
            </th>
            <td>{row.type || '–'}</td>
            <td>{row.platform ?? '–'}</td>
            <td>{row.time === undefined ? '–' : utcSecond(row.time)}</td>
            <td>
              <button type="button" class="link" onClick={() => props.onView({ urn: row.urn, kind: 'graphql' })}>
                GraphQL
              </button>{' '}
              <button type="button" class="link" onClick={() => props.onView({ urn: row.urn, kind: 'openapi' })}>
                OpenAPI
              </button>
            </td>
          </tr>
        ))}
        {props.rows.length === 0 && (
          <tr>
            <td colSpan={5}>none</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
