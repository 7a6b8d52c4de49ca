/**
 * How the database-faults group (database-faults-checks.ts) judges the traffic of a fault
 * (database-faults-traffic.ts): per fault, what the writes, reads, probes and the live stream got
 * while the database was away and once it was back; for the whole run, what was acknowledged and
 * then lost, and what the server logged.
 */
import {
  describeTally,
  isDocumented503,
  maxOf,
  type Traffic,
  tally,
  type WriteRecord,
  within,
} from './database-faults-traffic.js';

export interface Fault {
  name: string;
  /** When the fault was made (the command given, the proxy paused, the disk filled). */
  began: number;
  /** When the next fault began (or the traffic stopped). */
  endedAt: number;
  /** An interval during which the database surely refused or did not answer, when one was seen. */
  down?: { from: number; to: number };
  /** From when writes may succeed again: the database reachable, resumed, or the connection ended. */
  backAt: number;
  /** Whether the first success is looked for among writes started after backAt (not merely ended). */
  startedAfterBack?: boolean;
  /** Whether writes must have answered 503 while the database was down (and at least once). */
  expectsOutage: boolean;
  /** An outage too short (a restart) for a write to be sure to fall within it: none is required. */
  brief?: boolean;
}

export interface FaultFigures {
  ok: boolean;
  problems: string[];
  detail: string;
  firstSuccessAfterBack?: WriteRecord;
  recoveryMs?: number;
}

/** The figures of one fault, and what in them breaks the issue's rules. */
export function judgeFault(
  fault: Fault,
  traffic: Traffic,
  limits: { writeMs: number; recoveryMs: number; streamMs: number },
): FaultFigures {
  const problems: string[] = [];
  const inPeriod = <T extends { start: number }>(items: T[]) =>
    items.filter((item) => item.start >= fault.began && item.start < fault.endedAt);
  const writes = inPeriod(traffic.writes);
  const down = fault.down;
  const writesDown = down ? writes.filter((write) => within(write, down.from, down.to)) : [];
  const undocumentedDown = writesDown.filter((write) => !isDocumented503(write));
  if (fault.expectsOutage) {
    if (!down) problems.push('the database was never seen away');
    else if (writesDown.length === 0 && !fault.brief)
      problems.push('no write was made while the database was away');
    if (undocumentedDown.length > 0)
      problems.push(`${undocumentedDown.length} writes while it was away got no documented 503`);
  }
  const readyDown = down
    ? traffic.probes.filter((probe) => probe.path === '/readyz' && within(probe, down.from, down.to))
    : [];
  if (fault.expectsOutage && readyDown.some((probe) => probe.status !== 503))
    problems.push('/readyz answered other than 503 while the database was away');
  const candidates = writes.filter((write) =>
    fault.startedAfterBack ? write.start >= fault.backAt : write.end > fault.backAt,
  );
  const firstSuccess = candidates.find((write) => write.acknowledged);
  const recoveryMs = firstSuccess ? firstSuccess.end - fault.backAt : undefined;
  if (recoveryMs === undefined) problems.push('no write succeeded after the database was back');
  else if (recoveryMs > limits.recoveryMs)
    problems.push(`the first write succeeded ${recoveryMs} ms after the database was back`);
  const readyAfter = traffic.probes.find(
    (probe) => probe.path === '/readyz' && probe.start >= fault.backAt && probe.status === 200,
  );
  let streamFigure = 'no write to look for';
  if (firstSuccess) {
    const event = traffic.events.find(
      (item) =>
        item.kind === 'result' &&
        item.gid === firstSuccess.gid &&
        item.date === firstSuccess.date &&
        item.value === firstSuccess.value,
    );
    if (!event) problems.push(`the live stream got no event for ${firstSuccess.value}`);
    else if (event.at - firstSuccess.end > limits.streamMs)
      problems.push(
        `the live stream got ${firstSuccess.value} ${event.at - firstSuccess.end} ms after its write`,
      );
    streamFigure = event
      ? `stream got ${firstSuccess.value} ${Math.max(0, event.at - firstSuccess.end)} ms after its 200`
      : `stream never got ${firstSuccess.value}`;
  }
  const slow = writes.filter((write) => write.ms > limits.writeMs);
  if (slow.length > 0) problems.push(`${slow.length} writes took over ${limits.writeMs} ms`);
  const served503 = writes.filter((write) => write.status === 503);
  const reads = inPeriod(traffic.reads);
  const lastAckBefore = (at: number) => {
    const write = traffic.writes.filter((item) => item.acknowledged && item.end <= at).at(-1);
    return write ? at - write.end : '?';
  };
  const readsBad = reads.filter((read) => read.status !== 200);
  const readsFigure =
    `cached reads ${describeTally(tally(reads))}` +
    (readsBad.length > 0
      ? ` (not 200: ${['/api/ghadis', '/api/home'].map((path) => `${path} ${describeTally(tally(readsBad.filter((read) => read.path === path)))}`).join(', ')}, ` +
        `from ${(readsBad[0]?.start ?? 0) - fault.began} to ${(readsBad.at(-1)?.end ?? 0) - fault.began} ms after the fault began; ` +
        `the last write acknowledged before the first of them ended ${lastAckBefore(readsBad[0]?.start ?? 0)} ms before it)`
      : '');
  const detail =
    `${fault.name}: ` +
    (down ? `database away ${((down.to - down.from) / 1000).toFixed(1)} s as seen; ` : '') +
    `writes ${describeTally(tally(writes))}` +
    (down ? ` (while away: ${describeTally(tally(writesDown))})` : '') +
    `, max ${maxOf(writes.map((write) => write.ms))} ms, max 503 ${maxOf(served503.map((write) => write.ms))} ms; ` +
    `${readsFigure}; ` +
    (down ? `/readyz while away ${describeTally(tally(readyDown))}` : '/readyz') +
    (readyAfter ? `, 200 again ${readyAfter.end - fault.backAt} ms after` : ', never 200 again') +
    `; first write ok ${recoveryMs === undefined ? 'never' : `${recoveryMs} ms`} after back; ${streamFigure}`;
  return {
    ok: problems.length === 0,
    problems,
    detail,
    ...(firstSuccess ? { firstSuccessAfterBack: firstSuccess } : {}),
    ...(recoveryMs === undefined ? {} : { recoveryMs }),
  };
}

