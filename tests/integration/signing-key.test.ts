import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inLockedTransaction } from '../../src/server/db/database.js';
import { exportDatabase } from '../../src/server/modules/backup/dump-export.js';
import { importDump } from '../../src/server/modules/backup/dump-import.js';
import { TABLE_ORDER } from '../../src/server/modules/backup/dump-tables.js';
import { SettingsRepository } from '../../src/server/modules/settings/settings-repository.js';
import { readStoredKey, writeNewKey } from '../../src/server/modules/settings/signing-key-store.js';
import { databaseUrl, npmRun, type Row, readDump } from '../support/dumps.js';
import { call, loginAdmin } from '../support/factories.js';
import {
  ADMIN_USERNAME,
  createTestApp,
  DIALECTS,
  SKIP_POSTGRES,
  type TestApp,
  tempDir,
} from '../support/test-app.js';

/**
 * The token-signing key stays in the database: no dump or db:backup copy carries it, those files and
 * the SQLite files are readable by their owner only, an import makes a new key, and rotate-secret
 * replaces it under running servers.
 */

// The loosest umask: a file created without an explicit mode would be readable (and writable) by all,
// so every mode checked below was set by the code, not by the umask. CLI processes inherit it.
let umask: number;
beforeAll(() => {
  umask = process.umask(0);
});
afterAll(() => {
  process.umask(umask);
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

async function storedSecret(database: Database): Promise<string | undefined> {
  const row = await database.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'jwt_secret')
    .executeTakeFirst();
  return row?.value;
}

async function adminPasswordHash(database: Database): Promise<string> {
  const row = await database.db
    .selectFrom('users')
    .select('password_hash')
    .where('username', '=', ADMIN_USERNAME)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

/** The same token (claims, key id) signed with `secret` instead. */
async function signedWith(token: string, secret: string): Promise<string> {
  const { sub, ver, jti, iss, iat, exp } = decodeJwt(token);
  const { kid } = decodeProtectedHeader(token);
  return new SignJWT({ ver })
    .setProtectedHeader({ alg: 'HS256', kid: String(kid) })
    .setSubject(String(sub))
    .setIssuer(String(iss))
    .setJti(String(jti))
    .setIssuedAt(Number(iat))
    .setExpirationTime(Number(exp))
    .sign(new TextEncoder().encode(secret));
}

/** An admin-only route's status for the token. */
async function statusWith(app: FastifyInstance, token: string): Promise<number> {
  return (await call(app, { url: '/api/users', token })).statusCode;
}

/** Every text in the rows long enough to be a signing key (JWT_SECRET needs 32 characters). */
function keyCandidates(rows: Row[]): string[] {
  const values = rows.flatMap((row) => Object.values(row));
  return [...new Set(values.filter((value): value is string => typeof value === 'string'))].filter(
    (value) => value.length >= 32,
  );
}

/**
 * The token is accepted when signed with the site's own key (so the forgery is faithful) and refused
 * when signed with any candidate: none of them is the key.
 */
async function expectNoKeyAmong(app: FastifyInstance, token: string, secret: string, candidates: string[]) {
  expect(await statusWith(app, await signedWith(token, secret))).toBe(200);
  expect(candidates.length).toBeGreaterThan(0);
  for (const candidate of candidates) {
    expect(await statusWith(app, await signedWith(token, candidate)), candidate).toBe(401);
  }
}

describe.each(DIALECTS)('db:export and db:import leave the signing key behind [%s]', (dialect) => {
  const dir = tempDir();
  let source: TestApp;
  let sourceToken: string;
  let secret: string;
  let dumpFile: string;

  beforeAll(async () => {
    source = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'source.db') });
    sourceToken = await loginAdmin(source.app);
    secret = (await storedSecret(source.database)) ?? '';
    dumpFile = path.join(dir(), 'source.ndjson.gz');
    const exported = await npmRun('db:export', [dumpFile], { DATABASE_URL: databaseUrl(source) });
    expect(exported).toMatchObject({ code: 0, err: '' });
    expect(exported.out).toMatch(/without the signing key/);
  });
  afterAll(async () => {
    await source?.close();
  });

  it('a dump holds no key, in any form, is owner-only, and nothing in it signs an accepted token', async () => {
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(modeOf(dumpFile)).toBe(0o600);
    const text = zlib.gunzipSync(fs.readFileSync(dumpFile));
    // The search finds what is there (the admin's password hash), and not the key.
    expect(text.includes(await adminPasswordHash(source.database))).toBe(true);
    expect(text.includes(secret)).toBe(false);
    expect(text.includes('jwt_')).toBe(false);
    const { rows } = readDump(dumpFile);
    await expectNoKeyAmong(source.app, sourceToken, secret, keyCandidates(Object.values(rows).flat()));
  });

  it('an import stores a new key: the source’s tokens and the target’s own sessions end there', async () => {
    const target = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'target.db') });
    try {
      const targetToken = await loginAdmin(target.app);
      const before = await storedSecret(target.database);
      expect(await statusWith(target.app, targetToken)).toBe(200);

      const imported = await npmRun('db:import', [dumpFile, '--force'], {
        DATABASE_URL: databaseUrl(target),
      });
      expect(imported).toMatchObject({ code: 0, err: '' });
      expect(imported.out).toMatch(/every session on that database has ended/);
      const after = await storedSecret(target.database);
      expect(after?.length).toBeGreaterThanOrEqual(32);
      expect([before, secret]).not.toContain(after);

      // The target's server kept running through the import: its sessions end at once.
      expect(await statusWith(target.app, targetToken)).toBe(401);
      expect(await statusWith(source.app, sourceToken)).toBe(200);
      expect(await statusWith(target.app, sourceToken)).toBe(401);
      // The imported admin signs in there, and that session works.
      expect(await statusWith(target.app, await loginAdmin(target.app))).toBe(200);
    } finally {
      await target.close();
    }
  });

  it('a dump made before the key was left out: its key is dropped on import', async () => {
    const lines = zlib.gunzipSync(fs.readFileSync(dumpFile)).toString('utf8').trimEnd().split('\n');
    const trailer = JSON.parse(lines.at(-1) ?? '{}') as { counts: Record<string, number> };
    trailer.counts.settings = (trailer.counts.settings ?? 0) + 2;
    const keyRows = [
      { table: 'settings', row: { key: 'jwt_key_generation', value: '1' } },
      { table: 'settings', row: { key: 'jwt_secret', value: secret } },
    ].map((line) => JSON.stringify(line));
    const olderDump = path.join(dir(), 'older.ndjson.gz');
    fs.writeFileSync(
      olderDump,
      zlib.gzipSync(`${[lines[0], ...keyRows, ...lines.slice(1, -1), JSON.stringify(trailer)].join('\n')}\n`),
    );
    const target = await createTestApp(dialect);
    try {
      const imported = await npmRun('db:import', [olderDump, '--force'], {
        DATABASE_URL: databaseUrl(target),
      });
      expect(imported).toMatchObject({ code: 0, err: '' });
      const after = await storedSecret(target.database);
      expect(after?.length).toBeGreaterThanOrEqual(32);
      expect(after).not.toBe(secret);
      expect(await statusWith(target.app, sourceToken)).toBe(401);
    } finally {
      await target.close();
    }
  });
});

