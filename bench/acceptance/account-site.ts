/**
 * The account group's sites (account-checks.ts): the built server on a fresh SQLite file, its whole
 * output kept, every answer body kept (for the secret-leak check), the clock read from the server's
 * Date header (TOTP codes are the server's clock's), agents made by the admin. Started without
 * PUBLIC_URL, so that passkeys work when the site is reached as localhost.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addressSource, send } from '../lib/client.js';
import { type LoggedServer, startLoggedServer } from '../lib/logged-server.js';
import { createTemporaryDatabase, type TemporaryDatabase } from '../lib/postgres.js';
import { totp, totpStep } from '../lib/rfc6238.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort } from '../lib/server-process.js';
import { jsonOf } from '../lib/timed-request.js';
import type { CheckSettings } from './types.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A JSON answer: its status and body (any fields the checks read). */
export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the checks read many answer shapes, each checked by value
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export interface Credentials {
  username: string;
  password: string;
}

export interface AccountSite {
  url: string;
  port: number;
  /** 'SQLite' or 'PostgreSQL', for the checks' names. */
  label: string;
  /** A SQLite file or a throw-away PostgreSQL database, for db:export. */
  databaseUrl: string;
  server: LoggedServer;
  /** Every answer body so far, as text, with what asked for it. */
  bodies: Array<{ what: string; text: string }>;
  /** A call from `address` (a new one when absent); `host` sends that Host header (e.g. localhost:PORT). */
  call(
    method: Method,
    pathname: string,
    options?: { token?: string; json?: unknown; address?: string; host?: string },
  ): Promise<Answer>;
  login(credentials: Credentials, code?: string, address?: string): Promise<Answer>;
  /** A token, or an error saying why not. */
  token(credentials: Credentials, code?: string): Promise<string>;
  /** Makes an agent account (by the admin) and answers its credentials. */
  agent(name: string): Promise<Credentials>;
  /** The server's time now, from its Date header (whole seconds), in ms. */
  serverNow(): Promise<number>;
  /** The code of `secret` at the server's current step, and that step. */
  code(secret: string): Promise<{ code: string; step: number }>;
  /** Waits until the server's clock is in a step after `step`; answers that step's code. */
  codeAfter(secret: string, step: number): Promise<{ code: string; step: number }>;
  stop(): Promise<void>;
}

export async function startAccountSite(
  kind: 'sqlite' | 'postgres',
  settings: CheckSettings,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<AccountSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-account-'));
  let database: TemporaryDatabase | undefined;
  if (kind === 'postgres') database = await createTemporaryDatabase('accept_account');
  const databaseUrl = database?.url ?? `sqlite:${path.join(dir, 'site.db')}`;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME: SEED_ADMIN.username,
    ADMIN_PASSWORD: SEED_ADMIN.password,
    SITE_TIMEZONE: settings.siteTimezone,
    LOGIN_MAX_FAILURES: String(settings.loginMaxFailures),
    TRUST_PROXY: 'loopback',
    // info: every request is logged, so a secret that reached a log line would be seen.
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  // The runner's own environment may name a PUBLIC_URL; this site has none (passkeys via localhost).
  let server: LoggedServer;
  try {
    server = await startLoggedServer({ port, env: { ...env, PUBLIC_URL: '' } });
  } catch (error) {
    await database?.drop();
    throw error;
  }
  const url = server.url;
  const nextAddress = addressSource();
  const bodies: AccountSite['bodies'] = [];

  const call: AccountSite['call'] = async (method, pathname, options = {}) => {
    const answer = await send(url, pathname, {
      method,
      address: options.address ?? nextAddress(),
      ...(options.token ? { token: options.token } : {}),
      ...(options.json === undefined ? {} : { json: options.json }),
      ...(options.host ? { headers: { host: options.host } } : {}),
    });
    const what = `${method} ${pathname}`;
    bodies.push({ what, text: answer.body.toString('utf8') });
    return { status: answer.status, body: jsonOf(answer, what), headers: answer.headers };
  };
  const login: AccountSite['login'] = (credentials, code, address) =>
    call('POST', '/api/users/login', {
      json: {
        UserName: credentials.username,
        Password: credentials.password,
        ...(code === undefined ? {} : { Code: code }),
      },
      ...(address ? { address } : {}),
    });
  const token: AccountSite['token'] = async (credentials, code) => {
    const answer = await login(credentials, code);
    if (answer.status !== 200 || typeof answer.body.token !== 'string')
      throw new Error(`${credentials.username} could not sign in: ${answer.status} ${answer.body.message}`);
    return answer.body.token;
  };
  const admin = await token(SEED_ADMIN);
  const serverNow = async () => {
    const answer = await send(url, '/api/site', { address: nextAddress() });
    const date = Date.parse(String(answer.headers.date));
    if (Number.isNaN(date)) throw new Error(`GET /api/site has no Date header: ${answer.headers.date}`);
    return date;
  };
  const code: AccountSite['code'] = async (secret) => {
    const step = totpStep(await serverNow());
    return { code: totp(secret, step), step };
  };

  return {
    label: kind === 'sqlite' ? 'SQLite' : 'PostgreSQL',
    url,
    port,
    databaseUrl,
    server,
    bodies,
    call,
    login,
    token,
    agent: async (agentName) => {
      const credentials = { username: agentName, password: `${agentName}-Pa55word-${port}` };
      const created = await call('POST', '/api/users', {
        token: admin,
        json: {
          UserName: credentials.username,
          DisplayName: `Account ${agentName}`,
          Email: `${agentName}@example.com`,
          Password: credentials.password,
        },
      });
      if (created.status !== 201)
        throw new Error(`agent ${agentName}: ${created.status} ${created.body.message}`);
      return credentials;
    },
    serverNow,
    code,
    codeAfter: async (secret, step) => {
      const deadline = Date.now() + 45_000;
      for (;;) {
        const now = await code(secret);
        if (now.step > step) return now;
        if (Date.now() > deadline) throw new Error(`the server's clock did not pass step ${step} in 45 s`);
        await sleep(250);
      }
    },
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
