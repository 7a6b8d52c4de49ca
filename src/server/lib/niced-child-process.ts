import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * Starts a helper process (a page renderer, the push sender) from the script `name` beside
 * `moduleUrl`: the built `.js`, or, run from the TypeScript sources (the tests, the development
 * server), the `.ts` through tsx's loader. It runs at `niceness`, below the server, so that the event
 * loop answering readers goes first (decision 0018); structured-clone IPC (Buffers arrive as
 * Buffers); it keeps the server alive on its own neither through itself nor its channel (work in
 * flight does that).
 */
export function forkNiced(moduleUrl: string, name: string, niceness: number): ChildProcess {
  const built = new URL(`./${name}.js`, moduleUrl);
  const [file, execArgv] = fs.existsSync(built)
    ? [fileURLToPath(built), []]
    : [fileURLToPath(new URL(`./${name}.ts`, moduleUrl)), ['--import', 'tsx']];
  const child = fork(file, [], {
    execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.unref();
  child.channel?.unref();
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, niceness);
    } catch {
      // Not allowed here: the child lowers its own priority too.
    }
  }
  return child;
}

/** In the helper process: lowers its own priority (the parent may not have been allowed to). */
export function lowerOwnPriority(niceness: number): void {
  try {
    os.setPriority(niceness);
  } catch {
    // Not allowed here: the process keeps its priority.
  }
}
