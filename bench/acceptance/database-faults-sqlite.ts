/**
 * The database-faults group's SQLite check (database-faults-checks.ts): a full disk. The database
 * lives on a small filesystem of its own (an 8 MB tmpfs mounted for the check; failing that, a 16 MB
 * ext4 image on a loop device; never the machine's disk), seeded 10 × 30; with the traffic of
 * database-faults-traffic.ts running, a filler file takes every free byte, then is deleted.
 * Writes must answer 503 with Retry-After while it is full, the log name SQLITE_FULL (not "cannot
 * rollback"), /readyz answer 503 and then 200 once space is back, writes succeed again, and nothing
 * acknowledged be lost.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { signIn } from '../lib/client.js';
import type { LoggedServer } from '../lib/logged-server.js';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import { check } from './check.js';
import {
  errorLogFigures,
  type Fault,
  judgeRun,
  lostWrites,
  outageLogFigures,
} from './database-faults-figures.js';
import { DEADLINE_MS, serverEnv, startSite } from './database-faults-postgres.js';
import {
  describeTally,
  isDocumented503,
  keepEvidence,
  maxOf,
  startTraffic,
  type Traffic,
  tally,
  waitFor,
  within,
} from './database-faults-traffic.js';
import type { CheckResult, CheckSettings } from './types.js';

const FULL_MS = 8000;
const FIRST_DATE = '2003-01-01';
const WRITE_LIMIT_MS = DEADLINE_MS + 1500;

/** A small filesystem mounted at `dir`: tmpfs, else a loop-mounted ext4 image. Answers how, and how to undo it. */
function mountSmallDisk(dir: string, scratch: string): { how: string; unmount: () => void } {
  const unmount = () => {
    try {
      execFileSync('umount', [dir], { stdio: 'ignore' });
    } catch {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    }
  };
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', dir], { stdio: 'pipe' });
    return { how: 'an 8 MB tmpfs', unmount };
  } catch (tmpfsError) {
    const image = path.join(scratch, 'disk.img');
    try {
      execFileSync('truncate', ['-s', '16M', image]);
      execFileSync('mkfs.ext4', ['-q', '-F', image], { stdio: 'pipe' });
      execFileSync('mount', ['-o', 'loop', image, dir], { stdio: 'pipe' });
      return { how: 'a 16 MB ext4 image on a loop device', unmount };
    } catch (loopError) {
      throw new Error(
        `no small filesystem could be mounted (tmpfs: ${(tmpfsError as Error).message.split('\n')[0]}; ` +
          `loop: ${(loopError as Error).message.split('\n')[0]}); the machine's own disk is not filled`,
      );
    }
  }
}