/** What is true of the whole run, whatever the fault: every answer as documented, nothing refused. */
export function judgeRun(
  traffic: Traffic,
  limits: { writeMs: number },
): { problems: string[]; detail: string } {
  const problems: string[] = [];
  const writes = traffic.writes;
  const badWrites = writes.filter((write) => write.status !== 200 && !isDocumented503(write));
  if (badWrites.length > 0) {
    const first = badWrites[0];
    problems.push(
      `${badWrites.length} writes answered neither 200 nor a documented 503 (${describeTally(tally(badWrites))}; first: ${first?.status} ${first?.error ?? first?.body.slice(0, 160)})`,
    );
  }
  const unacknowledged200 = writes.filter((write) => write.status === 200 && !write.acknowledged);
  if (unacknowledged200.length > 0)
    problems.push(`${unacknowledged200.length} 200s did not name the value sent`);
  const slow = writes.filter((write) => write.ms > limits.writeMs);
  if (slow.length > 0)
    problems.push(
      `${slow.length} writes took over ${limits.writeMs} ms (max ${maxOf(slow.map((w) => w.ms))} ms)`,
    );
  const healthz = traffic.probes.filter((probe) => probe.path === '/healthz');
  const healthzBad = healthz.filter((probe) => probe.status !== 200);
  if (healthzBad.length > 0) problems.push(`/healthz: ${describeTally(tally(healthzBad))}`);
  const readsBad = traffic.reads.filter((read) => read.status !== 200);
  if (readsBad.length > 0) {
    const byPath = ['/api/ghadis', '/api/home']
      .map((path) => `${path} ${describeTally(tally(readsBad.filter((read) => read.path === path)))}`)
      .join(', ');
    problems.push(`cached public reads not 200: ${byPath}`);
  }
  const everything = [...writes, ...traffic.reads, ...traffic.probes];
  const refused = everything.filter((answer) => answer.error === 'ECONNREFUSED').length;
  const streamRefused = traffic.streamOpens.filter((open) => open.error === 'ECONNREFUSED').length;
  if (refused + streamRefused > 0) problems.push(`${refused + streamRefused} connections refused`);
  const readyz = traffic.probes.filter((probe) => probe.path === '/readyz');
  const detail =
    `writes ${writes.length}: ${describeTally(tally(writes))}, max ${maxOf(writes.map((w) => w.ms))} ms; ` +
    `cached reads ${traffic.reads.length}: ${describeTally(tally(traffic.reads))}, max ${maxOf(traffic.reads.map((r) => r.ms))} ms; ` +
    `/healthz ${describeTally(tally(healthz))}, max ${maxOf(healthz.map((p) => p.ms))} ms; ` +
    `/readyz ${describeTally(tally(readyz))}, max ${maxOf(readyz.map((p) => p.ms))} ms; ` +
    `refused connections ${refused + streamRefused}; stream opened ${traffic.streamOpens.length}× ` +
    `(${traffic.streamOpens.map((open) => open.error ?? String(open.status)).join(',')}), ${traffic.events.filter((event) => event.kind === 'result').length} result events`;
  return { problems, detail };
}

