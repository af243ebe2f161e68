import { readFileSync } from 'node:fs';

/** Resident memory of a process from /proc/<pid>/status (Linux): now (VmRSS) and its peak (VmHWM), in MB. */
export function memoryOf(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(match[1]);
  };
  const mb = (n: number) => Math.round((n / 1024) * 10) / 10;
  return { rssMb: mb(kb('VmRSS')), peakRssMb: mb(kb('VmHWM')) };
}

/** USER_HZ, 100 on Linux: the unit of /proc's CPU times. */
export const TICKS_PER_SECOND = 100;

/**
 * The fields of /proc/<pid>/stat after the command name (which may hold spaces): [1] the parent pid, [11] and [12]
 * utime and stime, [13] and [14] the CPU time of children waited for.
 */
export function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user + system, all threads) a process has used, from /proc/<pid>/stat (Linux). */
export function cpuSecondsOf(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
