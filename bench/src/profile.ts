import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is bench/src/profile.ts), so workspace files are named from it. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `path` relative to the repository root when it lies inside it. */
function inRepo(path: string): string | undefined {
  const at = path.lastIndexOf(REPO_ROOT);
  return at === -1 ? undefined : path.slice(at + REPO_ROOT.length);
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }[];
  samples: number[];
  startTime: number;
  endTime: number;
}

/** Where a function comes from: a package of the workspace, a dependency, or Node itself. */
function origin(url: string): string {
  if (!url) return '(native/gc)';
  if (url.startsWith('node:')) return 'node';
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const workspace = /^((?:packages|apps)\/[^/]+)/.exec(inRepo(url) ?? '');
  return workspace ? workspace[1]! : url;
}

/**
 * Self time of the hottest functions and of each origin, from the .cpuprofile files `node --cpu-prof` wrote
 * (one per thread: the main thread and every worker).
 */
export function summarizeProfiles(dir: string, top = 15) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((file) => {
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      const idle = profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
      // Percentages of the time the thread was busy.
      const total = profile.samples.length - idle || 1;
      const byFunction = new Map<string, number>();
      // An anonymous function is named after its nearest named caller, which usually says what it is.
      const parent = new Map<number, (typeof profile.nodes)[number]>();
      for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
      const namedCaller = (id: number): string => {
        for (let p = parent.get(id); p; p = parent.get(p.id)) if (p.callFrame.functionName) return p.callFrame.functionName;
        return '?';
      };
      const byOrigin = new Map<string, number>();
      for (const node of profile.nodes) {
        const hits = node.hitCount ?? 0;
        const { functionName, url, lineNumber } = node.callFrame;
        if (!hits || functionName === '(idle)') continue;
        const file = url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '');
        const where = url ? `${inRepo(file) ?? file}:${lineNumber + 1}` : '';
        const name = `${functionName || `(anonymous in ${namedCaller(node.id)})`} ${where}`.trim();
        byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
        byOrigin.set(origin(url), (byOrigin.get(origin(url)) ?? 0) + hits);
      }
      const pct = (entries: Map<string, number>) =>
        [...entries]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([name, hits]) => ({ name, selfPct: Math.round((hits / total) * 1000) / 10 }));
      return {
        file,
        busyPct: Math.round((total / (profile.samples.length || 1)) * 100),
        seconds: Math.round((profile.endTime - profile.startTime) / 1e5) / 10,
        functions: pct(byFunction),
        origins: pct(byOrigin),
      };
    })
    .sort((a, b) => b.seconds - a.seconds);
}
