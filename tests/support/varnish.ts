import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Raw } from './http.js';

/** Debian's varnishd (VARNISHD names another); without it the Varnish tests are skipped, and say so. */
export const VARNISHD = process.env.VARNISHD ?? '/usr/sbin/varnishd';
export const VARNISHADM = process.env.VARNISHADM ?? '/usr/bin/varnishadm';
export const VARNISH_INSTALLED = fs.existsSync(VARNISHD) && fs.existsSync(VARNISHADM);

/** The one ```vcl block of docs/deployment.md: the configuration a reader copies, as it is. */
export function documentedVcl(): string {
  const text = fs.readFileSync(path.resolve('docs/deployment.md'), 'utf8');
  const blocks = [...text.matchAll(/^```vcl\n([\s\S]*?)^```$/gm)];
  if (blocks.length !== 1 || !blocks[0]?.[1])
    throw new Error(`docs/deployment.md should hold one vcl block; it holds ${blocks.length}`);
  return blocks[0][1];
}

/**
 * The only change a test makes to the documented VCL: every backend's `.host = "…"; .port = "…";`
 * becomes the test server's. The probe, the ACL (localhost), the grace and the rest stay as written.
 */
export function pointedAt(vcl: string, origin: URL): string {
  const backend = /\.host = "[^"]*"; \.port = "[^"]*";/g;
  if (!vcl.match(backend)) throw new Error('The documented VCL has no `.host = "…"; .port = "…";` to point');
  return vcl.replace(backend, `.host = "${origin.hostname}"; .port = "${origin.port}";`);
}

export interface Varnish {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** varnishadm on this instance (its own -n working directory). */
  admin(...args: string[]): Promise<string>;
  /** Stops varnishd (SIGTERM, then SIGKILL) and removes its working directory. */
  stop(): Promise<void>;
}

/**
 * varnishd in the foreground with `vcl`, on 127.0.0.1:`port`, with a working directory of its own
 * (two suites, or a system Varnish, never share one). The storage and `http_gzip_support=off` are
 * the documented command line's; the small log and thread pool only spare a small test machine.
 * Resolves once the worker process has started (it listens from then on).
 */
export async function startVarnish(vcl: string, port: number, timeoutMs = 60_000): Promise<Varnish> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-varnish-'));
  // varnishd runs its compiler and worker as its own users (-j unix): they must reach the directory.
  fs.chmodSync(dir, 0o755);
  const workDir = path.join(dir, 'work');
  const vclFile = path.join(dir, 'front.vcl');
  fs.writeFileSync(vclFile, vcl);
  const child: ChildProcess = spawn(
    VARNISHD,
    [
      ...['-F', '-n', workDir, '-f', vclFile, '-a', `127.0.0.1:${port}`, '-T', '127.0.0.1:0'],
      ...['-s', 'malloc,32m', '-p', 'http_gzip_support=off'],
      ...['-p', 'vsl_space=1m', '-p', 'thread_pool_min=10'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  let started = false;
  await new Promise<void>((resolve, reject) => {
    const fail = (reason: string) => {
      if (started) return;
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${reason}\n${output}`)));
    };
    const timer = setTimeout(() => fail('varnishd did not start in time'), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (!started && /said Child starts/.test(output)) {
        started = true;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => fail(`varnishd exited with ${code}`));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    admin: (...args) =>
      new Promise((resolve, reject) =>
        execFile(VARNISHADM, ['-n', workDir, ...args], (error, stdout, stderr) =>
          error
            ? reject(new Error(`varnishadm ${args.join(' ')}: ${stderr || error.message}`))
            : resolve(stdout),
        ),
      ),
    stop,
  };
}

/** A hit: X-Varnish names this request and the one that fetched what it got. */
export const isHit = (raw: Raw) => String(raw.headers['x-varnish']).trim().split(/\s+/).length === 2;
