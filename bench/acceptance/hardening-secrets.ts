/**
 * The hardening group's second finding (hardening-checks.ts): what the site writes to disk is its
 * owner's alone and carries no signing secret. On the running SQLite site (JWT_SECRET unset, so the
 * server signs with the key it keeps in `settings`):
 * - `db:export` and `db:backup` copies, the database's files and the data folder the app made are
 *   0600 / 0700;
 * - the live secret (read from the database file with better-sqlite3) is in neither copy, and a
 *   token signed (as src/server/lib/tokens.ts signs) with any `settings` value the copies hold is
 *   refused, with or without a `kid`; the same token signed with the live secret is accepted, which
 *   shows the forgery would work;
 * - `npm run rotate-secret` ends a valid admin token on the running server, and a new login works.
 */
import { type ExecFileException, execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import { signIn } from '../lib/client.js';
import { SEED_ADMIN } from '../lib/seed.js';
import type { ServerProcess } from '../lib/server-process.js';
import { timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

const run = promisify(execFile);

export interface SecretsContext {
  site: ServerProcess;
  /** The site's database file; its folder was made by the app. */
  file: string;
  /** Where the dump and the backup go. */
  outDir: string;
}

interface Claims {
  sub: string;
  ver: number;
  /** The session the real token names: a forged token must name a live one to be accepted. */
  jti: string;
}

/** Every `settings` row of a SQLite file, read without writing to it. */
function settingsOf(file: string): Map<string, string> {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = database.prepare('SELECT key, value FROM settings').all() as Array<{
      key: string;
      value: string;
    }>;
    return new Map(rows.map((row) => [row.key, row.value]));
  } finally {
    database.close();
  }
}

async function npmScript(script: string, args: string[], file: string) {
  const env = { ...process.env, DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'warn', JWT_SECRET: '' };
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
      env,
      timeout: 120_000,
    });
    return { code: 0, output: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const failure = error as ExecFileException & { stdout?: string; stderr?: string };
    const code = typeof failure.code === 'number' ? failure.code : 1;
    return { code, output: `${failure.stdout ?? ''}${failure.stderr ?? failure.message}`.trim() };
  }
}

const lastLine = (text: string) => text.split('\n').at(-1) ?? '';
const modeOf = (file: string) => (fs.existsSync(file) ? (fs.statSync(file).mode & 0o777).toString(8) : null);

function decodePart(token: string, part: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[part] ?? '', 'base64url').toString('utf8'));
}

/** A token as the server signs one (HS256, iss ghadi-results, sub, ver, jti, iat, exp), with `secret`. */
function forge(secret: string, claims: Claims, kid: string | undefined): Promise<string> {
  return new SignJWT({ ver: claims.ver })
    .setProtectedHeader(kid === undefined ? { alg: 'HS256' } : { alg: 'HS256', kid })
    .setSubject(claims.sub)
    .setIssuer('ghadi-results')
    .setJti(claims.jti)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
}

async function usersStatus(site: ServerProcess, token: string): Promise<number> {
  const answer = await timedRequest(`${site.url}/api/users`, {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.79.0.9' },
  });
  return answer.status;
}

/** The settings values a dump holds (rows of table `settings`), and whether `secret` is anywhere in it. */
function readDump(file: string, secret: string) {
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
  const values: string[] = [];
  const keys: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const parsed = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
    if (parsed.table === 'settings' && parsed.row) {
      keys.push(String(parsed.row.key));
      for (const value of Object.values(parsed.row)) if (typeof value === 'string') values.push(value);
    }
  }
  return { values, keys, hasSecret: text.includes(secret), lines: text.split('\n').length - 1 };
}

