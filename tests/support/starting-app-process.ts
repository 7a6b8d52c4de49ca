import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { AppExit } from './app-process.js';

/** One line of the server's JSON log (pino), or the raw line when it is not JSON. */
export interface LogLine {
  msg?: string;
  level?: number;
  [field: string]: unknown;
}

/**
 * A server process (src/server/server.ts run with tsx) watched from its first line on, for tests of
 * what it does before it listens (app-process.ts resolves only once it listens, and fails when it
 * does not). Nothing here waits on the real clock beyond the deadline a caller gives.
 */
export interface StartingAppProcess {
  /** Everything it has written to stdout and stderr so far. */
  output(): string;
  /** The JSON log lines so far. */
  lines(): LogLine[];
  /** How it exited, or null while it runs. */
  exit(): AppExit | null;
  /** Resolves with the log line once one matches; rejects after `timeoutMs` or when the process exits. */
  waitForLine(match: (line: LogLine) => boolean, what: string, timeoutMs: number): Promise<LogLine>;
  /** The address it listens on, once it does (rejects as waitForLine does). */
  listening(timeoutMs: number): Promise<string>;
  /** Sends SIGTERM (unless it has exited) and resolves with how it exited; SIGKILL after `limitMs`. */
  stop(limitMs?: number): Promise<AppExit>;
}

const SERVER_ENTRY = path.resolve('src/server/server.ts');

export function spawnAppProcess(env: Record<string, string>): StartingAppProcess {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const parsed: LogLine[] = [];
  let exited: AppExit | null = null;
  const wakers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...wakers]) wake();
  };
  const exitPromise = new Promise<AppExit>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
      wakeAll();
    }),
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    wakeAll();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    const pieces = (partial + text).split('\n');
    partial = pieces.pop() ?? '';
    for (const piece of pieces) {
      try {
        parsed.push(JSON.parse(piece) as LogLine);
      } catch {
        // Not a log line (the first admin's password, say): kept in output() only.
      }
    }
    wakeAll();
  });

  const waitForLine = (match: (line: LogLine) => boolean, what: string, timeoutMs: number) =>
    new Promise<LogLine>((resolve, reject) => {
      const check = () => {
        const found = parsed.find(match);
        if (found) {
          finish();
          resolve(found);
        } else if (exited) {
          finish();
          reject(new Error(`The process exited (${JSON.stringify(exited)}) before ${what}\n${output}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${what} did not happen within ${timeoutMs} ms\n${output}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        wakers.delete(check);
      };
      wakers.add(check);
      check();
    });

  return {
    output: () => output,
    lines: () => [...parsed],
    exit: () => exited,
    waitForLine,
    async listening(timeoutMs) {
      const line = await waitForLine(
        (entry) =>
          typeof entry.msg === 'string' && /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(entry.msg),
        'listening',
        timeoutMs,
      );
      return /http:\/\/127\.0\.0\.1:\d+/.exec(line.msg ?? '')?.[0] ?? '';
    },
    async stop(limitMs = 15_000) {
      if (exited) return exited;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
      try {
        return await exitPromise;
      } finally {
        clearTimeout(killer);
      }
    },
  };
}
