import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import {
  agentFields,
  assignGhadis,
  type CallOptions,
  call,
  contentBlockFields,
  createAgentWithToken,
  createGhadi,
  type Failure,
  ghadiFields,
  loginAdmin,
  type Response,
  today,
} from '../support/factories.js';
import { DIALECTS, tempDir, useTestApp } from '../support/test-app.js';

/** What a failure may never show: stack frames, source paths, SQL or driver wording. */
const LEAKS = [
  /\n\s+at\s/,
  /node_modules|\.ts:\d+|\.js:\d+/,
  /\b(select\s.+\sfrom|insert into|update\s+\w+\s+set|delete from)\b/i,
  /sqlite|postgres|SQLSTATE|relation "|violates|constraint|kysely/i,
];

/** A deliberate failure: the status, a JSON { success: false, message } body, no leaks. */
function expectFailure(response: Response, status: number, fieldOrText?: string): string {
  const where = `${response.raw.req.method} ${response.raw.req.url}`;
  expect({ where, status: response.statusCode }).toEqual({ where, status });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json<Failure>();
  expect(Object.keys(body).sort()).toEqual(['message', 'success']);
  expect(body.success).toBe(false);
  expect(typeof body.message).toBe('string');
  for (const leak of LEAKS) expect(body.message).not.toMatch(leak);
  if (fieldOrText) expect(body.message).toContain(fieldOrText);
  return body.message;
}

