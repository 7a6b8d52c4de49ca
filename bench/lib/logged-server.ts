/**
 * The built server in a process of its own, like server-process.ts's startServer, but keeping its
 * whole output (stdout and stderr, up to 64 MB) and when it exited, for checks that count what the
 * server logged (an outage logged once, an error code named) and that must know whether the process
 * ever ended. Under WORKERS the process is the supervisor; its workers are its children.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { ServerExit } from './server-process.js';

const SERVER_ENTRY = 'dist/server/server.js';
const OUTPUT_LIMIT = 64 * 1024 * 1024;

export interface LoggedServer {
  url: string;
  port: number;
  pid: number;
  /** Everything the process wrote so far (the first 64 MB). */
  output(): string;
  /** How and when it exited, or null while it runs. */
  exited(): (ServerExit & { at: number }) | null;
  /** The server's worker processes (WORKERS), without its page render processes. */
  children(): number[];
  stop(): Promise<ServerExit>;
}

/**
 * Whether a child is a page render process (decision record 0017), which each server process starts
 * beside itself and replaces as needed: not one of the WORKERS the checks follow.
 */
function isRenderProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('page-render-process');
  } catch {
    return false;
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.setTimeout(2000, () => request.destroy());
  });
}

export async function startLoggedServer(options: {
  port: number;
  env: NodeJS.ProcessEnv;
  startTimeoutMs?: number;
}): Promise<LoggedServer> {
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    env: { ...process.env, ...options.env, PORT: String(options.port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  let kept = 0;
  const keep = (chunk: Buffer) => {
    if (kept >= OUTPUT_LIMIT) return;
    kept += chunk.length;
    chunks.push(chunk.toString());
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: (ServerExit & { at: number }) | null = null;
  const exited = new Promise<ServerExit>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal, at: Date.now() };
      resolve({ code, signal });
    }),
  );
  const output = () => chunks.join('');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  while (!(await answers(options.port))) {
    if (exit)
      throw new Error(
        `the server exited (${JSON.stringify(exit)}) before it answered:\n${output().slice(-4000)}`,
      );
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer on port ${options.port} in time:\n${output().slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pid = child.pid ?? 0;
  return {
    url: `http://127.0.0.1:${options.port}`,
    port: options.port,
    pid,
    output,
    exited: () => exit,
    children: () => {
      try {
        return fs
          .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number)
          .filter((child) => !isRenderProcess(child));
      } catch {
        return [];
      }
    },
    stop,
  };
}
