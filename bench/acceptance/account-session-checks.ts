/**
 * The account group's session checks (account-checks.ts): the session list, ending one and ending the
 * others, one's own password change ending the other sessions, and a password typed as a user name
 * kept out of the activity trail (only its mask `XY… (N)`).
 */
import type { AccountSite, Answer, Credentials } from './account-site.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

interface SessionRow {
  _id: string;
  CreatedAt: string;
  LastSeenAt: string;
  Ip: string;
  UserAgent: string;
  Current: boolean;
}

const meStatus = async (site: AccountSite, token: string) =>
  (await site.call('GET', '/api/users/me', { token })).status;

const rows = (answer: Answer): SessionRow[] => (Array.isArray(answer.body.data) ? answer.body.data : []);

export async function sessionChecks(site: AccountSite, credentials: Credentials): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const first = await site.token(credentials);
  const second = await site.token(credentials);
  let listed: SessionRow[] = [];
  results.push(
    await check(
      'two sign-ins are two sessions in GET /api/users/me/sessions, the current one marked, no token shown',
      async () => {
        const answer = await site.call('GET', '/api/users/me/sessions', { token: first });
        listed = rows(answer);
        const text = JSON.stringify(answer.body);
        const ok =
          answer.status === 200 &&
          listed.length === 2 &&
          listed.filter((row) => row.Current).length === 1 &&
          listed.every((row) => row._id && row.CreatedAt && row.LastSeenAt && typeof row.Ip === 'string') &&
          !text.includes(first) &&
          !text.includes(second);
        return {
          ok,
          detail: `${answer.status}: ${listed.length} sessions, ${listed.filter((row) => row.Current).length} current; ${text.slice(0, 240)}`,
        };
      },
    ),
  );
  results.push(
    await check(
      'ending the other session by its id: its token answers 401 at once, the current one still works',
      async () => {
        const other = listed.find((row) => !row.Current);
        if (!other) return { ok: false, detail: 'no other session listed' };
        const ended = await site.call('DELETE', `/api/users/me/sessions/${other._id}`, { token: first });
        const [gone, kept] = [await meStatus(site, second), await meStatus(site, first)];
        const after = rows(await site.call('GET', '/api/users/me/sessions', { token: first }));
        const ok = ended.status === 200 && gone === 401 && kept === 200 && after.length === 1;
        return {
          ok,
          detail: `DELETE ${ended.status}; ended token ${gone}; current token ${kept}; ${after.length} left`,
        };
      },
    ),
  );
  results.push(
    await check('end-others leaves only the current session: the others answer 401', async () => {
      const others = [await site.token(credentials), await site.token(credentials)];
      const before = rows(await site.call('GET', '/api/users/me/sessions', { token: first })).length;
      const ended = await site.call('POST', '/api/users/me/sessions/end-others', { token: first });
      const statuses = await Promise.all(others.map((token) => meStatus(site, token)));
      const after = rows(await site.call('GET', '/api/users/me/sessions', { token: first }));
      const ok =
        before === 3 &&
        ended.status === 200 &&
        ended.body.ended === 2 &&
        statuses.every((status) => status === 401) &&
        after.length === 1 &&
        after[0]?.Current === true &&
        (await meStatus(site, first)) === 200;
      return {
        ok,
        detail: `${before} before; end-others ${ended.status} ended ${ended.body.ended}; the others ${statuses.join(',')}; ${after.length} left (current ${after[0]?.Current})`,
      };
    }),
  );
  return results;
}

export async function ownPasswordCheck(site: AccountSite, credentials: Credentials): Promise<CheckResult> {
  return check(
    'changing one’s own password ends the other sessions (401) and the old password no longer signs in',
    async () => {
      const changer = await site.token(credentials);
      const others = [await site.token(credentials), await site.token(credentials)];
      const wrong = await site.call('PUT', '/api/users/me/password', {
        token: changer,
        json: { CurrentPassword: `${credentials.password}-not`, NewPassword: `${credentials.password}-new` },
      });
      const wrongKept = await Promise.all(others.map((token) => meStatus(site, token)));
      const changed = await site.call('PUT', '/api/users/me/password', {
        token: changer,
        json: { CurrentPassword: credentials.password, NewPassword: `${credentials.password}-new` },
      });
      const statuses = await Promise.all(others.map((token) => meStatus(site, token)));
      const kept = await meStatus(site, changer);
      const old = await site.login(credentials);
      const fresh = await site.login({ ...credentials, password: `${credentials.password}-new` });
      const ok =
        wrong.status === 400 &&
        wrongKept.every((status) => status === 200) &&
        changed.status === 200 &&
        statuses.every((status) => status === 401) &&
        kept === 200 &&
        old.status === 401 &&
        old.body.token === undefined &&
        fresh.status === 200;
      return {
        ok,
        detail: `a wrong current password ${wrong.status} (others still ${wrongKept.join(',')}); change ${changed.status}; the other sessions ${statuses.join(',')}; the changing one ${kept}; old password ${old.status}; new password ${fresh.status}`,
      };
    },
  );
}

interface ActivityEntry {
  Action: string;
  UserName: string | null;
  Target: { Id: string | null; Name: string };
  Summary: string;
}

export async function typedPasswordCheck(site: AccountSite, admin: Credentials): Promise<CheckResult> {
  return check(
    'a failed sign-in with the admin’s password typed as the user name: /api/activity keeps only its mask',
    async () => {
      const typed = admin.password;
      const failed = await site.login({ username: typed, password: 'whatever-was-typed' });
      const token = await site.token(admin);
      const answer = await site.call('GET', '/api/activity?action=login_failed&limit=100', { token });
      const all = await site.call('GET', '/api/activity?limit=100', { token });
      const entries: ActivityEntry[] = Array.isArray(answer.body.data) ? answer.body.data : [];
      const mask = `${typed.slice(0, 2)}… (${typed.length})`;
      const masked = entries.filter((entry) => entry.Target?.Name === mask);
      const leaks = [answer, all].filter((a) => JSON.stringify(a.body).includes(typed)).length;
      const ok =
        failed.status === 401 &&
        answer.status === 200 &&
        all.status === 200 &&
        masked.length === 1 &&
        leaks === 0;
      return {
        ok,
        detail: `login ${failed.status}; ${entries.length} login_failed entries, ${masked.length} with the mask "${mask}" (${JSON.stringify(masked[0] ?? null)}); pages containing the typed text: ${leaks}`,
      };
    },
  );
}
