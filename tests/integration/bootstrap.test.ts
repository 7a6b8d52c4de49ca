import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db/database.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  expectStatus,
  getCount,
  type List,
  login,
  loginAdmin,
  uniqueAddress,
} from '../support/factories.js';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  DIALECTS,
  openTestDatabase,
  tempDir,
  testConfig,
  useTestApp,
} from '../support/test-app.js';

const STARTER_GHADIS = [
  ['NCR', '1:45 PM'],
  ['Delhi Bazar', '2:45 PM'],
  ['Shiri Ganesh', '4:15 PM'],
  ['Faridabad', '5:50 PM'],
  ['Ghaziabad', '9:15 PM'],
  ['Gali', '11:15 PM'],
  ['Disawer', '4:00 AM'],
].map(([NameEn, RTime], index) => ({ NameEn, RTime, OrderId: index + 1 }));

describe.each(DIALECTS)('bootstrap [%s]', (dialect) => {
  const t = useTestApp(dialect);

  const ghadis = async (app = t.app) =>
    expectStatus<List<GhadiRecord>>(await call(app, { url: '/api/ghadis' }), 200).data;
  const userRows = () => t.database.db.selectFrom('users').selectAll().execute();

  it('the first start creates the admin and the seven starter ghadis', async () => {
    const list = await ghadis();
    expect(list.map(({ NameEn, RTime, OrderId }) => ({ NameEn, RTime, OrderId }))).toEqual(STARTER_GHADIS);
    for (const ghadi of list) {
      expect(ghadi.NameHn).toBeTruthy();
      expect(ghadi).toMatchObject({ TodayResult: '', YesterdayResult: '', Result: '', isActive: true });
    }

    const users = await userRows();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      username: ADMIN_USERNAME,
      user_type: 'admin',
      is_active: 1,
      is_deleted: 0,
    });
    expect(users[0]?.password_hash.startsWith('$argon2id$')).toBe(true);

    const token = await loginAdmin(t.app);
    expect(await getCount(t.app, token, 'users')).toBe(0);
    expect(await getCount(t.app, token, 'ghadis')).toBe(7);
    expect(await getCount(t.app, token, 'results')).toBe(0);
  });

  it('keeps a generated JWT secret in the database', async () => {
    const row = await t.database.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'jwt_secret')
      .executeTakeFirst();
    expect(row?.value.length).toBeGreaterThanOrEqual(32);
  });

  it('a second app on the same database duplicates nothing and accepts the first app’s tokens', async () => {
    const token = await loginAdmin(t.app);
    const second = await t.startAnother();
    expect(await ghadis(second)).toEqual(await ghadis(t.app));
    expect((await ghadis(second)).length).toBe(7);
    expect(await userRows()).toHaveLength(1);
    const settings = await t.database.db.selectFrom('settings').selectAll().execute();
    expect(settings.filter((row) => row.key === 'jwt_secret')).toHaveLength(1);

    const answer = await call(second, { url: '/api/users', token });
    expect(answer.statusCode).toBe(200);
    await t.restart();
    expect((await call(t.app, { url: '/api/users/count', token })).statusCode).toBe(200);
  });

  it('a restart does not bring back deleted starter ghadis, nor reset the admin password', async () => {
    const token = await loginAdmin(t.app);
    for (const ghadi of await ghadis()) {
      const deleted = await call(t.app, { method: 'DELETE', url: `/api/ghadis/${ghadi._id}`, token });
      expect(deleted.statusCode).toBe(200);
    }
    expect(await ghadis()).toEqual([]);

    await t.restart();
    expect(await ghadis()).toEqual([]);

    // Another start with another ADMIN_PASSWORD: the stored admin keeps its password.
    const other = await buildApp(
      { ...t.config, adminPassword: 'a-different-password' },
      { database: t.database, logger: false },
    );
    try {
      expect((await login(other, ADMIN_USERNAME, ADMIN_PASSWORD, uniqueAddress())).statusCode).toBe(200);
      expect((await login(other, ADMIN_USERNAME, 'a-different-password', uniqueAddress())).statusCode).toBe(
        401,
      );
      expect(await userRows()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe.each(DIALECTS)('several processes starting at once on an empty database [%s]', (dialect) => {
  const dir = tempDir();

  it('create one admin, the seven ghadis and one signing key', async () => {
    const first = await openTestDatabase(dialect, path.join(dir(), 'race.db'));
    const connections = [
      first.database,
      openDatabase(first.target, first.database.pgSchema ? { pgSchema: first.database.pgSchema } : {}),
    ];
    const config = { ...testConfig(), database: first.target };
    const apps: FastifyInstance[] = [];
    try {
      apps.push(
        ...(await Promise.all(
          connections.map((database) => buildApp(config, { database, logger: false, serveWebApp: false })),
        )),
      );
      const db = first.database.db;
      expect(await db.selectFrom('users').select('user_id').execute()).toHaveLength(1);
      expect(await db.selectFrom('ghadis').select('gid').execute()).toHaveLength(7);
      expect(
        await db.selectFrom('settings').select('key').where('key', '=', 'jwt_secret').execute(),
      ).toHaveLength(1);
      // Either process accepts the other's tokens.
      const token = await loginAdmin(apps[0] as FastifyInstance);
      expect((await call(apps[1] as FastifyInstance, { url: '/api/users', token })).statusCode).toBe(200);
    } finally {
      for (const app of apps) await app.close();
      for (const connection of connections) await connection.close();
      await first.dropDatabase();
    }
  });
});
