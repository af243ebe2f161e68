import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from './config.ts';
import type { Comparison } from './load.ts';
import type { MdsLaunch } from './mds-process.ts';

/** One line of the results table. */
export interface Row {
  label: string;
  value: number;
  unit: string;
  /** Context for the reader, e.g. latencies or row counts. */
  note?: string;
  /** The ceiling server's value of the same measurement, and mds/ceiling. */
  ceiling?: number;
  ratio?: number;
  target?: { text: string; met: boolean };
}

export interface ScenarioResult {
  name: string;
  title: string;
  seconds: number;
  rows: Row[];
  /** The server's resident memory right after the scenario, and its peak so far (which scenario drives the peak). */
  serverMemory?: { rssMb: number; peakRssMb: number };
  /** Every number the scenario measured (rounds, counts, raw statuses). */
  details: Record<string, unknown>;
  /** Set when the scenario could not complete; its rows are then empty. */
  error?: string;
}

export interface Report {
  mode: BenchConfig['mode'];
  machine: ReturnType<typeof machine>;
  config: BenchConfig;
  /** Which mds ran (the built bundle or the TypeScript sources) and with which node options. */
  server: MdsLaunch;
  /** The database mds ran on: SQLite files (the default), or PostgreSQL (`--postgres`). */
  database?: string;
  seconds: number;
  scenarios: ScenarioResult[];
  profile?: unknown;
}

export function machine() {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryMb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
  };
}

/** A throughput measured against the ceiling, with its target as a fraction of the ceiling. */
export function ratioRow(label: string, result: Comparison, minRatio?: number): Row {
  return {
    label,
    value: result.mds.rps,
    unit: 'req/s',
    note:
      `p50 ${result.mds.p50Ms} ms, p99 ${result.mds.p99Ms} ms; server CPU ${result.mds.cpuUsPerRequest} µs/request ` +
      `vs ceiling ${result.ceiling.cpuUsPerRequest} µs (cost ratio ${result.cpuRatio})` +
      (Number.isNaN(result.mds.databaseCpuUsPerRequest) ? '' : `; PostgreSQL CPU ${result.mds.databaseCpuUsPerRequest} µs/request`),
    ceiling: result.ceiling.rps,
    ratio: result.ratio,
    ...(minRatio === undefined ? {} : { target: { text: `≥ ${minRatio.toFixed(2)} of ceiling`, met: result.ratio >= minRatio } }),
  };
}

const number = (n: number) =>
  Number.isInteger(n) || Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 100) / 100);
const cell = (s: string) => s.replaceAll('|', '\\|');

export function toMarkdown(report: Report): string {
  const m = report.machine;
  const lines = [
    `# mds benchmark (${report.mode})`,
    '',
    `${m.date} · ${m.cpuModel}, ${m.cores} cores, ${number(m.memoryMb)} MB · Node ${m.node} · ${m.platform} · mds from ${report.server.kind} on ${report.database ?? 'SQLite'} · run took ${Math.round(report.seconds)} s`,
    '',
    '| scenario | measured | ceiling | ratio | target | met |',
    '|---|---|---|---|---|---|',
  ];
  for (const s of report.scenarios) {
    if (s.error) {
      lines.push(`| ${cell(s.title)} | **failed**: ${cell(s.error.split('\n')[0]!)} | – | – | – | ❌ |`);
      continue;
    }
    for (const r of s.rows) {
      const measured = `${number(r.value)} ${r.unit}${r.note ? ` (${r.note})` : ''}`;
      const ceiling = r.ceiling === undefined ? '–' : `${number(r.ceiling)} ${r.unit}`;
      const ratio = r.ratio === undefined ? '–' : r.ratio.toFixed(2);
      const met = r.target === undefined ? '–' : r.target.met ? '✅ met' : '❌ not met';
      lines.push(`| ${cell(r.label)} | ${cell(measured)} | ${ceiling} | ${ratio} | ${cell(r.target?.text ?? '–')} | ${met} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Writes `latest.json` (everything) and `latest.md` (the table) into `dir`. */
export function writeReport(dir: string, report: Report): { json: string; markdown: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'latest.json');
  const markdown = join(dir, 'latest.md');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(markdown, toMarkdown(report));
  return { json, markdown };
}
