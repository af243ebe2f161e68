import { useEffect, useState } from 'preact/hooks';
import { ErrorText } from './ErrorText';
import { count, humanMb, utcSecond } from './format';
import { getIndexSizes, rowCount, type IndexSize } from './operations';
import { SizeChart } from './SizeChart';

type Loaded = { sizes: IndexSize[]; rows: ReadonlyMap<string, number>; at: number };

/** getIndexSizes as a chart and a table, refreshed on demand; row counts when the token may count them (see rowCount). */
export function IndexSizes(props: { countRows: boolean }) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(true); // asking from the first render: it asks on mount

  // Sizes show as soon as they come; row counts (one dry run per index) fill in after them.
  const refresh = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const sizes = await getIndexSizes();
      const at = Date.now();
      setLoaded({ sizes, rows: new Map(), at });
      if (!props.countRows) return;
      const counted = await Promise.all(sizes.map(async (s) => [s.indexName, await rowCount(s)] as const));
      setLoaded({ sizes, rows: new Map(counted), at });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void refresh(), []);

  return (
    <section aria-labelledby="sizes-title">
      <div class="title-row">
        <h1 id="sizes-title">Time-series index sizes</h1>
        <button type="button" onClick={() => void refresh()} disabled={busy}>
          {busy ? 'Refreshing…' : 'Refresh'}
        </button>
        {loaded && <span class="hint">as of {utcSecond(loaded.at)}</span>}
      </div>
      <ErrorText error={error} />
      {loaded && loaded.sizes.length === 0 && (
        <p>
          No time-series index yet: ingest time-series aspects (or run <code>mds seed</code>).
        </p>
      )}
      {loaded && loaded.sizes.length > 0 && (
        <>
          <SizeChart sizes={loaded.sizes} rows={loaded.rows} />
          <table class="figures">
            <caption>Time-series indices, largest first (sizes in decimal units: 1 MB = 1,000,000 bytes)</caption>
            <thead>
              <tr>
                <th scope="col">Index</th>
                <th scope="col">Entity</th>
                <th scope="col">Aspect</th>
                <th scope="col">Size</th>
                <th scope="col">Size (MB)</th>
                <th scope="col">Rows</th>
              </tr>
            </thead>
            <tbody>
              {loaded.sizes.map((s) => (
                <tr key={s.indexName}>
                  <th scope="row">{s.indexName}</th>
                  <td>{s.entityName}</td>
                  <td>{s.aspectName}</td>
                  <td class="num">{humanMb(s.sizeMb)}</td>
                  <td class="num">{s.sizeMb}</td>
                  <td class="num">
                    {loaded.rows.has(s.indexName) ? count(loaded.rows.get(s.indexName)!) : props.countRows && busy ? '…' : '–'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {!props.countRows && <p class="hint">Row counts need the truncate privilege (they are read with a dry run).</p>}
        </>
      )}
    </section>
  );
}
