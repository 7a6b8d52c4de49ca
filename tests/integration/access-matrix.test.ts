import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX } from '../../src/server/plugins/openapi.js';
import {
  agentFields,
  assignGhadis,
  call,
  contentBlockFields,
  createAgent,
  createAgentWithToken,
  createContentBlock,
  createGhadi,
  expectStatus,
  type Failure,
  ghadiFields,
  loginAdmin,
  loginAs,
  submitResult,
  today,
} from '../support/factories.js';
import { multipartBody, solidImage, uploadImage } from '../support/media-uploads.js';
import { servedRoutes } from '../support/routes.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, DIALECTS, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { enableTwoFactor } from '../support/totp-codes.js';
import { createMarket } from '../support/weekly-markets.js';

type Caller = 'none' | 'invalid' | 'agent' | 'admin';
const CALLERS: Caller[] = ['none', 'invalid', 'agent', 'admin'];

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  route: string;
  /** Builds the request once per row; every caller sends the same one, in the order of CALLERS. */
  request: () => Promise<Request>;
  expected: Record<Caller, number>;
  /** Tokens of the row's own, for a route that ends the session it is called with. */
  ownTokens?: () => Promise<Partial<Record<Caller, string>>>;
  /** Run after the row's calls: a route that ended the suite's own sessions signs them in again. */
  after?: () => Promise<void>;
  /** A success's content type when it is not JSON (failures always are). */
  successType?: RegExp;
}

let holidays = 0;
/** A date no holiday of the suite has yet (holidays are unique by date and ghadi). */
function uniqueHolidayDate(): string {
  holidays += 1;
  return `2030-01-${String(holidays).padStart(2, '0')}`;
}

/** Who may call: the four callers' expected statuses. */
const PUBLIC = { none: 200, invalid: 200, agent: 200, admin: 200 };
const OPTIONAL = { none: 200, invalid: 401, agent: 200, admin: 200 };
const ADMIN = { none: 401, invalid: 401, agent: 403, admin: 200 };
const ADMIN_CREATE = { ...ADMIN, admin: 201 };
const AGENT = { none: 401, invalid: 401, agent: 200, admin: 403 };
const STAFF = { none: 401, invalid: 401, agent: 200, admin: 200 };
/**
 * Public routes of a feature this app has off (push without PUBLIC_URL): the same 404 whatever the
 * token (push-subscriptions.test.ts calls them with push on, with and without tokens).
 */
const PUBLIC_BUT_OFF = { none: 404, invalid: 404, agent: 404, admin: 404 };

/** Every route of the API (checked against the app's own route table below). */
const ROUTES = [
  'POST /api/users/login',
  'POST /api/users/logout',
  'GET /api/users/count',
  'GET /api/users',
  'POST /api/users',
  'PUT /api/users/:id',
  'DELETE /api/users/:id',
  'GET /api/users/me',
  'GET /api/users/me/sessions',
  'DELETE /api/users/me/sessions/:id',
  'POST /api/users/me/sessions/end-others',
  'PUT /api/users/me/password',
  'DELETE /api/users/:id/sessions',
  'POST /api/users/me/2fa/setup',
  'POST /api/users/me/2fa/enable',
  'POST /api/users/me/2fa/disable',
  'DELETE /api/users/:id/2fa',
  'POST /api/users/me/passkeys/options',
  'POST /api/users/me/passkeys',
  'GET /api/users/me/passkeys',
  'DELETE /api/users/me/passkeys/:id',
  'POST /api/users/login/passkey/options',
  'POST /api/users/login/passkey',
  'GET /api/ghadis/count',
  'GET /api/ghadis',
  'POST /api/ghadis',
  'PUT /api/ghadis/:id',
  'DELETE /api/ghadis/:id',
  'GET /api/holidays',
  'POST /api/holidays',
  'DELETE /api/holidays/:id',
  'GET /api/results/count',
  'GET /api/results',
  'GET /api/results/:name',
  'GET /api/results/export.csv',
  'POST /api/results/import',
  'GET /api/agent/my-ghadi',
  'GET /api/agent/my-ghadi/results',
  'POST /api/agent/my-ghadi/update-result',
  'GET /api/pending',
  'DELETE /api/pending/:gid/:date',
  'GET /api/usermaps',
  'POST /api/usermaps',
  'DELETE /api/usermaps/:id',
  'GET /api/contentblocks',
  'POST /api/contentblocks',
  'POST /api/contentblocks/preview',
  'PUT /api/contentblocks/:id',
  'DELETE /api/contentblocks/:id',
  'GET /api/contentblocks/slug/:slug',
  'GET /api/media',
  'POST /api/media',
  'DELETE /api/media/:id',
  'POST /api/visitor/track',
  'GET /api/visitor/stats',
  'GET /api/push/key',
  'POST /api/push/subscriptions',
  'DELETE /api/push/subscriptions',
  'GET /api/site',
  'GET /api/home',
  'GET /api/openapi.json',
  'GET /api/declarations',
  'GET /api/declarations/head',
  'GET /api/declarations/receipt/:receipt',
  'GET /api/log/checkpoint',
  'GET /api/log/key',
  'GET /api/log/proof/inclusion',
  'GET /api/log/proof/consistency',
  'GET /api/log/tile/*',
  'GET /api/charts/:name/:year',
  'GET /api/charts/month/:month',
  'GET /api/charts/:name/:year/weeks',
  'GET /api/punctuality/:name',
  'GET /api/result-history',
  'GET /api/today',
  'GET /api/stats/daily',
  'GET /api/stats/ghadis',
  'GET /api/activity',
];

