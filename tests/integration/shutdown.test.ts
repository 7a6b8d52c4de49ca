import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database.js';
import { startAppProcess } from '../support/app-process.js';
import { fetchRaw, openEvents } from '../support/http.js';
import { processDatabase } from '../support/process-database.js';
import { DIALECTS, tempDir } from '../support/test-app.js';

/** A server process compiling its source with tsx on a busy machine. */
const STARTUP_TIMEOUT_MS = 90_000;
const SHUTDOWN_LIMIT_MS = 10_000;

/** The steps the server logs at debug level while it shuts down, in the order they must happen. */
const STEPS = [
  'shutdown: refusing new requests',
  'shutdown: ending live streams',
  'shutdown: in-flight requests finished; flushing visitor counts',
  'shutdown: closing the database',
  'shutdown: done',
];

describe.each(DIALECTS)('graceful shutdown [%s]', (dialect) => {
  const dir = tempDir();
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it(
    'on SIGTERM with a live stream open: ends the stream, flushes visitors, closes the database, exits 0 within 10 s',
    async () => {
      const database = await processDatabase(dialect, dir());
      drops.push(database.drop);
      const server = await startAppProcess(
        {
          DATABASE_URL: database.url,
          LOG_LEVEL: 'debug',
          ADMIN_PASSWORD: 'shutdown-admin-password',
          WEB_ROOT: path.join(dir(), 'no-web-app'),
        },
        STARTUP_TIMEOUT_MS,
      );
      const stream = await openEvents(server.url);
      // Counted in memory, written by the flush every 2 s: the shutdown must write it.
      const tracked = await fetchRaw(server.url, '/api/visitor/track', {
        method: 'POST',
        headers: { 'x-session-id': 'session-seen-just-before-shutdown' },
      });
      expect(tracked.status).toBe(200);

      const started = Date.now();
      const exit = await server.stop();
      const took = Date.now() - started;
      await stream.ended;

      expect(exit).toEqual({ code: 0, signal: null });
      expect(took).toBeLessThan(SHUTDOWN_LIMIT_MS);
      const messages = server
        .output()
        .split('\n')
        .flatMap((line) => {
          try {
            return [(JSON.parse(line) as { msg?: string }).msg ?? ''];
          } catch {
            return [];
          }
        });
      const positions = STEPS.map((step) => messages.indexOf(step));
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);

      const reopened = openDatabase(database.target);
      try {
        const row = await reopened.db
          .selectFrom('visitors')
          .select('session_id')
          .where('session_id', '=', 'session-seen-just-before-shutdown')
          .executeTakeFirst();
        expect(row).toBeDefined();
      } finally {
        await reopened.close();
      }
    },
    STARTUP_TIMEOUT_MS + 30_000,
  );
});
