import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { count, humanMb } from './format';
import type { IndexSize } from './operations';

// Only the parts of Chart.js a horizontal bar chart uses, so the rest stays out of the bundle.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

const BAR_HEIGHT = 26;

/** Index sizes as horizontal bars, in the order given (largest first); its label says the same figures in words. */
export function SizeChart(props: { sizes: IndexSize[]; rows: ReadonlyMap<string, number> }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { sizes, rows } = props;

  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: 'bar',
      data: {
        labels: sizes.map((s) => s.indexName),
        datasets: [{ label: 'Size (MB)', data: sizes.map((s) => s.sizeMb), backgroundColor: '#3b6fb6' }],
      },
      options: {
        indexAxis: 'y',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { beginAtZero: true, ticks: { callback: (value) => humanMb(Number(value)) } } },
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => {
                const size = sizes[item.dataIndex]!;
                const rowCount = rows.get(size.indexName);
                return `${humanMb(size.sizeMb)}${rowCount === undefined ? '' : `, ${count(rowCount)} rows`}`;
              },
            },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [sizes, rows]);

  const label = `Index sizes, largest first: ${sizes.map((s) => `${s.indexName} ${s.sizeMb} MB`).join('; ')}`;
  return (
    <div class="chart" style={{ height: `${sizes.length * BAR_HEIGHT + 50}px` }}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