/**
 * Public routes whose answer is a never-ending stream, which app.inject cannot drive; their access
 * is checked over a real socket in public-site.test.ts.
 */
const STREAMED_ROUTES = ['GET /api/events'];

/** The API routes an app serves (the reference UI's own files apart: DOCS_ROUTES). */
function servedApiRoutes(app: FastifyInstance): string[] {
  return servedRoutes(app)
    .filter(({ path }) => path.startsWith('/api/') && !path.startsWith(DOCS_PREFIX))
    .map(({ method, path }) => `${method} ${path}`)
    .sort();
}

/** The reference UI's page and files (routes of @fastify/swagger-ui): public, whatever token is sent. */
const DOCS_ADDRESSES = [
  '/api/docs',
  '/api/docs/',
  '/api/docs/static/swagger-initializer.js',
  '/api/docs/static/swagger-ui.css',
  '/api/docs/json',
];

describe.each(DIALECTS)('access matrix [%s]', (dialect) => {
  // The app's clock, which two-factor codes are reckoned by: a fixed one, so no code depends on the hour.
  const clock = new TestClock(Date.UTC(2026, 0, 1, 12));
  const t = useTestApp(dialect, { now: clock.now });
  const tokens = {} as Record<Caller, string | undefined>;
  let agentGhadi: number;
  let ghadiName: string;
  let blockSlug: string;

  beforeAll(async () => {
    const adminToken = await loginAdmin(t.app);
    const agent = await createAgentWithToken(t.app, adminToken);
    tokens.none = undefined;
    tokens.invalid = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.invalid-signature';
    tokens.agent = agent.token;
    tokens.admin = adminToken;
    const ghadi = await createGhadi(t.app, adminToken);
    await assignGhadis(t.app, adminToken, agent.user.User_Id, ghadi.GID);
    await submitResult(t.app, adminToken, { ghadiId: ghadi.GID, result: '12', dateTime: today() });
    agentGhadi = ghadi.GID;
    ghadiName = ghadi.NameEn.toLowerCase();
    blockSlug = (await createContentBlock(t.app, adminToken)).Slug;
  });

  const admin = () => tokens.admin ?? '';

  const rows: Row[] = [
    {
      route: 'POST /api/users/login',
      request: async () => ({
        method: 'POST',
        url: '/api/users/login',
        body: { UserName: ADMIN_USERNAME, Password: ADMIN_PASSWORD },
      }),
      expected: PUBLIC,
    },
    {
      route: 'POST /api/users/logout',
      request: async () => ({ method: 'POST', url: '/api/users/logout' }),
      expected: STAFF,
      ownTokens: async () => {
        const agent = await createAgentWithToken(t.app, admin());
        return { agent: agent.token, admin: await loginAdmin(t.app) };
      },
    },
    {
      route: 'GET /api/users/count',
      request: async () => ({ method: 'GET', url: '/api/users/count' }),
      expected: ADMIN,
    },
    { route: 'GET /api/users', request: async () => ({ method: 'GET', url: '/api/users' }), expected: ADMIN },
    {
      // The same new username for every caller: had a refused call created it, the admin's would get 409.
      route: 'POST /api/users',
      request: async () => ({ method: 'POST', url: '/api/users', body: agentFields() }),
      expected: ADMIN_CREATE,
    },
    {
      route: 'PUT /api/users/:id',
      request: async () => {
        const agent = await createAgent(t.app, admin());
        return {
          method: 'PUT',
          url: `/api/users/${agent.user._id}`,
          body: { UserName: agent.user.UserName, DisplayName: 'Changed', Email: agent.user.Email },
        };
      },
      expected: ADMIN,
    },
    {
      // Had a refused call deleted it, the admin's would get 404.
      route: 'DELETE /api/users/:id',
      request: async () => ({
        method: 'DELETE',
        url: `/api/users/${(await createAgent(t.app, admin())).user._id}`,
      }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/users/me',
      request: async () => ({ method: 'GET', url: '/api/users/me' }),
      expected: STAFF,
    },
    {
      route: 'GET /api/users/me/sessions',
      request: async () => ({ method: 'GET', url: '/api/users/me/sessions' }),
      expected: STAFF,
    },
    (() => {
      // The agent's other session: theirs to end; no session of the admin's, so a 404 for the admin.
      let agentToken = '';
      return {
        route: 'DELETE /api/users/me/sessions/:id',
        request: async () => {
          const agent = await createAgentWithToken(t.app, admin());
          agentToken = agent.token;
          const other = await loginAs(t.app, agent.user.UserName, agent.password);
          return { method: 'DELETE', url: `/api/users/me/sessions/${String(decodeJwt(other).jti)}` };
        },
        ownTokens: async () => ({ agent: agentToken }),
        expected: { ...STAFF, admin: 404 },
      } satisfies Row;
    })(),
    {
      route: 'POST /api/users/me/sessions/end-others',
      request: async () => ({ method: 'POST', url: '/api/users/me/sessions/end-others' }),
      expected: STAFF,
      ownTokens: async () => {
        const agent = await createAgentWithToken(t.app, admin());
        return { agent: agent.token, admin: await loginAdmin(t.app) };
      },
      // The admin's call ended the suite's admin session too.
      after: async () => {
        tokens.admin = await loginAdmin(t.app);
      },
    },
    (() => {
      // The agent's own current password: right for the agent, wrong for the admin (400).
      let agentToken = '';
      return {
        route: 'PUT /api/users/me/password',
        request: async () => {
          const agent = await createAgentWithToken(t.app, admin());
          agentToken = agent.token;
          return {
            method: 'PUT',
            url: '/api/users/me/password',
            body: { CurrentPassword: agent.password, NewPassword: 'a-new-password-1' },
          };
        },
        ownTokens: async () => ({ agent: agentToken }),
        expected: { ...STAFF, admin: 400 },
      } satisfies Row;
    })(),
    {
      route: 'DELETE /api/users/:id/sessions',
      request: async () => ({
        method: 'DELETE',
        url: `/api/users/${(await createAgentWithToken(t.app, admin())).user._id}/sessions`,
      }),
      expected: ADMIN,
    },
    (() => {
      // Before any setup (the next row's): enable has no pending secret to check a code against, for
      // the agent (a fresh one) and the admin alike. Nobody here turns two-factor on for the admin.
      let agentToken = '';
      return {
        route: 'POST /api/users/me/2fa/enable',
        request: async () => {
          agentToken = (await createAgentWithToken(t.app, admin())).token;
          return { method: 'POST', url: '/api/users/me/2fa/enable', body: { Code: '123456' } };
        },
        ownTokens: async () => ({ agent: agentToken }),
        expected: { ...STAFF, agent: 400, admin: 400 },
      } satisfies Row;
    })(),
    {
      route: 'POST /api/users/me/2fa/setup',
      request: async () => ({ method: 'POST', url: '/api/users/me/2fa/setup' }),
      expected: STAFF,
    },
    {
      // Two-factor is off for both: 400, and nothing counted or changed.
      route: 'POST /api/users/me/2fa/disable',
      request: async () => ({
        method: 'POST',
        url: '/api/users/me/2fa/disable',
        body: { Password: 'not-checked-1', Code: '123456' },
      }),
      expected: { ...STAFF, agent: 400, admin: 400 },
    },
    {
      // An agent with two-factor on: the admin turns it off.
      route: 'DELETE /api/users/:id/2fa',
      request: async () => {
        const agent = await createAgentWithToken(t.app, admin());
        await enableTwoFactor(t.app, agent.token, clock.now());
        return { method: 'DELETE', url: `/api/users/${agent.user._id}/2fa` };
      },
      expected: ADMIN,
    },
    {
      // Reached as localhost (app.inject's Host), which serves as the relying party without PUBLIC_URL.
      route: 'POST /api/users/me/passkeys/options',
      request: async () => ({ method: 'POST', url: '/api/users/me/passkeys/options' }),
      expected: STAFF,
    },
    {
      // A response to no challenge of the caller's registers nothing.
      route: 'POST /api/users/me/passkeys',
      request: async () => ({
        method: 'POST',
        url: '/api/users/me/passkeys',
        body: {
          Name: 'Nothing',
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            response: { clientDataJSON: 'e30', attestationObject: 'oA' },
          },
        },
      }),
      expected: { ...STAFF, agent: 400, admin: 400 },
    },
    {
      route: 'GET /api/users/me/passkeys',
      request: async () => ({ method: 'GET', url: '/api/users/me/passkeys' }),
      expected: STAFF,
    },
    {
      // No such passkey of the caller's: 404, and no password checked.
      route: 'DELETE /api/users/me/passkeys/:id',
      request: async () => ({
        method: 'DELETE',
        url: '/api/users/me/passkeys/999999',
        body: { Password: 'not-checked-1' },
      }),
      expected: { ...STAFF, agent: 404, admin: 404 },
    },
    {
      route: 'POST /api/users/login/passkey/options',
      request: async () => ({ method: 'POST', url: '/api/users/login/passkey/options' }),
      expected: PUBLIC,
    },
    {
      // Public, but an assertion of no stored passkey signs no one in, whatever token comes with it.
      route: 'POST /api/users/login/passkey',
      request: async () => ({
        method: 'POST',
        url: '/api/users/login/passkey',
        body: {
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
          },
        },
      }),
      expected: { none: 401, invalid: 401, agent: 401, admin: 401 },
    },
    {
      route: 'GET /api/ghadis/count',
      request: async () => ({ method: 'GET', url: '/api/ghadis/count' }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/ghadis',
      request: async () => ({ method: 'GET', url: '/api/ghadis' }),
      expected: PUBLIC,
    },
    {
      route: 'POST /api/ghadis',
      request: async () => ({ method: 'POST', url: '/api/ghadis', body: ghadiFields() }),
      expected: ADMIN_CREATE,
    },
    {
      route: 'PUT /api/ghadis/:id',
      request: async () => ({
        method: 'PUT',
        url: `/api/ghadis/${(await createGhadi(t.app, admin())).GID}`,
        body: ghadiFields(),
      }),
      expected: ADMIN,
    },
    {
      route: 'DELETE /api/ghadis/:id',
      request: async () => ({
        method: 'DELETE',
        url: `/api/ghadis/${(await createGhadi(t.app, admin())).GID}`,
      }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/holidays',
      request: async () => ({ method: 'GET', url: '/api/holidays' }),
      expected: PUBLIC,
    },
    {
      route: 'POST /api/holidays',
      request: async () => ({ method: 'POST', url: '/api/holidays', body: { Date: uniqueHolidayDate() } }),
      expected: ADMIN_CREATE,
    },
    {
      route: 'DELETE /api/holidays/:id',
      request: async () => {
        const created = await call(t.app, {
          method: 'POST',
          url: '/api/holidays',
          token: admin(),
          body: { Date: uniqueHolidayDate() },
        });
        return {
          method: 'DELETE',
          url: `/api/holidays/${expectStatus<{ data: { _id: string } }>(created, 201).data._id}`,
        };
      },
      expected: ADMIN,
    },
    {
      route: 'GET /api/results/count',
      request: async () => ({ method: 'GET', url: '/api/results/count' }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/results',
      request: async () => ({ method: 'GET', url: '/api/results' }),
      expected: OPTIONAL,
    },
    {
      route: 'GET /api/results/:name',
      request: async () => ({ method: 'GET', url: `/api/results/${encodeURIComponent(ghadiName)}` }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/results/export.csv',
      request: async () => ({ method: 'GET', url: `/api/results/export.csv?from=${today()}&to=${today()}` }),
      expected: ADMIN,
      successType: /^text\/csv/,
    },
    {
      route: 'POST /api/results/import',
      request: async () => ({
        method: 'POST',
        url: '/api/results/import?dryRun=true',
        body: `Date,GID,Result\n${today()},${agentGhadi},12\n`,
        headers: { 'content-type': 'text/csv' },
      }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/agent/my-ghadi',
      request: async () => ({ method: 'GET', url: '/api/agent/my-ghadi' }),
      expected: AGENT,
    },
    {
      route: 'GET /api/agent/my-ghadi/results',
      request: async () => ({ method: 'GET', url: `/api/agent/my-ghadi/results?ghadiId=${agentGhadi}` }),
      expected: AGENT,
    },
    {
      route: 'POST /api/agent/my-ghadi/update-result',
      request: async () => ({
        method: 'POST',
        url: '/api/agent/my-ghadi/update-result',
        body: { ghadiId: agentGhadi, result: '34', dateTime: today() },
      }),
      expected: STAFF,
    },
    {
      route: 'GET /api/pending',
      request: async () => ({ method: 'GET', url: '/api/pending' }),
      expected: STAFF,
    },
    {
      route: 'DELETE /api/pending/:gid/:date',
      request: async () => {
        // An entry held for a second person: the admin's own.
        const ghadi = await createGhadi(t.app, admin(), { Confirmations: 2 });
        expectStatus(
          await call(t.app, {
            method: 'POST',
            url: '/api/agent/my-ghadi/update-result',
            token: admin(),
            body: { ghadiId: ghadi.GID, result: '12', dateTime: today() },
          }),
          202,
        );
        return { method: 'DELETE', url: `/api/pending/${ghadi.GID}/${today()}` };
      },
      expected: ADMIN,
    },
    {
      route: 'GET /api/usermaps',
      request: async () => ({ method: 'GET', url: '/api/usermaps' }),
      expected: ADMIN,
    },
    {
      // Had a refused call assigned it, the admin's would get 409.
      route: 'POST /api/usermaps',
      request: async () => {
        const agent = await createAgent(t.app, admin());
        const ghadi = await createGhadi(t.app, admin());
        return {
          method: 'POST',
          url: '/api/usermaps',
          body: { User_Id: agent.user.User_Id, GID: ghadi.GID },
        };
      },
      expected: ADMIN_CREATE,
    },
    {
      route: 'DELETE /api/usermaps/:id',
      request: async () => {
        const agent = await createAgent(t.app, admin());
        const ghadi = await createGhadi(t.app, admin());
        const [assignment] = await assignGhadis(t.app, admin(), agent.user.User_Id, ghadi.GID);
        return { method: 'DELETE', url: `/api/usermaps/${assignment?._id}` };
      },
      expected: ADMIN,
    },
    {
      route: 'GET /api/contentblocks',
      request: async () => ({ method: 'GET', url: '/api/contentblocks' }),
      expected: ADMIN,
    },
    {
      route: 'POST /api/contentblocks',
      request: async () => ({ method: 'POST', url: '/api/contentblocks', body: contentBlockFields() }),
      expected: ADMIN_CREATE,
    },
    {
      route: 'POST /api/contentblocks/preview',
      request: async () => ({
        method: 'POST',
        url: '/api/contentblocks/preview',
        body: { Content: '<p onclick="x()">Preview</p>' },
      }),
      expected: ADMIN,
    },
    {
      route: 'PUT /api/contentblocks/:id',
      request: async () => {
        const block = await createContentBlock(t.app, admin());
        return {
          method: 'PUT',
          url: `/api/contentblocks/${block._id}`,
          body: contentBlockFields({ Slug: block.Slug }),
        };
      },
      expected: ADMIN,
    },
    {
      route: 'DELETE /api/contentblocks/:id',
      request: async () => ({
        method: 'DELETE',
        url: `/api/contentblocks/${(await createContentBlock(t.app, admin()))._id}`,
      }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/media',
      request: async () => ({ method: 'GET', url: '/api/media' }),
      expected: ADMIN,
    },
    {
      route: 'POST /api/media',
      request: async () => {
        const { payload, contentType } = multipartBody(await solidImage(40, 30, 'png'), 'a.png', 'image/png');
        return { method: 'POST', url: '/api/media', body: payload, headers: { 'content-type': contentType } };
      },
      expected: ADMIN_CREATE,
    },
    {
      route: 'DELETE /api/media/:id',
      request: async () => ({
        method: 'DELETE',
        url: `/api/media/${(await uploadImage(t.app, admin(), await solidImage(40, 30, 'png')))._id}`,
      }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/contentblocks/slug/:slug',
      request: async () => ({ method: 'GET', url: `/api/contentblocks/slug/${blockSlug}` }),
      expected: PUBLIC,
    },
    {
      route: 'POST /api/visitor/track',
      request: async () => ({
        method: 'POST',
        url: '/api/visitor/track',
        headers: { 'x-session-id': 'matrix-1' },
      }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/visitor/stats',
      request: async () => ({ method: 'GET', url: '/api/visitor/stats' }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/push/key',
      request: async () => ({ method: 'GET', url: '/api/push/key' }),
      expected: PUBLIC_BUT_OFF,
    },
    {
      route: 'POST /api/push/subscriptions',
      request: async () => ({
        method: 'POST',
        url: '/api/push/subscriptions',
        body: { subscription: { endpoint: 'https://push.example.net/x', keys: {} }, ghadis: [1], lang: 'en' },
      }),
      expected: PUBLIC_BUT_OFF,
    },
    {
      route: 'DELETE /api/push/subscriptions',
      request: async () => ({
        method: 'DELETE',
        url: '/api/push/subscriptions',
        body: { endpoint: 'https://push.example.net/x' },
      }),
      expected: PUBLIC_BUT_OFF,
    },
    { route: 'GET /api/site', request: async () => ({ method: 'GET', url: '/api/site' }), expected: PUBLIC },
    { route: 'GET /api/home', request: async () => ({ method: 'GET', url: '/api/home' }), expected: PUBLIC },
    {
      route: 'GET /api/openapi.json',
      request: async () => ({ method: 'GET', url: '/api/openapi.json' }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/declarations',
      request: async () => ({ method: 'GET', url: `/api/declarations?gid=${agentGhadi}` }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/declarations/head',
      request: async () => ({ method: 'GET', url: '/api/declarations/head' }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/declarations/receipt/:receipt',
      request: async () => {
        const head = (await call(t.app, { url: '/api/declarations/head' })).json<{ hash: string }>();
        return { method: 'GET', url: `/api/declarations/receipt/${head.hash.slice(0, 10)}` };
      },
      expected: PUBLIC,
    },
    {
      route: 'GET /api/log/checkpoint',
      request: async () => ({ method: 'GET', url: '/api/log/checkpoint' }),
      expected: PUBLIC,
      successType: /^text\/plain/,
    },
    {
      route: 'GET /api/log/key',
      request: async () => ({ method: 'GET', url: '/api/log/key' }),
      expected: PUBLIC,
      successType: /^text\/plain/,
    },
    {
      route: 'GET /api/log/proof/inclusion',
      request: async () => ({ method: 'GET', url: '/api/log/proof/inclusion?seq=1&size=1' }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/log/proof/consistency',
      request: async () => ({ method: 'GET', url: '/api/log/proof/consistency?from=1&to=1' }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/log/tile/*',
      request: async () => ({ method: 'GET', url: '/api/log/tile/entries/000.p/1' }),
      expected: PUBLIC,
      successType: /^application\/octet-stream/,
    },
    {
      route: 'GET /api/charts/:name/:year',
      request: async () => ({
        method: 'GET',
        url: `/api/charts/${encodeURIComponent(ghadiName)}/${today().slice(0, 4)}`,
      }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/charts/month/:month',
      request: async () => ({ method: 'GET', url: `/api/charts/month/${today().slice(0, 7)}` }),
      expected: PUBLIC,
    },
    {
      // A starline ghadi's: a jodi ghadi has no weekly charts.
      route: 'GET /api/charts/:name/:year/weeks',
      request: async () => {
        const starline = await createMarket(t.app, admin(), { Kind: 'panna' });
        await submitResult(t.app, admin(), { ghadiId: starline.GID, result: '128', dateTime: today() });
        return {
          method: 'GET',
          url: `/api/charts/${encodeURIComponent(starline.NameEn.toLowerCase())}/${today().slice(0, 4)}/weeks`,
        };
      },
      expected: PUBLIC,
    },
    {
      route: 'GET /api/punctuality/:name',
      request: async () => ({ method: 'GET', url: `/api/punctuality/${encodeURIComponent(ghadiName)}` }),
      expected: PUBLIC,
    },
    {
      route: 'GET /api/result-history',
      request: async () => ({ method: 'GET', url: `/api/result-history?gid=${agentGhadi}&date=${today()}` }),
      expected: ADMIN,
    },
    { route: 'GET /api/today', request: async () => ({ method: 'GET', url: '/api/today' }), expected: ADMIN },
    {
      route: 'GET /api/stats/daily',
      request: async () => ({ method: 'GET', url: `/api/stats/daily?from=${today()}&to=${today()}` }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/stats/ghadis',
      request: async () => ({ method: 'GET', url: `/api/stats/ghadis?from=${today()}&to=${today()}` }),
      expected: ADMIN,
    },
    {
      route: 'GET /api/activity',
      request: async () => ({ method: 'GET', url: '/api/activity?action=login&limit=5' }),
      expected: ADMIN,
    },
  ];

  it('the matrix covers every API route the app serves', async () => {
    await t.app.ready();
    expect(servedApiRoutes(t.app)).toEqual([...ROUTES, ...STREAMED_ROUTES].sort());
    expect(rows.map((row) => row.route).sort()).toEqual([...ROUTES].sort());
  });

  it("the API reference's page and files answer anyone, token or not", async () => {
    for (const url of DOCS_ADDRESSES) {
      for (const caller of CALLERS) {
        const token = tokens[caller];
        const response = await call(t.app, { url, ...(token === undefined ? {} : { token }) });
        expect([url, caller, response.statusCode]).toEqual([url, caller, 200]);
      }
    }
  });

  it.each(rows.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    const request = await row.request();
    const callerTokens = { ...tokens, ...(await row.ownTokens?.()) };
    const seen: Record<string, number> = {};
    for (const caller of CALLERS) {
      const token = callerTokens[caller];
      const response = await call(t.app, {
        method: request.method,
        url: request.url,
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.headers ? { headers: request.headers } : {}),
        ...(token === undefined ? {} : { token }),
      });
      seen[caller] = response.statusCode;
      const type = response.statusCode < 400 && row.successType ? row.successType : /^application\/json/;
      expect(response.headers['content-type']).toMatch(type);
      if (response.statusCode >= 400) {
        const failure = response.json<Failure>();
        expect(failure.success).toBe(false);
        expect(failure.message).toBeTruthy();
      }
    }
    await row.after?.();
    expect(seen).toEqual(row.expected);
  });

  it('percent-encoded paths reach the same access checks', async () => {
    for (const url of ['/%61pi/users', '/ap%69/users/count', '/api/%75sers', '/api/contentbl%6Fcks']) {
      expect({ url, status: (await call(t.app, { url })).statusCode }).toEqual({ url, status: 401 });
      expect({ url, status: (await call(t.app, { url, token: tokens.agent })).statusCode }).toEqual({
        url,
        status: 403,
      });
      expect({ url, status: (await call(t.app, { url, token: admin() })).statusCode }).toEqual({
        url,
        status: 200,
      });
    }
  });
});
