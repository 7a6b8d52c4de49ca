import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import { isOmitted } from '../../src/server/modules/backup/dump-tables.js';
import { LOG_KEY_SETTING } from '../../src/server/modules/transparency/log-key-store.js';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  uniqueAddress,
} from '../support/factories.js';
import { createTestApp, DIALECTS, type TestApp, tempDir, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

// RFC 6962 written here from the RFC's text, independently of the server's code.
const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const leafOf = (entry: DeclarationEntry) =>
  sha256(
    Buffer.of(0),
    Buffer.from(
      JSON.stringify([entry.seq, entry.GID, entry.Date, entry.Result, entry.Previous, entry.DeclaredAt]),
      'utf8',
    ),
  );
const split = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0] as Buffer;
  const k = split(leaves.length);
  return sha256(Buffer.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function path6962(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...path6962(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path6962(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}
function subproof(m: number, leaves: Buffer[], complete: boolean): Buffer[] {
  if (m === leaves.length) return complete ? [] : [mth(leaves)];
  const k = split(leaves.length);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), complete), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}
/** RFC 9162 section 2.1.3.2: the root an inclusion proof leads to. */
function rootFromInclusion(index: number, size: number, leaf: Buffer, proof: Buffer[]): Buffer {
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(Buffer.of(1), p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else r = sha256(Buffer.of(1), r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return r;
}
const b64 = (hashes: Buffer[]) => hashes.map((hash) => hash.toString('base64'));

interface Note {
  origin: string;
  size: number;
  root: string;
  signer: string;
  blob: Buffer;
  text: string;
}
function parseNote(note: string): Note {
  const match = /^([^\n]+)\n(\d+)\n([A-Za-z0-9+/=]{44})\n\n\u2014 (\S+) ([A-Za-z0-9+/=]+)\n$/.exec(note);
  if (!match) throw new Error(`Not a checkpoint: ${JSON.stringify(note)}`);
  const [, origin = '', size = '', root = '', signer = '', blob = ''] = match;
  return {
    origin,
    size: Number(size),
    root,
    signer,
    blob: Buffer.from(blob, 'base64'),
    text: `${origin}\n${size}\n${root}\n`,
  };
}
/** Checks a checkpoint against a C2SP verifier key; throws when it does not verify. */
function checkSignature(note: string, key: string): Note {
  const parsed = parseNote(note);
  // The key material's base64 may hold plus signs itself: only the first two separate.
  const [, name = '', id = '', material = ''] = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(key.trim()) ?? [];
  const raw = Buffer.from(material, 'base64');
  expect(raw[0]).toBe(1);
  const publicKey = raw.subarray(1);
  expect(sha256(Buffer.from(name), Buffer.of(0x0a, 1), publicKey).subarray(0, 4).toString('hex')).toBe(id);
  expect(parsed.signer).toBe(name);
  expect(parsed.blob.subarray(0, 4).toString('hex')).toBe(id);
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') };
  const ok = verify(
    null,
    Buffer.from(parsed.text),
    createPublicKey({ key: jwk, format: 'jwk' }),
    parsed.blob.subarray(4),
  );
  expect(ok).toBe(true);
  return parsed;
}

async function entriesOf(app: FastifyInstance): Promise<DeclarationEntry[]> {
  const entries: DeclarationEntry[] = [];
  for (let after = 0; ; ) {
    const page = expectStatus<{ data: DeclarationEntry[] }>(
      await call(app, { url: `/api/declarations?after=${after}&limit=500` }),
      200,
    );
    if (page.data.length === 0) return entries;
    entries.push(...page.data);
    after = page.data.at(-1)?.seq ?? after;
  }
}

const text = async (app: FastifyInstance, url: string) => {
  const response = await call(app, { url, remoteAddress: uniqueAddress() });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  return response.body;
};
const json = async <T>(app: FastifyInstance, url: string, status = 200) =>
  expectStatus<T>(await call(app, { url, remoteAddress: uniqueAddress() }), status);

interface Inclusion {
  seq: number;
  size: number;
  leafHash: string;
  hashes: string[];
}

/** Every checkpoint stored: one per size, from the first on, each the root of the entries up to it. */
async function checkEveryCheckpoint(database: Database, leaves: Buffer[], key: string, from: number) {
  const rows = await database.db.selectFrom('log_checkpoints').selectAll().orderBy('size').execute();
  expect(rows.map((row) => row.size)).toEqual(
    Array.from({ length: leaves.length - from + 1 }, (_, i) => from + i),
  );
  for (const row of rows) {
    const note = checkSignature(row.note, key);
    expect(note.size).toBe(row.size);
    expect(note.root).toBe(mth(leaves.slice(0, row.size)).toString('base64'));
  }
}

async function declareSome(app: FastifyInstance, token: string, ghadis: number, rounds: number) {
  const made = [];
  for (let i = 0; i < ghadis; i++) made.push(await createGhadi(app, token));
  for (let round = 0; round < rounds; round++)
    for (const ghadi of made)
      await submitResult(app, token, {
        ghadiId: ghadi.GID,
        result: String(10 + ((round * 7 + ghadi.GID) % 90)),
        dateTime: daysFromToday(-1 - (round % 2)),
      });
}

describe.each(DIALECTS)('the transparency log [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let key: string;

  beforeAll(async () => {
    key = await text(t.app, '/api/log/key');
  });

  it('starts with a signed checkpoint of the empty tree, named localhost/log without PUBLIC_URL', async () => {
    const note = checkSignature(await text(t.app, '/api/log/checkpoint'), key);
    expect(note).toMatchObject({ origin: 'localhost/log', size: 0, root: sha256().toString('base64') });
    expect(key).toMatch(/^localhost\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}\n$/);
    const response = await call(t.app, { url: '/api/log/checkpoint' });
    expect(response.headers['cache-control']).toBe('public, max-age=1');
  });

  it('grows with every declaration and correction, one checkpoint per size, with proofs RFC 6962 agrees with', async () => {
    const token = await loginAdmin(t.app);
    await declareSome(t.app, token, 3, 4);
    const entries = await entriesOf(t.app);
    const leaves = entries.map(leafOf);
    const n = leaves.length;
    expect(n).toBeGreaterThanOrEqual(9);

    const latest = checkSignature(await text(t.app, '/api/log/checkpoint'), key);
    expect(latest.size).toBe(n);
    expect(latest.root).toBe(mth(leaves).toString('base64'));
    await checkEveryCheckpoint(t.database, leaves, key, 0);

    for (const size of [1, 2, 5, n - 1, n])
      for (let seq = 1; seq <= size; seq++) {
        const proof = await json<Inclusion>(t.app, `/api/log/proof/inclusion?seq=${seq}&size=${size}`);
        expect(proof).toEqual({
          success: true,
          seq,
          size,
          leafHash: leaves[seq - 1]?.toString('base64'),
          hashes: b64(path6962(seq - 1, leaves.slice(0, size))),
        });
        const root = rootFromInclusion(
          seq - 1,
          size,
          leafOf(entries[seq - 1] as DeclarationEntry),
          proof.hashes.map((h) => Buffer.from(h, 'base64')),
        );
        expect(root.equals(mth(leaves.slice(0, size)))).toBe(true);
      }
    for (let to = 1; to <= n; to++)
      for (let from = 1; from <= to; from++) {
        const proof = await json<{ hashes: string[] }>(
          t.app,
          `/api/log/proof/consistency?from=${from}&to=${to}`,
        );
        expect(proof).toEqual({
          success: true,
          from,
          to,
          hashes: b64(subproof(from, leaves.slice(0, to), true)),
        });
      }
    // The tiles hold the same leaf hashes, and the bundles the leaves' data.
    const tile = await call(t.app, { url: `/api/log/tile/0/000.p/${n}` });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('application/octet-stream');
    expect(tile.rawPayload).toEqual(Buffer.concat(leaves));
    const bundle = await call(t.app, { url: `/api/log/tile/entries/000.p/${n}` });
    const served: Buffer[] = [];
    for (let at = 0; at < bundle.rawPayload.length; ) {
      const length = bundle.rawPayload.readUInt16BE(at);
      served.push(sha256(Buffer.of(0), bundle.rawPayload.subarray(at + 2, at + 2 + length)));
      at += 2 + length;
    }
    expect(b64(served)).toEqual(b64(leaves));
    for (const missing of ['0/000', `0/000.p/${n + 1}`, 'entries/000', '0/00', '1/000.p/1'])
      expect((await call(t.app, { url: `/api/log/tile/${missing}` })).statusCode, missing).toBe(404);
    const again = await call(t.app, { url: `/api/log/proof/consistency?from=1&to=${n}` });
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 400 for sizes beyond the latest checkpoint and malformed parameters', async () => {
    const size = parseNote(await text(t.app, '/api/log/checkpoint')).size;
    for (const query of [
      `inclusion?seq=1&size=${size + 1}`,
      `inclusion?seq=3&size=2`,
      'inclusion?seq=0&size=1',
      'inclusion?seq=1',
      'inclusion?seq=a&size=2',
      'inclusion?seq=1.5&size=2',
      'consistency?from=0&to=1',
      `consistency?from=1&to=${size + 1}`,
      'consistency?from=3&to=2',
      'consistency?to=2',
      'consistency?from=-1&to=2',
    ]) {
      const failure = await json<Failure>(t.app, `/api/log/proof/${query}`, 400);
      expect(failure.success, query).toBe(false);
    }
    expect(await json(t.app, `/api/log/proof/consistency?from=${size}&to=${size}`)).toEqual({
      success: true,
      from: size,
      to: size,
      hashes: [],
    });
  });

  it('rebuilds its nodes at start (a log written before the tree), signing only a size it has not signed', async () => {
    const before = await entriesOf(t.app);
    await t.database.db.deleteFrom('log_nodes').execute();
    await t.database.db.deleteFrom('log_checkpoints').where('size', '>', 3).execute();
    await t.restart();
    const leaves = before.map(leafOf);
    const note = checkSignature(await text(t.app, '/api/log/checkpoint'), key);
    expect(note.root).toBe(mth(leaves).toString('base64'));
    const sizes = await t.database.db.selectFrom('log_checkpoints').select('size').orderBy('size').execute();
    expect(sizes.map((row) => row.size)).toEqual([0, 1, 2, 3, leaves.length]);
    const proof = await json<Inclusion>(t.app, `/api/log/proof/inclusion?seq=2&size=${leaves.length}`);
    expect(proof.hashes).toEqual(b64(path6962(1, leaves)));
    // The same key after a restart: it is kept, and never in a dump or backup.
    expect(await text(t.app, '/api/log/key')).toBe(key);
    const stored = await t.database.db
      .selectFrom('settings')
      .select('key')
      .where('key', '=', LOG_KEY_SETTING)
      .execute();
    expect(stored).toHaveLength(1);
    expect(isOmitted('settings', { key: LOG_KEY_SETTING, value: 'x' })).toBe(true);
  });
});

describe.each(DIALECTS)('the transparency log with its own key, origin and limits [%s]', (dialect) => {
  const dir = tempDir();
  const clock = new TestClock();
  let t: TestApp;
  let pem: string;
  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const file = path.join(dir(), 'log-key.pem');
    writeFileSync(file, pem);
    t = await createTestApp(dialect, {
      now: clock.now,
      env: {
        LOG_KEY_FILE: file,
        LOG_ORIGIN: 'results.example/log',
        LOG_QUERIES_PER_MINUTE: '4',
        PUBLIC_QUERIES_PER_MINUTE: '1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs with LOG_KEY_FILE under LOG_ORIGIN, and caps log queries by LOG_QUERIES_PER_MINUTE alone', async () => {
    clock.toNextMinute();
    const address = uniqueAddress();
    const get = (url: string) => call(t.app, { url, remoteAddress: address });
    const key = (await get('/api/log/key')).body;
    const raw = createPublicKey(pem).export({ format: 'jwk' }).x ?? '';
    expect(key.trim().split('+').slice(2).join('+')).toBe(
      Buffer.concat([Buffer.of(1), Buffer.from(raw, 'base64url')]).toString('base64'),
    );
    const note = checkSignature((await get('/api/log/checkpoint')).body, key);
    expect(note.origin).toBe('results.example/log');
    // Four log queries this minute (more than PUBLIC_QUERIES_PER_MINUTE), then a 429 until the next.
    expect((await get('/api/log/proof/consistency?from=1&to=1')).statusCode).toBe(400);
    expect((await get('/api/log/checkpoint')).statusCode).toBe(200);
    const refused = await get('/api/log/checkpoint');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await call(t.app, { url: '/api/log/checkpoint', remoteAddress: uniqueAddress() })).statusCode,
    ).toBe(200);
    clock.toNextMinute();
    expect((await get('/api/log/checkpoint')).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('two apps appending to one log at once [%s]', (dialect) => {
  const dir = tempDir();
  let pair: TestApp;
  let b: FastifyInstance;
  beforeAll(async () => {
    pair = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'shared.db') });
    b = await pair.startAnother({ ownConnection: true });
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('make one tree and one sequence of checkpoints, never two of a size', async () => {
    const a = pair.app;
    const [tokenA, tokenB] = [await loginAdmin(a), await loginAdmin(b)];
    const ghadis: GhadiRecord[] = [];
    for (let i = 0; i < 6; i++) ghadis.push(await createGhadi(a, tokenA));
    const key = await text(a, '/api/log/key');
    expect(await text(b, '/api/log/key')).toBe(key);
    // Each app declares on every ghadi at once: both write to the log at the same moments.
    await Promise.all(
      [0, 1].flatMap((round) =>
        ghadis.flatMap((ghadi, i) => [
          submitResult(a, tokenA, {
            ghadiId: ghadi.GID,
            result: String(20 + i + round),
            dateTime: daysFromToday(-1 - round),
          }),
          submitResult(b, tokenB, {
            ghadiId: ghadi.GID,
            result: String(60 + i + round),
            dateTime: daysFromToday(-3 - round),
          }),
        ]),
      ),
    );
    const entries = await entriesOf(a);
    expect(entries).toHaveLength(24);
    const leaves = entries.map(leafOf);
    await checkEveryCheckpoint(pair.database, leaves, key, 0);
    for (const app of [a, b]) {
      const note = checkSignature(await text(app, '/api/log/checkpoint'), key);
      expect(note).toMatchObject({ size: 24, root: mth(leaves).toString('base64') });
    }
    const nodes = await pair.database.db
      .selectFrom('log_nodes')
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    // 24 leaves and the 22 inner nodes of their perfect subtrees (12 + 6 + 3 + 1).
    expect(Number(nodes.count)).toBe(24 + 12 + 6 + 3 + 1);
  });
});
