import { useEffect, useState } from 'preact/hooks';
import { overview, RECENT_WINDOW, searchEntities, type EntityRow, type Facet } from './catalog-api';
import { EntityView, type View } from './EntityView';
import { ErrorText } from './ErrorText';
import { count, utcSecond } from './format';

const RECENT = 10;
const SEARCH_COUNT = 25;

type Overview = Awaited<ReturnType<typeof overview>>;

/** Counts per entity type and platform, the most recently ingested entities, and a search over all of them. */
export function Catalog() {
  const [summary, setSummary] = useState<Overview>();
  const [error, setError] = useState<unknown>();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; total: number; rows: EntityRow[] }>();
  const [searchError, setSearchError] = useState<unknown>();
  const [view, setView] = useState<View>();

  useEffect(() => void overview(RECENT).then(setSummary, setError), []);

  const search = async () => {
    setSearchError(undefined);
    try {
      setFound({ query, ...(await searchEntities(query, SEARCH_COUNT)) });
    } catch (failure) {
      setSearchError(failure);
    }
  };

  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">Catalog</h1>
      <ErrorText error={error} />
      {summary && (
        <>
          <p>{count(summary.total)} entities.</p>
          <div class="columns">
            <CountTable caption="Entities per type" heading="Type" facets={summary.byType} />
            <CountTable caption="Entities per platform" heading="Platform" facets={summary.byPlatform} />
          </div>
          <EntityTable
            caption={`Most recently ingested${summary.looked >= RECENT_WINDOW ? ` (among the first ${count(RECENT_WINDOW)} entities by name)` : ''}`}
            rows={summary.recent}
            onView={setView}
          />
        </>
      )}
      <form
        role="search"
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search();
        }}
      >
        <label>
          Search entities <input name="q" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} placeholder="name, description, urn" />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorText error={searchError} />
      {found && <EntityTable caption={`Search results for “${found.query}”: ${count(found.total)}`} rows={found.rows} onView={setView} />}
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

function EntityTable(props: { caption: string; rows: EntityRow[]; onView: (view: View) => void }) {
  return (
    <table class="figures entities">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Platform</th>
          <th scope="col">Last ingested</th>
          <th scope="col">Views</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.urn}>
            <th scope="row" title={row.urn}>
              {row.name}
            </th>
            <td>{row.type}</td>
            <td>{row.platform ?? '–'}</td>
            <td>{row.lastIngested === undefined ? '–' : utcSecond(row.lastIngested)}</td>
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
