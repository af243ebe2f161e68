import { closeSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** What one fsync of the data directory's disk takes, in milliseconds: median and 90th percentile of `count`. */
export interface FsyncLatency {
  p50Ms: number;
  p90Ms: number;
  count: number;
}

/**
 * Times `count` fsyncs of a file in `dir`, each after a write of 16 KiB (about what a commit of a few tags appends to
 * SQLite's WAL). A durable write waits for one before it is answered (`synchronous=FULL`), and SQLite's group commit
 * blocks the event loop for it: on a disk shared with other work it moves `createTag` more than any code does, so the
 * report gives it beside the ratio.
 */
export function fsyncLatency(dir: string, count = 30): FsyncLatency {
  const file = join(dir, `fsync-probe-${process.pid}.bin`);
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(16 * 1024, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      writeSync(fd, block);
      const started = performance.now();
      fsyncSync(fd);
      times.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 100) / 100;
  return { p50Ms: at(0.5), p90Ms: at(0.9), count };
}
