import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { call, expectStatus, type Failure, unique } from '../support/factories.js';
import { createTestApp, DIALECTS, tempDir, testConfig, useTestApp } from '../support/test-app.js';

interface Stats {
  success: true;
  totalUsers: number;
  activeUsers: number;
}

const track = (app: FastifyInstance, sessionId?: string) =>
  call(app, {
    method: 'POST',
    url: '/api/visitor/track',
    ...(sessionId === undefined ? {} : { headers: { 'x-session-id': sessionId } }),
  });

const stats = async (app: FastifyInstance) =>
  expectStatus<Stats>(await call(app, { url: '/api/visitor/stats' }), 200);

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(DIALECTS)('visitors [%s]', (dialect) => {
  const t = useTestApp(dialect);

  it('POST /api/visitor/track needs an x-session-id of at most 128 printable characters', async () => {
    const missing = await track(t.app);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<Failure>()).toMatchObject({ success: false });
    expect(missing.json<Failure>().message).toContain('x-session-id');

    const tooLong = await track(t.app, 'a'.repeat(129));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<Failure>().message).toContain('x-session-id');
    expect((await track(t.app, 'with space')).statusCode).toBe(400);

    const longest = await track(t.app, 'b'.repeat(128));
    expect(longest.statusCode).toBe(200);
    expect(longest.json()).toMatchObject({ success: true });
  });

  it('GET /api/visitor/stats counts distinct sessions; the same id twice counts once', async () => {
    const before = await stats(t.app);
    expect(before.success).toBe(true);
    const first = unique('s');
    const second = unique('s');
    await track(t.app, first);
    await track(t.app, first);
    await track(t.app, second);
    const after = await stats(t.app);
    expect(after.totalUsers).toBe(before.totalUsers + 2);
    expect(after.activeUsers).toBe(before.activeUsers + 2);
    await track(t.app, second);
    expect(await stats(t.app)).toEqual(after);
  });

  it('stats survive a restart, both after a timed flush and after the flush on close', async () => {
    const own = await createTestApp(dialect);
    try {
      const ids = [unique('s'), unique('s'), unique('s')];
      for (const id of ids) await track(own.app, id);
      await track(own.app, ids[0]);
      expect(await stats(own.app)).toMatchObject({ totalUsers: 3, activeUsers: 3 });

      await waitFor(async () => {
        const rows = await own.database.db.selectFrom('visitors').select('session_id').execute();
        return rows.length === 3;
      }, 'the timed visitor flush');
      await own.restart();
      expect(await stats(own.app)).toEqual({ success: true, totalUsers: 3, activeUsers: 3 });

      // Seen again after the restart: still one visitor each.
      await track(own.app, ids[1]);
      // A new one, then an immediate restart: closing the app writes it.
      await track(own.app, unique('s'));
      await own.restart();
      expect(await stats(own.app)).toEqual({ success: true, totalUsers: 4, activeUsers: 4 });
    } finally {
      await own.close();
    }
  });
});

// Only an app that opens its own database file closes it, so this runs on SQLite alone.
describe('visitors in an app that owns its SQLite file', () => {
  const dir = tempDir();

  it('an app that opens its own database file flushes visitors before closing it', async () => {
    const file = path.join(dir(), 'visitors.db');
    const config = testConfig({ DATABASE_URL: `sqlite:${file}` });
    const first = await buildApp(config, { logger: false });
    await track(first, unique('s'));
    await track(first, unique('s'));
    await first.close();
    const second = await buildApp(config, { logger: false });
    try {
      expect(await stats(second)).toMatchObject({ totalUsers: 2 });
    } finally {
      await second.close();
    }
  });
});