describe('db:backup and the SQLite files', () => {
  const dir = tempDir();

  it('makes the folders it creates 0700 and the database files 0600, and leaves other folders be', async () => {
    const parentMode = modeOf(dir());
    const siteFile = path.join(dir(), 'data', 'site', 'site.db');
    const site = await createTestApp('sqlite', { sqliteFile: siteFile });
    try {
      await loginAdmin(site.app);
      expect(modeOf(path.join(dir(), 'data'))).toBe(0o700);
      expect(modeOf(path.dirname(siteFile))).toBe(0o700);
      expect(modeOf(dir())).toBe(parentMode);
      for (const file of [siteFile, `${siteFile}-wal`, `${siteFile}-shm`])
        expect(modeOf(file), file).toBe(0o600);
    } finally {
      await site.close();
    }

    // A database file made readable by others before (an older version, a copy) is made owner-only.
    const older = path.join(dir(), 'older.db');
    fs.copyFileSync(siteFile, older);
    fs.chmodSync(older, 0o644);
    const again = await createTestApp('sqlite', { sqliteFile: older });
    try {
      expect(modeOf(older)).toBe(0o600);
    } finally {
      await again.close();
    }
  });

  it('a db:backup copy holds no key and is owner-only; a site started on it makes a new key', async () => {
    const siteFile = path.join(dir(), 'backed-up.db');
    const site = await createTestApp('sqlite', { sqliteFile: siteFile });
    try {
      const token = await loginAdmin(site.app);
      const secret = (await storedSecret(site.database)) ?? '';
      expect(secret.length).toBeGreaterThanOrEqual(32);
      const copy = path.join(dir(), 'copy.db');
      const backedUp = await npmRun('db:backup', [copy], { DATABASE_URL: `sqlite:${siteFile}` });
      expect(backedUp).toMatchObject({ code: 0, err: '' });
      expect(modeOf(copy)).toBe(0o600);
      // One file, nothing beside it.
      expect(fs.readdirSync(dir()).filter((name) => name.startsWith('copy.db'))).toEqual(['copy.db']);

      // The bytes, free pages included: the search finds the admin's hash, and not the key.
      const bytes = fs.readFileSync(copy);
      expect(bytes.includes(await adminPasswordHash(site.database))).toBe(true);
      expect(bytes.includes(secret)).toBe(false);
      const sqlite = new SQLite(copy, { readonly: true });
      let rows: Row[];
      try {
        const settings = sqlite.prepare('select key from settings').all() as Row[];
        expect(settings.map((row) => row.key)).not.toContain('jwt_secret');
        rows = TABLE_ORDER.flatMap((table) => sqlite.prepare(`select * from ${table}`).all() as Row[]);
      } finally {
        sqlite.close();
      }
      await expectNoKeyAmong(site.app, token, secret, keyCandidates(rows));

      // Restored: a server on the copy makes a key of its own; the site's tokens are refused there.
      const restored = await createTestApp('sqlite', { sqliteFile: copy });
      try {
        const restoredSecret = await storedSecret(restored.database);
        expect(restoredSecret?.length).toBeGreaterThanOrEqual(32);
        expect(restoredSecret).not.toBe(secret);
        expect(await statusWith(restored.app, token)).toBe(401);
        expect(await statusWith(restored.app, await loginAdmin(restored.app))).toBe(200);
      } finally {
        await restored.close();
      }
    } finally {
      await site.close();
    }
  });
});