describe.each(DIALECTS)('bad input [%s]', (dialect) => {
  const t = useTestApp(dialect);
  const webRoot = tempDir();
  let adminToken: string;
  let agentToken: string;
  let agentGhadi: number;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
    const agent = await createAgentWithToken(t.app, adminToken);
    agentToken = agent.token;
    agentGhadi = (await createGhadi(t.app, adminToken)).GID;
    await assignGhadis(t.app, adminToken, agent.user.User_Id, agentGhadi);
  });

  const send = (options: CallOptions) => call(t.app, options);
  const raw = (
    app: FastifyInstance,
    method: 'POST' | 'PUT',
    url: string,
    payload: string,
    type: string,
    token?: string,
  ) =>
    app.inject({
      method,
      url,
      payload,
      headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  describe('bodies', () => {
    it('invalid JSON answers 400 as JSON, not HTML', async () => {
      for (const [url, token] of [
        ['/api/users/login', undefined],
        ['/api/users', adminToken],
        ['/api/contentblocks', adminToken],
      ] as const) {
        const response = await raw(t.app, 'POST', url, '{"UserName": "x",', 'application/json', token);
        expect(expectFailure(response, 400)).toBe('Request body is not valid JSON');
        expect(response.body).not.toMatch(/<html/i);
      }
    });

    it('a JSON body that is not an object answers 400', async () => {
      for (const payload of ['[]', '"text"', 'null', '42']) {
        const response = await raw(t.app, 'POST', '/api/users/login', payload, 'application/json');
        expectFailure(response, 400);
      }
    });

    it('a __proto__ key is refused (400), not merged', async () => {
      const response = await raw(
        t.app,
        'POST',
        '/api/users/login',
        '{"UserName":"a","Password":"b","__proto__":{"isAdmin":true}}',
        'application/json',
      );
      expectFailure(response, 400);
    });

    it('a body over 1 MB answers 413', async () => {
      const big = JSON.stringify(contentBlockFields({ Content: `<p>${'x'.repeat(1024 * 1024 + 10)}</p>` }));
      expectFailure(await raw(t.app, 'POST', '/api/contentblocks', big, 'application/json', adminToken), 413);
      const bigPreview = JSON.stringify({ Content: `<p>${'x'.repeat(1024 * 1024 + 10)}</p>` });
      expectFailure(
        await raw(t.app, 'POST', '/api/contentblocks/preview', bigPreview, 'application/json', adminToken),
        413,
      );
      const bigLogin = JSON.stringify({ UserName: 'a', Password: 'b'.repeat(1024 * 1024) });
      expectFailure(await raw(t.app, 'POST', '/api/users/login', bigLogin, 'application/json'), 413);
    });

    it('a body just under 1 MB is read (and then validated)', async () => {
      const content = `<p>${'y'.repeat(450_000)}</p>`;
      const response = await send({
        method: 'POST',
        url: '/api/contentblocks',
        token: adminToken,
        body: contentBlockFields({ Content: content }),
      });
      expect(response.statusCode).toBe(201);
    });

    it('a body that is not JSON answers 400 (plain text) or 415 (other types)', async () => {
      const response = await raw(t.app, 'POST', '/api/users/login', 'UserName=a&Password=b', 'text/plain');
      expectFailure(response, 400, 'JSON object');
      const form = await raw(
        t.app,
        'POST',
        '/api/users/login',
        'UserName=a',
        'application/x-www-form-urlencoded',
      );
      expectFailure(form, 415);
    });

    it('an empty JSON body on DELETE is accepted', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/ghadis/${ghadi.GID}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        payload: '',
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('fields', () => {
    const cases: Array<[string, () => CallOptions, string]> = [
      [
        'login without UserName',
        () => ({ method: 'POST', url: '/api/users/login', body: { Password: 'x' } }),
        'UserName',
      ],
      [
        'login without Password',
        () => ({ method: 'POST', url: '/api/users/login', body: { UserName: 'x' } }),
        'Password',
      ],
      [
        'login with a numeric UserName',
        () => ({ method: 'POST', url: '/api/users/login', body: { UserName: 5, Password: 'x' } }),
        'UserName',
      ],
      [
        'agent without UserName',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: { ...agentFields(), UserName: undefined },
        }),
        'UserName',
      ],
      [
        'agent with a blank DisplayName',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: agentFields({ DisplayName: '   ' }),
        }),
        'DisplayName',
      ],
      [
        'agent with a bad Email',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: agentFields({ Email: 'not-an-email' }),
        }),
        'Email',
      ],
      [
        'agent with a short Password',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: agentFields({ Password: 'short' }),
        }),
        'Password',
      ],
      [
        'agent without Password',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: { ...agentFields(), Password: undefined },
        }),
        'Password',
      ],
      [
        'agent with isActive "yes"',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: { ...agentFields(), isActive: 'yes' },
        }),
        'isActive',
      ],
      [
        'agent with a UserName of spaces and slashes',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: agentFields({ UserName: 'a b/c' }),
        }),
        'UserName',
      ],
      [
        'agent with a 51-character UserName',
        () => ({
          method: 'POST',
          url: '/api/users',
          token: adminToken,
          body: agentFields({ UserName: 'a'.repeat(51) }),
        }),
        'UserName',
      ],
      [
        'agent update without Email',
        () => ({
          method: 'PUT',
          url: '/api/users/1',
          token: adminToken,
          body: { UserName: 'x', DisplayName: 'x' },
        }),
        'Email',
      ],
      [
        'agent update with UserType "root"',
        () => ({
          method: 'PUT',
          url: '/api/users/1',
          token: adminToken,
          body: { UserName: 'x', DisplayName: 'x', Email: 'x@example.com', UserType: 'root' },
        }),
        'UserType',
      ],
      [
        'ghadi without NameEn',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { ...ghadiFields(), NameEn: undefined },
        }),
        'NameEn',
      ],
      [
        'ghadi without NameHn',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { ...ghadiFields(), NameHn: '' },
        }),
        'NameHn',
      ],
      [
        'ghadi without RTime',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { ...ghadiFields(), RTime: undefined },
        }),
        'RTime',
      ],
      [
        'ghadi with OrderId "abc"',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { ...ghadiFields(), OrderId: 'abc' },
        }),
        'OrderId',
      ],
      [
        'ghadi with OrderId -1',
        () => ({ method: 'POST', url: '/api/ghadis', token: adminToken, body: ghadiFields({ OrderId: -1 }) }),
        'OrderId',
      ],
      [
        'ghadi with OrderId 1.5',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: ghadiFields({ OrderId: 1.5 }),
        }),
        'OrderId',
      ],
      [
        'ghadi with a huge OrderId',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: ghadiFields({ OrderId: 1e12 }),
        }),
        'OrderId',
      ],
      [
        'ghadi without OrderId',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { ...ghadiFields(), OrderId: undefined },
        }),
        'OrderId',
      ],
      [
        'ghadi with a slash in NameEn',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: ghadiFields({ NameEn: 'a/b' }),
        }),
        'NameEn',
      ],
      [
        'ghadi with a GID beyond 32 bits',
        () => ({
          method: 'POST',
          url: '/api/ghadis',
          token: adminToken,
          body: { ...ghadiFields(), GID: 2147483648 },
        }),
        'GID',
      ],
      [
        'result without ghadiId',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { result: '1', dateTime: today() },
        }),
        'ghadiId',
      ],
      [
        'result with ghadiId "abc"',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { ghadiId: 'abc', result: '1', dateTime: today() },
        }),
        'ghadiId',
      ],
      [
        'result with ghadiId 0',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { ghadiId: 0, result: '1', dateTime: today() },
        }),
        'ghadiId',
      ],
      [
        'result with ghadiId beyond 32 bits',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { ghadiId: 99999999999, result: '1', dateTime: today() },
        }),
        'ghadiId',
      ],
      [
        'result without result',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { ghadiId: agentGhadi, dateTime: today() },
        }),
        'result',
      ],
      [
        'result with markup',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { ghadiId: agentGhadi, result: '<b>1</b>', dateTime: today() },
        }),
        'result',
      ],
      [
        'result of 21 characters',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: adminToken,
          body: { ghadiId: agentGhadi, result: '1'.repeat(21), dateTime: today() },
        }),
        'result',
      ],
      [
        'result without dateTime',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: agentToken,
          body: { ghadiId: agentGhadi, result: '1' },
        }),
        'dateTime',
      ],
      [
        'result with a numeric dateTime',
        () => ({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          token: agentToken,
          body: { ghadiId: agentGhadi, result: '1', dateTime: 20261122 },
        }),
        'dateTime',
      ],
      [
        'assignment without User_Id',
        () => ({ method: 'POST', url: '/api/usermaps', token: adminToken, body: { GID: 1 } }),
        'User_Id',
      ],
      [
        'assignment with GID "x"',
        () => ({ method: 'POST', url: '/api/usermaps', token: adminToken, body: { User_Id: 1, GID: 'x' } }),
        'GID',
      ],
      [
        'assignment with a list holding "x"',
        () => ({
          method: 'POST',
          url: '/api/usermaps',
          token: adminToken,
          body: { User_Id: 1, GID: [1, 'x'] },
        }),
        'GID',
      ],
      [
        'content block without Title',
        () => ({
          method: 'POST',
          url: '/api/contentblocks',
          token: adminToken,
          body: { ...contentBlockFields(), Title: undefined },
        }),
        'Title',
      ],
      [
        'content block without Slug',
        () => ({
          method: 'POST',
          url: '/api/contentblocks',
          token: adminToken,
          body: { ...contentBlockFields(), Slug: undefined },
        }),
        'Slug',
      ],
      [
        'content block without Content',
        () => ({
          method: 'POST',
          url: '/api/contentblocks',
          token: adminToken,
          body: { ...contentBlockFields(), Content: '' },
        }),
        'Content',
      ],
      [
        'content block with isActive "no"',
        () => ({
          method: 'POST',
          url: '/api/contentblocks',
          token: adminToken,
          body: { ...contentBlockFields(), isActive: 'no' },
        }),
        'isActive',
      ],
      ['results with page=0', () => ({ url: '/api/results?page=0' }), 'page'],
      ['results with limit=abc', () => ({ url: '/api/results?limit=abc' }), 'limit'],
      ['results with limit=100000', () => ({ url: '/api/results?limit=100000' }), 'limit'],
      ['results with month=2026-1', () => ({ url: '/api/results?month=2026-1' }), 'month'],
      ['results with a 101-character q', () => ({ url: `/api/results?q=${'q'.repeat(101)}` }), 'q'],
      ['a ghadi’s results with year=1999', () => ({ url: '/api/results/ncr?year=1999' }), 'year'],
      ['a ghadi’s results with month=0', () => ({ url: '/api/results/ncr?month=0' }), 'month'],
      [
        'agent history with ghadiId=abc',
        () => ({ url: '/api/agent/my-ghadi/results?ghadiId=abc', token: agentToken }),
        'ghadiId',
      ],
      [
        'visitor track without x-session-id',
        () => ({ method: 'POST', url: '/api/visitor/track' }),
        'x-session-id',
      ],
    ];

    it.each(cases)('%s answers 400 naming the field', async (_name, options, field) => {
      expectFailure(await send(options()), 400, field);
    });
  });

  describe('ids', () => {
    const resources = ['users', 'ghadis', 'contentblocks', 'usermaps'];

    it('a non-numeric id answers 400 naming id', async () => {
      for (const resource of resources) {
        for (const id of ['abc', '1.5', '-1', '1e3', '%20']) {
          expectFailure(
            await send({ method: 'DELETE', url: `/api/${resource}/${id}`, token: adminToken }),
            400,
            'id',
          );
        }
      }
      expectFailure(
        await send({ method: 'PUT', url: '/api/users/abc', token: adminToken, body: agentFields() }),
        400,
        'id',
      );
      expectFailure(
        await send({ method: 'PUT', url: '/api/ghadis/abc', token: adminToken, body: ghadiFields() }),
        400,
        'id',
      );
      expectFailure(
        await send({
          method: 'PUT',
          url: '/api/contentblocks/x',
          token: adminToken,
          body: contentBlockFields(),
        }),
        400,
        'id',
      );
    });

    it('an unknown id answers 404', async () => {
      for (const resource of resources) {
        expectFailure(
          await send({ method: 'DELETE', url: `/api/${resource}/12345678`, token: adminToken }),
          404,
        );
        expectFailure(await send({ method: 'DELETE', url: `/api/${resource}/0`, token: adminToken }), 404);
      }
      expectFailure(
        await send({ method: 'PUT', url: '/api/users/12345678', token: adminToken, body: agentFields() }),
        404,
      );
      expectFailure(
        await send({ method: 'PUT', url: '/api/ghadis/12345678', token: adminToken, body: ghadiFields() }),
        404,
      );
      expectFailure(
        await send({
          method: 'PUT',
          url: '/api/contentblocks/12345678',
          token: adminToken,
          body: contentBlockFields(),
        }),
        404,
      );
    });

    it('an id too large for the database answers 400 or 404, never 500', async () => {
      for (const resource of resources) {
        for (const id of ['9999999999', '2147483648', '99999999999']) {
          const response = await send({ method: 'DELETE', url: `/api/${resource}/${id}`, token: adminToken });
          expect([400, 404]).toContain(response.statusCode);
          expectFailure(response, response.statusCode);
        }
      }
      const update = await send({
        method: 'PUT',
        url: '/api/ghadis/9999999999',
        token: adminToken,
        body: ghadiFields(),
      });
      expect([400, 404]).toContain(update.statusCode);
    });

    it('a page number too large for the database answers 400 or an empty page, never 500', async () => {
      for (const page of ['99999999999999999999', '1e30', '9007199254740993']) {
        const response = await send({ url: `/api/results?page=${page}&limit=10`, token: adminToken });
        expect({ page, status: response.statusCode < 500 }).toEqual({ page, status: true });
        if (response.statusCode === 200) expect(response.json<{ data: unknown[] }>().data).toEqual([]);
        else expectFailure(response, 400, 'page');
      }
    });
  });

  describe('addresses', () => {
    it('an unknown API address answers a JSON 404', async () => {
      for (const [method, url] of [
        ['GET', '/api/nothing-here'],
        ['POST', '/api/users/sign-out'],
        ['PATCH', '/api/users/1'],
      ] as const) {
        expectFailure(await t.app.inject({ method, url }), 404);
      }
    });

    it('with the web app served, the API still answers JSON and pages get the app', async () => {
      fs.writeFileSync(path.join(webRoot(), 'index.html'), '<!doctype html><html><body>app</body></html>');
      const app = await buildApp(
        { ...t.config, webRoot: webRoot() },
        { database: t.database, logger: false },
      );
      try {
        expectFailure(await app.inject({ url: '/api/nothing-here' }), 404);
        expectFailure(await app.inject({ url: '/api/users' }), 401);
        expectFailure(await app.inject({ url: '/%61pi/users' }), 401);
        expectFailure(await raw(app, 'POST', '/api/users/login', '{oops', 'application/json'), 400);
        const page = await app.inject({ url: '/admin/dashboard' });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain('app');
      } finally {
        await app.close();
      }
    });
  });
});
