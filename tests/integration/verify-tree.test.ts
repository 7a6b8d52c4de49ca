import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  loginAdmin,
  submitResult,
} from '../support/factories.js';
import { listen } from '../support/http.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

const run = promisify(execFile);

/** `npm run verify -- ARGS` as a separate process: its exit code and what it printed. */
function verify(...args: string[]): Promise<{ code: number; out: string }> {
  return run(process.execPath, ['--import', 'tsx', 'src/server/cli/verify-log.ts', ...args]).then(
    (done) => ({ code: 0, out: done.stdout }),
    (failed: { code: number; stdout: string; stderr: string }) => ({
      code: failed.code,
      out: failed.stdout + failed.stderr,
    }),
  );
}

/** The chain's published formula, written here apart from the server's code. */
function chainHash(prevHash: string, entry: Omit<DeclarationEntry, 'prevHash' | 'hash' | 'Name' | 'Step'>) {
  const fields = [entry.seq, entry.GID, entry.Date, entry.Result, entry.Previous, entry.DeclaredAt];
  return createHash('sha256')
    .update(`${prevHash}\n${JSON.stringify(fields)}`, 'utf8')
    .digest('hex');
}

/** The running app's address, listening first if it is not yet. */
async function addressOf(app: FastifyInstance): Promise<string> {
  const address = app.server.address();
  return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : listen(app);
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-tree-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** docs/api.md's dependency-free inclusion check, run as the doc says: `node prove.mjs URL SEQ KEY`. */
const docScript = path.join(folder, 'prove.mjs');
const doc = fs.readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
fs.writeFileSync(docScript, /### Checking the log yourself[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1] ?? '');
const prove = (...args: string[]) =>
  run(process.execPath, [docScript, ...args]).then(
    (done) => ({ code: 0, out: done.stdout }),
    (failed: { code: number; stderr: string }) => ({ code: failed.code, out: failed.stderr }),
  );

describe.each(DIALECTS)('npm run verify checks the transparency log [%s]', (dialect) => {
  const t = useTestApp(dialect);
  const entries = async () =>
    expectStatus<{ data: DeclarationEntry[] }>(
      await call(t.app, { url: '/api/declarations?limit=1000' }),
      200,
    ).data;

  it('--watch catches a new log key at the same origin, printing the kept and the served checkpoints', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '55', dateTime: daysFromToday(-1) });
    const watchFile = path.join(folder, `${dialect}-new-key.json`);
    const base = await addressOf(t.app);
    expect((await verify(base, '--watch', watchFile)).code).toBe(0);
    // The log grows: the monitor checks a consistency proof from the kept checkpoint and keeps both.
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '57', dateTime: daysFromToday(-3) });
    const grown = await verify(base, '--watch', watchFile);
    expect(grown.code).toBe(0);
    const checkpoints = JSON.parse(fs.readFileSync(watchFile, 'utf8')).checkpoints as string[];
    const sizes = checkpoints.map((note) => Number(note.split('\n')[1]));
    expect(sizes[1]).toBe((sizes[0] as number) + 1);
    expect(grown.out).toContain(`consistency from ${sizes[0]}\n`);
    const keptKey = await (await fetch(`${base}/api/log/key`)).text();
    const kept = checkpoints[1] as string;

    // As a restored backup would: the stored key is gone, so the next start makes another.
    await sql`delete from settings where key = 'log_signing_key'`.execute(t.database.db);
    const again = await addressOf(await t.restart());
    const newKey = await (await fetch(`${again}/api/log/key`)).text();
    expect(newKey).not.toBe(keptKey);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '56', dateTime: daysFromToday(-2) });
    const served = await (await fetch(`${again}/api/log/checkpoint`)).text();

    const watched = await verify(again, '--watch', watchFile);
    expect(watched.code).toBe(1);
    expect(watched.out).toContain(
      `NOT VERIFIED: the log key changed at the same origin: ${keptKey.trim()} was kept, ${newKey.trim()} is served`,
    );
    expect(watched.out).toContain(`The checkpoint kept in ${watchFile}:\n\n${kept}`);
    expect(watched.out).toContain(`serves:\n\n${served}`);
  }, 60_000);

  it('verifies the tree, then catches an old value and its correction rewritten with the chain recomputed', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    const other = await createGhadi(t.app, token);
    const before = (await entries()).length;
    const day = daysFromToday(-2);
    // The rewritten value is neither the first entry nor the last, nor is its correction.
    for (const [gid, value, date] of [
      [other.GID, '10', daysFromToday(-5)],
      [other.GID, '11', daysFromToday(-3)],
      [ghadi.GID, '42', day],
      [other.GID, '12', daysFromToday(-1)],
      [ghadi.GID, '24', day],
      [other.GID, '13', daysFromToday(-4)],
    ] as const)
      await submitResult(t.app, token, { ghadiId: gid, result: value, dateTime: date });
    const base = await addressOf(t.app);
    const watchFile = path.join(folder, `${dialect}-checkpoints.json`);

    const good = await verify(base);
    expect(good.code).toBe(0);
    const served = await (await fetch(`${base}/api/log/checkpoint`)).text();
    const [, size, root] = served.split('\n');
    const log = await entries();
    expect(Number(size)).toBe(log.length);
    expect(good.out).toMatch(/^verified: \d+ entries, head seq \d+ hash [0-9a-f]{64}/);
    expect(good.out).toContain(`verified: checkpoint of size ${size}, root ${root}, signed by `);

    const key = await (await fetch(`${base}/api/log/key`)).text();
    for (const seq of [1, before + 3, log.length])
      expect(await prove(base, `${seq}`, key.trim())).toEqual({
        code: 0,
        out: `entry ${seq} is in localhost/log's checkpoint of size ${size}, root ${root}\n`,
      });
    const otherKey = (await (await fetch(`${base}/api/log/key`)).text()).replace(
      /\+[0-9a-f]{8}\+/,
      '+00000000+',
    );
    expect((await prove(base, '1', otherKey.trim())).out).toContain(
      'the checkpoint is not signed by this key',
    );

    const kept = await verify(base, '--watch', watchFile);
    expect(kept.code).toBe(0);
    expect(fs.statSync(watchFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(watchFile, 'utf8')).checkpoints).toEqual([served]);
    // Nothing changed: the kept checkpoint is the one served, and a second run agrees.
    expect((await verify(base, '--watch', watchFile)).code).toBe(0);

    // Behind the site's back: the first value and its correction's Previous, every hash after recomputed.
    const [first, correction] = log.filter((entry) => entry.GID === ghadi.GID);
    if (!first || !correction) throw new Error('two entries of the ghadi');
    expect([first.seq, correction.seq, first.Result, correction.Previous]).toEqual([
      before + 3,
      before + 5,
      '42',
      '42',
    ]);
    const rewritten = log.map((entry) =>
      entry.seq === first.seq
        ? { ...entry, Result: '43' }
        : entry.seq === correction.seq
          ? { ...entry, Previous: '43' }
          : entry,
    );
    let prevHash = (rewritten[first.seq - 2]?.hash as string | undefined) ?? '0'.repeat(64);
    for (const entry of rewritten.slice(first.seq - 1)) {
      const hash = chainHash(prevHash, entry);
      await sql`update declarations set value = ${entry.Result}, previous = ${entry.Previous},
        prev_hash = ${prevHash}, hash = ${hash} where seq = ${entry.seq}`.execute(t.database.db);
      prevHash = hash;
    }
    // A new process reads the rows as they are now (the public answers are cached per process).
    const again = await addressOf(await t.restart());
    expect((await entries()).find((entry) => entry.seq === first.seq)?.Result).toBe('43');

    const disproved = await prove(again, `${first.seq}`, key.trim());
    expect(disproved.code).toBe(1);
    expect(disproved.out).toContain(`entry ${first.seq} is not in the checkpoint`);
    expect((await prove(again, `${first.seq - 1}`, key.trim())).code).toBe(0);

    const bad = await verify(again);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`NOT VERIFIED: seq ${first.seq}: `);
    expect(bad.out).not.toContain('entries, head seq');

    const watched = await verify(again, '--watch', watchFile);
    expect(watched.code).toBe(1);
    expect(watched.out).toContain(`NOT VERIFIED: seq ${first.seq}: `);
    const now = await (await fetch(`${again}/api/log/checkpoint`)).text();
    expect(watched.out).toContain(`The checkpoint kept in ${watchFile}:\n\n${served}`);
    expect(watched.out).toContain(`serves:\n\n${now}`);
    // The evidence stays: a conflicting checkpoint is not kept over the one it contradicts.
    expect(JSON.parse(fs.readFileSync(watchFile, 'utf8')).checkpoints).toEqual([served]);
  }, 90_000);
});
