/**
 * The phone group's site (phone-checks.ts), made through the API as an admin would: values on the
 * starter ghadis yesterday and today (one corrected), an agent with two of them assigned, and an
 * agent with none.
 */
import { randomBytes } from 'node:crypto';
import { addressSource, send, signIn } from '../lib/client.js';
import { jsonOf, type TimedAnswer } from '../lib/timed-request.js';
import type { CheckSettings } from './types.js';

export interface PhoneGhadi {
  GID: number;
  NameEn: string;
}

export interface Account {
  username: string;
  password: string;
}

export interface PhoneSite {
  url: string;
  today: string;
  admin: Account;
  adminToken: string;
  /** An agent with two ghadis assigned, and one with none (the empty state). */
  agent: Account;
  lonely: Account;
  ghadis: PhoneGhadi[];
  /** GET or another method, from a new client address (X-Forwarded-For) each time. */
  call(path: string, options?: { method?: 'POST' | 'PUT' | 'DELETE'; json?: unknown }): Promise<TimedAnswer>;
}

function dayBefore(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day - 1)).toISOString().slice(0, 10);
}

export async function makePhoneSite(url: string, settings: CheckSettings): Promise<PhoneSite> {
  const nextAddress = addressSource();
  const adminToken = await signIn(url, settings.admin, nextAddress());
  const call: PhoneSite['call'] = (path, options = {}) =>
    send(url, path, { ...options, token: adminToken, address: nextAddress() });
  const expect = async (answer: Promise<TimedAnswer>, status: number, what: string) => {
    const done = await answer;
    if (done.status !== status)
      throw new Error(`${what}: ${done.status} ${done.body.toString().slice(0, 300)}`);
    return done;
  };
  const { today } = jsonOf<{ today: string }>(await expect(call('/api/site'), 200, '/api/site'), 'site');
  const ghadis = jsonOf<{ data: PhoneGhadi[] }>(
    await expect(call('/api/ghadis'), 200, 'ghadis'),
    'ghadis',
  ).data;
  const declare = (ghadi: PhoneGhadi, result: string, dateTime: string) =>
    expect(
      call('/api/agent/my-ghadi/update-result', {
        method: 'POST',
        json: { ghadiId: ghadi.GID, result, dateTime },
      }),
      200,
      `declare ${ghadi.NameEn}`,
    );
  for (const [index, ghadi] of ghadis.entries()) {
    await declare(ghadi, String(10 + index * 11), dayBefore(today));
    if (index < 3) await declare(ghadi, String(20 + index * 13), today);
  }
  const [first] = ghadis;
  if (first) await declare(first, '99', today);

  const suffix = randomBytes(3).toString('hex');
  const account = async (name: string): Promise<Account & { User_Id: number }> => {
    const username = `${name}.${suffix}`;
    const password = `${username}-password`;
    const user = jsonOf<{ data: { User_Id: number } }>(
      await expect(
        call('/api/users', {
          method: 'POST',
          json: {
            UserName: username,
            DisplayName: `Phone ${name}`,
            Email: `${username}@example.com`,
            Password: password,
          },
        }),
        201,
        'agent',
      ),
      'agent',
    ).data;
    return { username, password, User_Id: user.User_Id };
  };
  const agent = await account('agent');
  const lonely = await account('lonely');
  await expect(
    call('/api/usermaps', {
      method: 'POST',
      json: { User_Id: agent.User_Id, GID: ghadis.slice(0, 2).map((ghadi) => ghadi.GID) },
    }),
    201,
    'assign',
  );
  return { url, today, admin: settings.admin, adminToken, agent, lonely, ghadis, call };
}
