import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROGRAM = path.resolve('tests/support/log-then-exit.ts');

function run(mode: 'plain' | 'after-logs') {
  const child = spawnSync(process.execPath, ['--import', 'tsx', PROGRAM, mode], {
    env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const messages = child.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { code: child.status, messages };
}

describe('exitAfterLogs', () => {
  it('exits with its code once the lines logged before it are written, in order', () => {
    expect(run('after-logs')).toEqual({ code: 3, messages: ['first', 'second'] });
  });

  it('is needed: process.exit at once writes the queued line before the one still being written', () => {
    // The condition the helper exists for; if pino's destination stops writing asynchronously, this
    // fails and the helper can go.
    expect(run('plain').messages).toEqual(['second', 'first']);
  });
});