/** Acknowledged writes whose value is not what the database holds for their (ghadi, date). */
export function lostWrites(
  traffic: Traffic,
  stored: Map<string, string>,
): { lost: WriteRecord[]; appliedDespite503: number; detail: string } {
  const key = (gid: number, date: string) => `${gid}|${date}`;
  const acknowledged = traffic.writes.filter((write) => write.acknowledged);
  const lost = acknowledged.filter((write) => stored.get(key(write.gid, write.date)) !== write.value);
  const appliedDespite503 = traffic.writes.filter(
    (write) => !write.acknowledged && stored.get(key(write.gid, write.date)) === write.value,
  ).length;
  const example = lost[0];
  return {
    lost,
    appliedDespite503,
    detail:
      `${acknowledged.length} acknowledged writes, ${lost.length} lost` +
      (example
        ? ` (e.g. ${example.value} for ${example.gid}/${example.date}: stored ${stored.get(key(example.gid, example.date)) ?? 'nothing'})`
        : '') +
      `, ${appliedDespite503} unacknowledged ones applied anyway`,
  };
}

interface LogLine {
  time?: number;
  pid?: number;
  msg?: string;
  code?: string;
}

function logLines(output: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // A line cut by the output limit.
    }
  }
  return lines;
}

/** Per fault: how many times each process logged the outage and its end (the issue: once each). */
export function outageLogFigures(output: string, faults: Fault[]): string {
  const lines = logLines(output);
  return faults
    .map((fault) => {
      const during = lines.filter(
        (line) => (line.time ?? 0) >= fault.began && (line.time ?? 0) < fault.endedAt,
      );
      const count = (text: string) => {
        const byPid = new Map<number, number>();
        for (const line of during)
          if (line.msg?.includes(text)) byPid.set(line.pid ?? 0, (byPid.get(line.pid ?? 0) ?? 0) + 1);
        return [...byPid.values()].join('+') || '0';
      };
      const codes = [
        ...new Set(
          during.filter((line) => line.msg?.includes('the database is unavailable')).map((line) => line.code),
        ),
      ].join(',');
      return (
        `${fault.name}: outage logged ${count('the database is unavailable')}${codes ? ` (${codes})` : ''}, ` +
        `back ${count('the database is back after')}, connection lost ${count('a database connection was lost')}`
      );
    })
    .join('; ');
}

/** Log lines at error level or above (500s, crashes), for the report. */
export function errorLogFigures(output: string): string {
  const errors = logLines(output).filter((line) => ((line as { level?: number }).level ?? 0) >= 50);
  if (errors.length === 0) return 'no error-level log lines';
  const messages = [...new Set(errors.map((line) => line.msg ?? '?'))].slice(0, 3);
  return `${errors.length} error-level log lines (${messages.join(' | ')})`;
}
