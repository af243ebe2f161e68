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
