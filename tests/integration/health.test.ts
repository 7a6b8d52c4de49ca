import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { call, expectStatus, type Failure } from '../support/factories.js';
import { DIALECTS, openTestDatabase, testConfig, useTestApp } from '../support/test-app.js';

describe.each(DIALECTS)('probes [%s]', (dialect) => {
  const t = useTestApp(dialect);

  it('GET /healthz answers while the process runs, without a token', async () => {
    expect(expectStatus(await call(t.app, { url: '/healthz' }), 200)).toEqual({
      success: true,
      status: 'live',
    });
  });

  it('GET /readyz answers 200 when the database answers and has every migration', async () => {
    expect(expectStatus(await call(t.app, { url: '/readyz' }), 200)).toEqual({
      success: true,
      status: 'ready',
    });
  });

  it('GET /readyz answers 503 naming a migration the database has not run', async () => {
    const { rows } = await sql<{
      name: string;
    }>`select name from kysely_migration order by name desc`.execute(t.database.db);
    const latest = rows[0]?.name ?? '';
    expect(latest).not.toBe('');
    await sql`delete from kysely_migration where name = ${latest}`.execute(t.database.db);
    try {
      const answer = expectStatus<Failure>(await call(t.app, { url: '/readyz' }), 503);
      expect(answer).toEqual({ success: false, message: `Not ready: Migrations not run yet: ${latest}` });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${latest}, ${new Date().toISOString()})`.execute(
        t.database.db,
      );
    }
    expectStatus(await call(t.app, { url: '/readyz' }), 200);
  });
});

describe.each(DIALECTS)('probes with the database gone [%s]', (dialect) => {
  it('GET /readyz answers 503 and /healthz still 200 once the database no longer answers', async () => {
    const { database, dropDatabase, target } = await openTestDatabase(dialect, ':memory:');
    const app = await buildApp(
      { ...testConfig(), database: target },
      { database, logger: false, serveWebApp: false },
    );
    try {
      expectStatus(await call(app, { url: '/readyz' }), 200);
      await database.close();
      const answer = expectStatus<Failure>(await call(app, { url: '/readyz' }), 503);
      expect(answer).toEqual({ success: false, message: 'Not ready: The database does not answer' });
      expectStatus(await call(app, { url: '/healthz' }), 200);
    } finally {
      await app.close().catch(() => undefined);
      await dropDatabase();
    }
  });
});