/** Writes zeros into `file` until the filesystem has no byte left (bounded). Answers the bytes written. */
function fill(file: string): number {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size);
      for (let round = 0; round < 20_000; round++) {
        try {
          written += fs.writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

export function fullDiskCheck(settings: CheckSettings): Promise<CheckResult> {
  return check(
    'SQLite on a full disk: writes 503 with Retry-After, SQLITE_FULL logged (not "cannot rollback"), /readyz 503; space back: /readyz 200, writes succeed, nothing lost',
    async () => {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-full-disk-'));
      const mountPoint = path.join(scratch, 'disk');
      fs.mkdirSync(mountPoint);
      let mounted: { how: string; unmount: () => void } | undefined;
      let server: LoggedServer | undefined;
      let traffic: Traffic | undefined;
      try {
        mounted = mountSmallDisk(mountPoint, scratch);
        const file = path.join(mountPoint, 'site.db');
        const seed = await seedDatabase(
          { kind: 'sqlite', file },
          { ghadis: 10, days: 30, admin: SEED_ADMIN, siteTimezone: settings.siteTimezone },
        );
        server = await startSite(serverEnv(settings, 1, `sqlite:${file}`), 1);
        const token = await signIn(server.url, SEED_ADMIN, '127.0.0.1');
        traffic = await startTraffic({
          baseUrl: server.url,
          token,
          gids: seed.ghadis.map((ghadi) => ghadi.gid),
          firstDate: FIRST_DATE,
          maxMs: 120_000,
        });
        const running = traffic;
        await sleep(3000);
        const freeBefore = fs.statfsSync(mountPoint);
        const filler = path.join(mountPoint, 'filler');
        const fullAt = Date.now();
        const filled = fill(filler);
        const filledAt = Date.now();
        const first503 = await waitFor(
          () => running.writes.some((write) => write.start >= filledAt && write.status === 503),
          FULL_MS,
        );
        const first503At = running.writes.find(
          (write) => write.start >= filledAt && write.status === 503,
        )?.end;
        // Full for FULL_MS from the first refused write (or from the fill, when none was refused).
        await sleep(Math.max(0, FULL_MS - (Date.now() - (first503At ?? filledAt))));
        const freedAt = Date.now();
        fs.rmSync(filler);
        const readyAgain = await waitFor(
          () =>
            running.probes.some(
              (probe) => probe.path === '/readyz' && probe.start >= freedAt && probe.status === 200,
            ),
          15_000,
        );
        await waitFor(
          () => running.writes.some((write) => write.start >= freedAt && write.acknowledged),
          15_000,
        );
        await sleep(2000);
        await running.stop();

        const writesFull = running.writes.filter((write) => within(write, filledAt, freedAt));
        // Once a write was refused for the full disk, every later one until space is back.
        const afterFirst503 = first503At ? writesFull.filter((write) => write.start >= first503At) : [];
        const readyzFull = first503At
          ? running.probes.filter((probe) => probe.path === '/readyz' && within(probe, first503At, freedAt))
          : [];
        const readyzBack = running.probes.find(
          (probe) => probe.path === '/readyz' && probe.start >= freedAt && probe.status === 200,
        );
        const firstWriteBack = running.writes.find((write) => write.start >= freedAt && write.acknowledged);
        const output = server.output();
        const namesFull = /SQLITE_FULL/.test(output);
        const cannotRollback = /cannot rollback|no transaction is active/i.test(output);
        const run = judgeRun(running, { writeMs: WRITE_LIMIT_MS });
        const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
        let stored: Map<string, string>;
        try {
          const rows = sqlite
            .prepare(
              "select gid, result_date, value from results where result_date >= ? and result_date < '2020-01-01'",
            )
            .all(FIRST_DATE) as Array<{ gid: number; result_date: string; value: string }>;
          stored = new Map(rows.map((row) => [`${row.gid}|${row.result_date}`, row.value]));
        } finally {
          sqlite.close();
        }
        const lost = lostWrites(running, stored);
        const exit = server.exited();
        const fault: Fault = {
          name: 'disk full',
          began: fullAt,
          endedAt: Date.now(),
          backAt: freedAt,
          expectsOutage: true,
        };
        const problems = [
          ...(exit ? [`the server exited (${JSON.stringify(exit)})`] : []),
          ...(first503 ? [] : ['no write answered 503 while the disk was full']),
          ...(afterFirst503.some((write) => !isDocumented503(write))
            ? [`after the first 503, writes while full: ${describeTally(tally(afterFirst503))}`]
            : []),
          ...(namesFull ? [] : ['the log does not name SQLITE_FULL']),
          ...(cannotRollback ? ['the log says "cannot rollback" / "no transaction is active"'] : []),
          ...(readyzFull.length === 0 ? ['no /readyz probe while full'] : []),
          ...(readyzFull.some((probe) => probe.status !== 503)
            ? ['/readyz answered other than 503 while full']
            : []),
          ...(readyAgain ? [] : ['/readyz did not answer 200 again within 15 s']),
          ...(firstWriteBack ? [] : ['no write succeeded once space was back']),
          ...run.problems,
          ...(lost.lost.length > 0 ? [`${lost.lost.length} acknowledged writes lost`] : []),
        ];
        const kept = keepEvidence('full-disk', output, running);
        const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
        return {
          ok: problems.length === 0,
          detail:
            (problems.length > 0 ? `PROBLEMS: ${problems.join('; ')}. ` : '') +
            `on ${mounted.how}; ${mb(freeBefore.bavail * freeBefore.bsize)} free before, filler ${mb(filled)} in ${filledAt - fullAt} ms; ` +
            `${exit ? 'the server EXITED' : `the server ran throughout (pid ${server.pid})`}; ` +
            `first 503 ${first503At ? `${first503At - filledAt} ms after the fill` : 'never'}; ` +
            `writes while full ${describeTally(tally(writesFull))} (after the first 503: ${describeTally(tally(afterFirst503))}), ` +
            `max 503 ${maxOf(writesFull.filter((write) => write.status === 503).map((write) => write.ms))} ms; ` +
            `/readyz while full ${describeTally(tally(readyzFull))}; space back: /readyz 200 ${readyzBack ? `${readyzBack.end - freedAt} ms` : 'never'}, ` +
            `first write ok ${firstWriteBack ? `${firstWriteBack.end - freedAt} ms` : 'never'} after; ` +
            `log names SQLITE_FULL: ${namesFull ? 'yes' : 'no'}, "cannot rollback": ${cannotRollback ? 'yes' : 'no'}. ` +
            `Whole run: ${run.detail}; ${lost.detail}. Log: ${outageLogFigures(output, [fault])}; ${errorLogFigures(output)}. Kept: ${kept}`,
        };
      } finally {
        await traffic?.stop();
        await server?.stop();
        if (mounted) {
          try {
            mounted.unmount();
          } catch {
            // Reported by the rm below failing; the mount is lazily detached.
          }
        }
        try {
          fs.rmSync(scratch, { recursive: true, force: true });
        } catch {
          // Still mounted: left for the operator rather than failing the report.
        }
      }
    },
  );
}
