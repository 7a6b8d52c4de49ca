/**
 * Issue 42's "Done when", from outside, on servers of their own (SQLite, then PostgreSQL; no
 * PUBLIC_URL; LOG_LEVEL info): two-factor sign-in for an agent and an admin with the checker's own RFC 6238 code
 * (bench/lib/rfc6238.ts) at the server's clock, wrong codes under the login throttle, the session list,
 * one's own password, REQUIRE_ADMIN_2FA=true on a second server, passkeys through Chromium's virtual
 * authenticator, a password typed as a user name kept out of the activity trail, and no secret, backup
 * code, password or hash in any answer or log line of the run (db:export, a full backup, may hold them).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { SEED_ADMIN } from '../lib/seed.js';
import { passkeyChecks } from './account-passkey-checks.js';
import { ownPasswordCheck, sessionChecks, typedPasswordCheck } from './account-session-checks.js';
import { type AccountSite, type Credentials, startAccountSite } from './account-site.js';
import {
  requiredForAdminsChecks,
  type Secrets,
  throttleCheck,
  twoFactorChecks,
} from './account-totp-checks.js';
import { check } from './check.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const run = promisify(execFile);

/** Where a needle shows up: every answer body but the one that handed it out, and the server's output. */
function leaksOf(site: AccountSite, secrets: Secrets, passwords: string[]): string[] {
  const needles: Array<{ label: string; text: string; shownAt: number }> = [
    ...secrets.totp.map(({ secret, shownAt }) => ({ label: 'a TOTP secret', text: secret, shownAt })),
    ...secrets.backupCodes.flatMap(({ code, shownAt }) => [
      { label: 'a backup code', text: code, shownAt },
      { label: 'a backup code', text: code.replaceAll('-', ''), shownAt },
      { label: 'a backup code', text: code.replaceAll('-', '').toUpperCase(), shownAt },
    ]),
    ...passwords.map((text) => ({ label: 'a password', text, shownAt: -1 })),
    { label: 'a password hash', text: '$argon2', shownAt: -1 },
  ];
  const found: string[] = [];
  const output = site.server.output();
  for (const needle of needles) {
    site.bodies.forEach((body, index) => {
      if (index !== needle.shownAt && body.text.includes(needle.text))
        found.push(`${needle.label} in the answer to ${body.what}`);
    });
    if (output.includes(needle.text)) found.push(`${needle.label} in the server's output`);
  }
  return [...new Set(found)];
}

async function exportCheck(site: AccountSite): Promise<CheckResult> {
  return check(
    'db:export (its built program, dist/server/cli/db-tools.js) of the run’s database works (a full backup: it may hold hashes and secrets)',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-account-export-'));
      try {
        const file = path.join(dir, 'export.ndjson.gz');
        // db:export's program as built with the server that made the database (`npm run db:export` runs
        // the sources, which may be ahead of the build by a migration).
        const { stdout, stderr } = await run(
          process.execPath,
          ['dist/server/cli/db-tools.js', 'export', file],
          {
            env: { ...process.env, DATABASE_URL: site.databaseUrl },
          },
        );
        const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter(Boolean);
        const withHashes = lines.some((line) => line.includes('$argon2'));
        return {
          ok: lines.length > 0,
          detail: `${lines.length} lines (password hashes in it: ${withHashes}); said: ${`${stdout}${stderr}`.trim().slice(0, 160)}`,
        };
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}

/** Every check on one database: a site, and a second one with REQUIRE_ADMIN_2FA=true. */
async function checksOn(kind: 'sqlite' | 'postgres', settings: CheckSettings): Promise<CheckResult[]> {
  const [site, strict] = await Promise.all([
    startAccountSite(kind, settings),
    startAccountSite(kind, settings, { REQUIRE_ADMIN_2FA: 'true' }),
  ]);
  try {
    const secrets: Secrets = { totp: [], backupCodes: [] };
    const strictSecrets: Secrets = { totp: [], backupCodes: [] };
    const agents: Record<string, Credentials> = {};
    for (const name of ['twofactor', 'throttle', 'sessions', 'password', 'passkey'])
      agents[name] = await site.agent(`acct.${name}`);
    const agent = (name: string) => agents[name] as Credentials;
    const results: CheckResult[] = [];
    // The three wait for the servers' next 30-s step together.
    const [agentChecks, adminChecks, strictChecks] = await Promise.all([
      twoFactorChecks(site, 'agent', agent('twofactor'), secrets),
      twoFactorChecks(site, 'admin', SEED_ADMIN, secrets),
      requiredForAdminsChecks(strict, SEED_ADMIN, strictSecrets),
    ]);
    results.push(...agentChecks, ...adminChecks);
    results.push(await throttleCheck(site, agent('throttle'), settings.loginMaxFailures, secrets));
    results.push(...(await sessionChecks(site, agent('sessions'))));
    results.push(await ownPasswordCheck(site, agent('password')));
    results.push(...strictChecks);
    results.push(...(await passkeyChecks(site, agent('passkey'))));
    results.push(await typedPasswordCheck(site, SEED_ADMIN));
    const passwords = [
      SEED_ADMIN.password,
      ...Object.values(agents).flatMap((credentials) => [
        credentials.password,
        `${credentials.password}-new`,
      ]),
    ];
    results.push(
      await check(
        'no answer (but setup’s and enable’s own) and no log line holds a TOTP secret, a backup code, a password or a hash',
        async () => {
          const found = [...leaksOf(site, secrets, passwords), ...leaksOf(strict, strictSecrets, passwords)];
          const counted = `${site.bodies.length + strict.bodies.length} answers and ${site.server.output().length + strict.server.output().length} characters of server output searched for ${secrets.totp.length + strictSecrets.totp.length} secrets, ${secrets.backupCodes.length + strictSecrets.backupCodes.length} backup codes, ${passwords.length} passwords and "$argon2"`;
          return { ok: found.length === 0, detail: found.length ? `found ${found.join('; ')}` : counted };
        },
      ),
    );
    results.push(await exportCheck(site));
    return results.map((result) => ({ ...result, name: `${site.label}: ${result.name}` }));
  } finally {
    await Promise.all([site.stop(), strict.stop()]);
  }
}

export const accountChecks: StandaloneChecks = async (settings: CheckSettings) => [
  ...(await checksOn('sqlite', settings)),
  ...(await checksOn('postgres', settings)),
];