describe.each(DIALECTS)('npm run rotate-secret [%s]', (dialect) => {
  const dir = tempDir();

  it('ends every token on two running servers at once; a new login works on both', async () => {
    const t = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'rotate.db') });
    try {
      // Another process's server: its own connection, its own copy of the key.
      const second = await t.startAnother({ ownConnection: true });
      const apps = [t.app, second];
      const tokens = [await loginAdmin(t.app), await loginAdmin(second)];
      for (const app of apps) for (const token of tokens) expect(await statusWith(app, token)).toBe(200);
      const before = await storedSecret(t.database);

      const rotated = await npmRun('rotate-secret', [], { DATABASE_URL: databaseUrl(t) });
      expect(rotated).toMatchObject({ code: 0, err: '' });
      expect(rotated.out).toMatch(/^Replaced the signing key of .*Every session has ended/);
      const after = await storedSecret(t.database);
      expect(after?.length).toBeGreaterThanOrEqual(32);
      expect(after).not.toBe(before);

      for (const app of apps) for (const token of tokens) expect(await statusWith(app, token)).toBe(401);
      // A token signed after the rotation by one server works on the other, which has signed nothing
      // since and so has not read the new key: it reads it when a token names it.
      const fromSecond = await loginAdmin(second);
      for (const app of apps) expect(await statusWith(app, fromSecond)).toBe(200);
      const fromFirst = await loginAdmin(t.app);
      for (const app of apps) expect(await statusWith(app, fromFirst)).toBe(200);
      // And the old ones stay refused.
      for (const app of apps) for (const token of tokens) expect(await statusWith(app, token)).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('refuses while JWT_SECRET is set, saying to change JWT_SECRET, and changes nothing', async () => {
    const JWT_SECRET = 'an-environment-secret-long-enough-to-sign';
    const t = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'env.db'), env: { JWT_SECRET } });
    try {
      const token = await loginAdmin(t.app);
      expect(await statusWith(t.app, token)).toBe(200);
      const before = await t.database.db.selectFrom('settings').selectAll().execute();
      const refused = await npmRun('rotate-secret', [], { DATABASE_URL: databaseUrl(t), JWT_SECRET });
      expect(refused.code).toBe(1);
      expect(refused.out).toBe('');
      expect(refused.err).toMatch(
        /^rotate-secret failed: JWT_SECRET is set.*change JWT_SECRET on every server/,
      );
      expect(await t.database.db.selectFrom('settings').selectAll().execute()).toEqual(before);
      expect(await statusWith(t.app, token)).toBe(200);

      const usage = await npmRun('rotate-secret', ['now'], { DATABASE_URL: databaseUrl(t) });
      expect(usage.code).toBe(2);
      expect(usage.err).toMatch(/^usage: rotate-secret/);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(SKIP_POSTGRES)('db:import while the key is being rotated [postgres]', () => {
  const dir = tempDir();

  /** True once a backend holding the import's lock waits for the signing key's (pg_locks: the import, queued). */
  async function importWaitsForKey(database: Database): Promise<boolean> {
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from pg_locks w join pg_locks h on h.pid = w.pid
      where w.locktype = 'advisory' and not w.granted
        and w.objid = (hashtext('signing-key')::bigint & 4294967295)::oid
        and h.locktype = 'advisory' and h.granted
        and h.objid = (hashtext('db-import')::bigint & 4294967295)::oid`.execute(database.db);
    return (rows[0]?.waiting ?? 0) > 0;
  }

  it('the import waits for the rotation, then stores a generation past it', async () => {
    const t = await createTestApp('postgres');
    try {
      const dumpFile = path.join(dir(), 'rotating.ndjson.gz');
      await exportDatabase(t.database, dumpFile);
      let importing: Promise<unknown> | undefined;
      // A rotation in progress: the key's lock is held, a new generation written, not yet committed.
      const rotated = await inLockedTransaction(t.database, 'signing-key', async (trx) => {
        importing = importDump(t.database, dumpFile, { force: true });
        while (!(await importWaitsForKey(t.database))) await new Promise((resolve) => setImmediate(resolve));
        const settings = new SettingsRepository({ ...t.database, db: trx });
        return writeNewKey(settings);
      });
      await importing;
      const stored = await readStoredKey(new SettingsRepository(t.database));
      // Without the lock the import would have read the generation before the rotation and written
      // the same one with another secret: processes holding the rotated key would never reload.
      expect(Number(stored?.id)).toBe(Number(rotated.id) + 1);
      expect(stored?.secret).not.toBe(rotated.secret);
    } finally {
      await t.close();
    }
  });
});
