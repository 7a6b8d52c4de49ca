/**
 * The built server (node dist/server/server.js) in a process of its own, as an operator runs it:
 * started with an environment, awaited until it answers, stopped with SIGTERM. Shared by the bench
 * and the acceptance checks, which both drive it from outside.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';

const SERVER_ENTRY = 'dist/server/server.js';
const OUTPUT_KEPT = 20_000;

/** Stops with a clear message when `npm run build` has not been run (the checks build nothing). */
export function requireBuilt(): void {
  for (const file of [SERVER_ENTRY, 'dist/ssr/entry-server.js', 'dist/web/public.html']) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
}

export function requireWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk --version exits 1 after printing; only a missing binary throws ENOENT.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('wrk is not installed: apt-get install -y wrk');
    }
  }
}

/** A TCP port of 127.0.0.1 that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `command args` pinned to the given CPUs with taskset, when the machine has more than one. */
export function pinned(cpus: string | null, command: string, args: string[]): [string, string[]] {
  return cpus !== null && os.availableParallelism() > 1
    ? ['taskset', ['-c', cpus, command, ...args]]
    : [command, args];
}

export interface ServerProcess {
  /** e.g. http://127.0.0.1:3480 */
  url: string;
  port: number;
  /** The process's id (a WORKERS=N supervisor's: its workers are its children). */
  pid: number;
  /** The latest output (stdout and stderr), for a failure's message. */
  output(): string;
  /** SIGTERM (unless it has exited), resolving with how it exited. */
  stop(): Promise<ServerExit>;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerOptions {
  port: number;
  /** What node runs (default: the built server); e.g. the bench's bare server and its arguments. */
  args?: string[];
  /** Added to the inherited environment; PORT and HOST are set from `port`. */
  env: NodeJS.ProcessEnv;
  /** CPUs to pin the server to (taskset -c), or null. */
  cpus?: string | null;
  /** Keep the output for failure messages (default) or send it to /dev/null (the bench, at full load). */
  keepOutput?: boolean;
  startTimeoutMs?: number;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/site' }, (response) => {
        response.resume();
        resolve((response.statusCode ?? 0) > 0);
      })
      .on('error', () => resolve(false));
  });
}

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  // BENCH_SERVER_NODE_FLAGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server itself.
  const flags = process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const [program, args] = pinned(
    options.cpus ?? null,
    process.execPath,
    options.args ?? [...flags, SERVER_ENTRY],
  );
  const keepOutput = options.keepOutput ?? true;
  const devNull = keepOutput ? 'pipe' : fs.openSync('/dev/null', 'w');
  const child: ChildProcess = spawn(program, args, {
    env: {
      ...process.env,
      // The benches and checks declare as fast as a script can, far past a person's pace; a check of
      // the limit itself sets its own.
      SUBMISSIONS_PER_USER_PER_MINUTE: '1000000',
      ...options.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', devNull, keepOutput ? 'pipe' : 'inherit'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<ServerExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let exitCode: number | null | undefined;
  child.once('exit', (code) => {
    exitCode = code;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  while (!(await answers(options.port))) {
    if (exitCode !== undefined)
      throw new Error(`the server exited with ${exitCode} before it answered:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer on port ${options.port} in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    port: options.port,
    pid: child.pid ?? 0,
    output: () => output,
    stop,
  };
}
