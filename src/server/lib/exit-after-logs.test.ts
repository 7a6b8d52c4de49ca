import { spawn } from 'node:child_process';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { endableStreamOf } from './exit-after-logs.js';

const PROGRAM = path.resolve('tests/support/log-then-exit.ts');

interface Ran {
  code: number | null;
  messages: string[];
  /** What the program had written to stdout when the test freed the pool. */
  beforeRelease: string[] | undefined;
}

function messagesOf(output: string): string[] {
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

/**
 * Runs the program with its thread pool held, and frees the pool (closes its stdin) when `ready` says
 * so from what it has written: no timing involved.
 */
function run(mode: 'plain' | 'after-logs', ready: (stdout: string, stderr: string) => boolean): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PROGRAM, mode], {
      env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let beforeRelease: string[] | undefined;
    const check = () => {
      if (beforeRelease === undefined && ready(stdout, stderr)) {
        beforeRelease = messagesOf(stdout);
        child.stdin.end();
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      check();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      check();
    });
    child.stdin.on('error', () => {});
    // Should the awaited output never come, the pool is freed anyway so that the program ends and the
    // test fails on what it wrote, rather than hanging.
    const giveUp = setTimeout(() => child.stdin.end(), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(giveUp);
      resolve({ code, messages: messagesOf(stdout), beforeRelease });
    });
  });
}

describe('exitAfterLogs', () => {
  it('exits with its code once the lines logged before it are written, in order', async () => {
    const ran = await run('after-logs', (_stdout, stderr) => stderr.includes('exiting'));
    // Both lines were still waiting behind the held pool when the exit began.
    expect(ran).toEqual({ code: 3, messages: ['first', 'second'], beforeRelease: [] });
  }, 30_000);

  it('is needed: process.exit at once writes the queued line before the one still being written', async () => {
    // The condition the helper exists for; if pino's destination stops writing asynchronously, this
    // fails and the helper can go.
    const ran = await run('plain', (stdout) => stdout.includes('"second"'));
    expect(ran).toEqual({ code: 3, messages: ['second', 'first'], beforeRelease: ['second'] });
  }, 30_000);

  it('finds the destination of Fastify’s logger (the same copy of pino), and of no other logger', async () => {
    const app = Fastify({ logger: { level: 'info' } });
    expect(endableStreamOf(app.log)).toBeDefined();
    expect(endableStreamOf(console)).toBeUndefined();
    await app.close();
  });
});
