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

/** CPU seconds (user + system, all threads) a process has used, from /proc/<pid>/stat (Linux). */
export function cpuSecondsOf(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th of those.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100; // USER_HZ, 100 on Linux
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
