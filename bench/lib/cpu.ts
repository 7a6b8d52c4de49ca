/**
 * CPU time of processes, read from Linux's /proc: what a server spent on a load, and what the load
 * generator itself spent (on a 2-core machine it competes with the server for the same cores).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number | 'self'): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function ticksToMicros(ticks: number): number {
  return (ticks * 1_000_000) / CLOCK_TICKS;
}

/** A process's own CPU time so far (user + system), in microseconds; 0 once it is gone. */
export function cpuTime(pid: number): number {
  try {
    const fields = statFields(pid);
    // utime and stime are fields 14 and 15 of stat: the 12th and 13th after the command name.
    return ticksToMicros(Number(fields[11]) + Number(fields[12]));
  } catch {
    return 0;
  }
}

/** The ids of a process's direct children (e.g. a WORKERS=N supervisor's workers). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // ppid is field 4 of stat: the 2nd after the command name.
      if (Number(statFields(Number(entry))[1]) === pid) children.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return children;
}

/**
 * CPU time of a process and its children so far, in microseconds. A `taskset` wrapper execs the
 * program in place, so its pid is the program's.
 */
export function treeCpuTime(pid: number): number {
  return cpuTime(pid) + childrenOf(pid).reduce((sum, child) => sum + cpuTime(child), 0);
}

/**
 * CPU time of this process's children that have ended and been waited for (cutime + cstime), in
 * microseconds: the difference around a synchronous run of wrk is wrk's own CPU time.
 */
export function reapedChildrenCpuTime(): number {
  const fields = statFields('self');
  // cutime and cstime are fields 16 and 17 of stat: the 14th and 15th after the command name.
  return ticksToMicros(Number(fields[13]) + Number(fields[14]));
}
