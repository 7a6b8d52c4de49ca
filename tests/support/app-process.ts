import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface AppProcess {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Sends SIGTERM (unless it has exited) and resolves with how it exited. */
  stop(): Promise<AppExit>;
  /** Everything it has written to stdout and stderr so far. */
  output(): string;
}

export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const SERVER_ENTRY = path.resolve('src/server/server.ts');

/**
 * The server in a process of its own (run from source with tsx), on a free port: a second process
 * on the same database, for tests of what must hold across processes. Resolves once it listens;
 * starting takes a few seconds of CPU (tsx compiles the server), much longer on a busy machine.
 */
export function startAppProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<AppProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<AppExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  let output = '';
  return new Promise<AppProcess>((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${reason}\n${output}`)));
    };
    const timer = setTimeout(() => fail('The app process did not start in time'), timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening?.[1]) {
        clearTimeout(timer);
        resolve({ url: listening[1], stop, output: () => output });
      }
    });
    child.once('exit', (code) => fail(`The app process exited with ${code}`));
  });
}