export async function secretsChecks(context: SecretsContext): Promise<CheckResult[]> {
  const { site, file, outDir } = context;
  const live = settingsOf(file);
  const secret = live.get('jwt_secret');
  const generation = live.get('jwt_key_generation');
  const dump = path.join(outDir, 'site.ndjson.gz');
  const backup = path.join(outDir, 'site-backup.db');
  const exported = await npmScript('db:export', [dump], file);
  const backedUp = await npmScript('db:backup', [backup], file);
  const copies = `db:export exit ${exported.code} ("${lastLine(exported.output)}"), db:backup exit ${backedUp.code} ("${lastLine(backedUp.output)}")`;
  const results: CheckResult[] = [];

  results.push(
    await check(
      'the dump, the backup and the database files are 0600, the data folder the app made 0700',
      async () => {
        const files = {
          dump,
          backup,
          database: file,
          '-wal': `${file}-wal`,
          '-shm': `${file}-shm`,
        };
        const modes = Object.entries(files).map(([name, where]) => [name, modeOf(where)] as const);
        const folder = modeOf(path.dirname(file));
        const present = modes.filter(([, mode]) => mode !== null);
        const ok =
          exported.code === 0 &&
          backedUp.code === 0 &&
          modes.slice(0, 3).every(([, mode]) => mode === '600') &&
          present.every(([, mode]) => mode === '600') &&
          folder === '700';
        return {
          ok,
          detail: `${modes.map(([name, mode]) => `${name} ${mode ?? 'absent'}`).join(', ')}; data folder ${folder}; umask of this run ${process.umask().toString(8)}; ${copies}`,
        };
      },
    ),
  );

  let signedIn: { token: string; header: Record<string, unknown>; claims: Claims } | undefined;
  const admin = async () => {
    if (!signedIn) {
      const token = await signIn(site.url, SEED_ADMIN, '10.79.0.1');
      const claims = decodePart(token, 1);
      signedIn = {
        token,
        header: decodePart(token, 0),
        claims: { sub: String(claims.sub), ver: Number(claims.ver), jti: String(claims.jti) },
      };
    }
    return signedIn;
  };

  results.push(
    await check(
      'no signing secret in the dump or the backup; tokens signed with what they hold are refused',
      async () => {
        if (!secret)
          throw new Error(`the live database has no jwt_secret (settings: ${[...live.keys()].join(', ')})`);
        const { header, claims: real } = await admin();
        const fromDump = readDump(dump, secret);
        const backupBytes = fs.readFileSync(backup);
        const backupHasSecret = backupBytes.includes(Buffer.from(secret, 'utf8'));
        const fromBackup = settingsOf(backup);
        const candidates = new Set([...fromDump.values, ...fromBackup.values()]);
        if (fromDump.hasSecret || backupHasSecret) candidates.add(secret);
        const kid = typeof header.kid === 'string' ? header.kid : generation;
        // The method, shown on the live secret: what the server signs with is accepted.
        const control = await usersStatus(site, await forge(secret, real, kid));
        const controlNoKid = await usersStatus(site, await forge(secret, real, undefined));
        const accepted: string[] = [];
        const statuses = new Map<number, number>();
        for (const candidate of candidates) {
          for (const withKid of [kid, undefined]) {
            const status = await usersStatus(site, await forge(candidate, real, withKid));
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status !== 401)
              accepted.push(`${candidate.slice(0, 6)}… ${withKid ? 'with' : 'without'} kid: ${status}`);
          }
        }
        const ok =
          !fromDump.hasSecret &&
          !backupHasSecret &&
          !fromBackup.has('jwt_secret') &&
          control === 200 &&
          accepted.length === 0;
        return {
          ok,
          detail:
            `live key generation ${generation}, secret ${secret.length} chars (token kid ${String(header.kid)}); ` +
            `dump: ${fromDump.lines} lines, settings keys ${fromDump.keys.join(', ') || 'none'}, secret found: ${fromDump.hasSecret}; ` +
            `backup: ${backupBytes.length} B, settings keys ${[...fromBackup.keys()].join(', ') || 'none'}, secret bytes found: ${backupHasSecret}; ` +
            `${candidates.size} candidate secrets × (kid, no kid): ${[...statuses].map(([status, times]) => `${times}×${status}`).join(' ') || 'none to try'}` +
            `${accepted.length ? `; ACCEPTED: ${accepted.join('; ')}` : ''}; ` +
            `control: the live secret with kid ${control}, without kid ${controlNoKid}`,
        };
      },
    ),
  );

  results.push(
    await check(
      'npm run rotate-secret ends a valid admin token on the running server; a new login works',
      async () => {
        const script = JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts?.['rotate-secret'];
        if (!script) return { ok: false, detail: 'package.json has no rotate-secret script' };
        const { token, claims: real } = await admin();
        const before = await usersStatus(site, token);
        const rotated = await npmScript('rotate-secret', [], file);
        const after = await usersStatus(site, token);
        const oldSecretForged = secret ? await usersStatus(site, await forge(secret, real, generation)) : 0;
        const stored = settingsOf(file);
        const fresh = await signIn(site.url, SEED_ADMIN, '10.79.0.2');
        const freshStatus = await usersStatus(site, fresh);
        const freshKid = decodePart(fresh, 0).kid;
        const ok = before === 200 && rotated.code === 0 && after === 401 && freshStatus === 200;
        return {
          ok,
          detail:
            `token before ${before}; rotate-secret exit ${rotated.code} ("${lastLine(rotated.output)}"); ` +
            `the same token after ${after}; a token forged with the old secret ${oldSecretForged}; ` +
            `stored generation ${generation} → ${stored.get('jwt_key_generation')}, secret changed: ${stored.get('jwt_secret') !== secret}; ` +
            `new login's token (kid ${String(freshKid)}) on GET /api/users: ${freshStatus}`,
        };
      },
    ),
  );
  return results;
}
