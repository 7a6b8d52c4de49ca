/**
 * The account group's two-factor checks (account-checks.ts): setup, enable, sign-in with and without
 * a code, a replayed code, backup codes, disable; wrong codes under the login throttle; and
 * REQUIRE_ADMIN_2FA=true holding a password-only admin. Codes are the checker's own (bench/lib/rfc6238.ts)
 * at the server's clock.
 */
import { totp } from '../lib/rfc6238.js';
import type { AccountSite, Credentials } from './account-site.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

/** What the leak check must never find after the answer that handed it out. */
export interface Secrets {
  /** TOTP secrets, with the index in site.bodies of the setup answer that carried each. */
  totp: Array<{ secret: string; shownAt: number }>;
  backupCodes: Array<{ code: string; shownAt: number }>;
}

const BACKUP_CODE = /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/;

/** Six digits that are no code of the secret at `step` or the steps beside it. */
export function wrongCode(secret: string, step: number): string {
  const near = [step - 1, step, step + 1].map((s) => totp(secret, s));
  return ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code)) ?? '444444';
}

const short = (answer: { status: number; body: unknown }) =>
  `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;

/** Setup and enable (with a wrong code first): the secret, the enabling step and the backup codes. */
async function enrol(site: AccountSite, token: string, secrets: Secrets) {
  const setup = await site.call('POST', '/api/users/me/2fa/setup', { token });
  const secret = String(setup.body.secret ?? '');
  if (secret) secrets.totp.push({ secret, shownAt: site.bodies.length - 1 });
  const now = await site.code(secret || 'AAAAAAAA');
  const wrong = await site.call('POST', '/api/users/me/2fa/enable', {
    token,
    json: { Code: wrongCode(secret || 'AAAAAAAA', now.step) },
  });
  const first = await site.code(secret || 'AAAAAAAA');
  const enable = await site.call('POST', '/api/users/me/2fa/enable', { token, json: { Code: first.code } });
  const backupCodes: string[] = Array.isArray(enable.body.backupCodes) ? enable.body.backupCodes : [];
  for (const code of backupCodes) secrets.backupCodes.push({ code, shownAt: site.bodies.length - 1 });
  return { setup, wrong, enable, secret, step: first.step, backupCodes };
}

/** Item 1 for one account (an agent or the admin). */
export async function twoFactorChecks(
  site: AccountSite,
  who: string,
  credentials: Credentials,
  secrets: Secrets,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const token = await site.token(credentials);
  const e = await enrol(site, token, secrets);
  results.push(
    await check(
      `${who}: setup answers a base32 secret and otpauth URL; enable refuses a wrong code (400), takes its own code and answers 10 backup codes`,
      async () => {
        const ok =
          e.setup.status === 200 &&
          /^[A-Z2-7]{16,}=*$/.test(e.secret) &&
          String(e.setup.body.otpauthUrl).startsWith('otpauth://totp/') &&
          String(e.setup.body.otpauthUrl).includes(`secret=${e.secret}`) &&
          e.wrong.status === 400 &&
          e.enable.status === 200 &&
          e.backupCodes.length === 10 &&
          new Set(e.backupCodes).size === 10 &&
          e.backupCodes.every((code) => BACKUP_CODE.test(code));
        return {
          ok,
          detail: `setup ${e.setup.status} (secret of ${e.secret.length} characters); wrong code ${short(e.wrong)}; enable ${e.enable.status} with ${e.backupCodes.length} backup codes${e.backupCodes.every((code) => BACKUP_CODE.test(code)) ? '' : ' NOT all abcd-efgh-ijkl-mnop'}`,
        };
      },
    ),
  );
  results.push(
    await check(`${who}: a sign-in without a code answers 401 twoFactorRequired and no token`, async () => {
      const answer = await site.login(credentials);
      const ok =
        answer.status === 401 && answer.body.twoFactorRequired === true && answer.body.token === undefined;
      return { ok, detail: short(answer) };
    }),
  );
  const next = await site.codeAfter(e.secret, e.step);
  results.push(
    await check(
      `${who}: a code of the next step signs in (200, the token works); the same code again is refused`,
      async () => {
        const answer = await site.login(credentials, next.code);
        const me = await site.call('GET', '/api/users/me', { token: answer.body.token });
        const replay = await site.login(credentials, next.code);
        const ok =
          answer.status === 200 &&
          me.status === 200 &&
          me.body.data?.TwoFactor === true &&
          me.body.data?.UserName === credentials.username &&
          replay.status === 401 &&
          replay.body.twoFactorRequired === true &&
          replay.body.token === undefined;
        return {
          ok,
          detail: `code of step ${next.step} (enabled at ${e.step}): ${answer.status}, /api/users/me ${me.status} TwoFactor ${me.body.data?.TwoFactor}; replayed: ${short(replay)}`,
        };
      },
    ),
  );
  const [backup = '', other = ''] = e.backupCodes;
  results.push(
    await check(`${who}: a backup code signs in once and is refused the second time`, async () => {
      const first = await site.login(credentials, backup.toUpperCase());
      const again = await site.login(credentials, backup);
      const ok =
        first.status === 200 &&
        typeof first.body.token === 'string' &&
        again.status === 401 &&
        again.body.twoFactorRequired === true &&
        again.body.token === undefined;
      return { ok, detail: `first (upper case) ${first.status}; again ${short(again)}` };
    }),
  );
  results.push(
    await check(
      `${who}: disable refuses a wrong password (400, still on), then turns it off; a password alone signs in again`,
      async () => {
        const wrong = await site.call('POST', '/api/users/me/2fa/disable', {
          token,
          json: { Password: `${credentials.password}-not`, Code: other },
        });
        const still = await site.login(credentials);
        const disable = await site.call('POST', '/api/users/me/2fa/disable', {
          token,
          json: { Password: credentials.password, Code: e.backupCodes[2] ?? '' },
        });
        const plain = await site.login(credentials);
        const ok =
          wrong.status === 400 &&
          still.status === 401 &&
          still.body.twoFactorRequired === true &&
          disable.status === 200 &&
          plain.status === 200 &&
          typeof plain.body.token === 'string';
        return {
          ok,
          detail: `wrong password ${short(wrong)}; then without a code ${still.status}; disable ${short(disable)}; password alone ${plain.status}`,
        };
      },
    ),
  );
  return results;
}

/** Wrong codes count as failed sign-ins: LOGIN_MAX_FAILURES of them lock the account and address. */
export async function throttleCheck(
  site: AccountSite,
  credentials: Credentials,
  maxFailures: number,
  secrets: Secrets,
): Promise<CheckResult> {
  return check(
    `${maxFailures} wrong codes (right password) lock the account and address: then even a good backup code gets 429`,
    async () => {
      const token = await site.token(credentials);
      const e = await enrol(site, token, secrets);
      if (e.enable.status !== 200) return { ok: false, detail: `enable answered ${short(e.enable)}` };
      const address = '10.255.1.1';
      const statuses: number[] = [];
      for (let i = 0; i < maxFailures; i++) {
        const answer = await site.login(
          credentials,
          wrongCode(e.secret, (await site.code(e.secret)).step),
          address,
        );
        statuses.push(answer.status);
      }
      const locked = await site.login(credentials, e.backupCodes[0] ?? '', address);
      const ok =
        statuses.every((status) => status === 401) &&
        locked.status === 429 &&
        Number(locked.headers['retry-after']) > 0 &&
        locked.body.token === undefined;
      return {
        ok,
        detail: `wrong codes: ${statuses.join(',')}; then a backup code from the same address: ${short(locked)}, Retry-After ${locked.headers['retry-after']}`,
      };
    },
  );
}

/** Item 4: REQUIRE_ADMIN_2FA=true on a site of its own. */
export async function requiredForAdminsChecks(
  site: AccountSite,
  admin: Credentials,
  secrets: Secrets,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const token = await site.token(admin);
  let enrolled: Awaited<ReturnType<typeof enrol>> | undefined;
  results.push(
    await check(
      'REQUIRE_ADMIN_2FA=true: a password-only admin gets 403 twoFactorSetupRequired on GET /api/users, yet sets two-factor up and enables it',
      async () => {
        const held = await site.call('GET', '/api/users', { token });
        enrolled = await enrol(site, token, secrets);
        const ok =
          held.status === 403 &&
          held.body.twoFactorSetupRequired === true &&
          enrolled.setup.status === 200 &&
          enrolled.enable.status === 200 &&
          enrolled.backupCodes.length === 10;
        return {
          ok,
          detail: `GET /api/users ${short(held)}; setup ${enrolled.setup.status}; enable ${enrolled.enable.status}`,
        };
      },
    ),
  );
  results.push(
    await check(
      'REQUIRE_ADMIN_2FA=true: signed in again with a code, GET /api/users answers 200; the password-only session stays held',
      async () => {
        if (!enrolled?.secret) return { ok: false, detail: 'no secret from the setup' };
        const next = await site.codeAfter(enrolled.secret, enrolled.step);
        const answer = await site.login(admin, next.code);
        const users = await site.call('GET', '/api/users', { token: answer.body.token });
        const old = await site.call('GET', '/api/users', { token });
        const ok =
          answer.status === 200 &&
          users.status === 200 &&
          Array.isArray(users.body.data) &&
          old.status === 403 &&
          old.body.twoFactorSetupRequired === true;
        return {
          ok,
          detail: `sign-in with a code ${answer.status}; GET /api/users ${users.status}; with the old session ${old.status}`,
        };
      },
    ),
  );
  return results;
}
