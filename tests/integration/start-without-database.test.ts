import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchRaw } from '../support/http.js';
import { processDatabase } from '../support/process-database.js';
import { type LogLine, type StartingAppProcess, spawnAppProcess } from '../support/starting-app-process.js';
import { addressOf, freePort, startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { POSTGRES_URL, SKIP_POSTGRES, tempDir } from '../support/test-app.js';

/** A server process compiling its source with tsx on a busy machine. */
const STARTUP_LIMIT_MS = 30_000;
/** The process's DATABASE_DEADLINE_MS: short, so a database that answers nothing is found out soon. */
const DEADLINE_MS = 500;
/** After the database answers: the start's back-off (at most 2 s by then) plus the start itself. */
const READY_LIMIT_MS = 20_000;

const isRetry = (line: LogLine) => line.msg === 'the database cannot be reached at start; trying again';
const listeningLines = (server: StartingAppProcess) =>
  server
    .lines()
    .filter((line) => typeof line.msg === 'string' && line.msg.startsWith('Server listening at '));

/**
 * A process started while its PostgreSQL database cannot be reached waits for it, trying again with
 * back-off and saying so, instead of exiting (under WORKERS, a supervisor that exits would be
 * restarted in a loop); once the database answers it starts and becomes ready. PostgreSQL only: a
 * SQLite file is opened by the process itself and has no "not reachable yet".
 */
describe.skipIf(SKIP_POSTGRES)('a start while the database cannot be reached [postgres]', () => {
  const dir = tempDir();
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(env: (proxy: TcpProxy, url: string) => Record<string, string>) {
    const database = await processDatabase('postgres', dir());
    cleanups.push(database.drop);
    const proxy = await startTcpProxy(addressOf(POSTGRES_URL));
    cleanups.push(() => proxy.close());
    return { database, proxy, env: env(proxy, database.url) };
  }

  function spawn(env: Record<string, string>): StartingAppProcess {
    const server = spawnAppProcess({
      DATABASE_DEADLINE_MS: String(DEADLINE_MS),
      ADMIN_PASSWORD: 'start-retry-admin-password',
      WEB_ROOT: path.join(dir(), 'no-web-app'),
      ...env,
    });
    cleanups.push(() => server.stop());
    return server;
  }

  it(
    'the database gone (connections reset): logs each retry with back-off, keeps running, starts once it is back',
    async () => {
      const { proxy, env } = await setUp((proxy, url) => ({ DATABASE_URL: proxy.through(url) }));
      proxy.cut();
      const server = spawn(env);

      const first = await server.waitForLine(isRetry, 'a first retry', STARTUP_LIMIT_MS);
      expect(first.level).toBe(40);
      const second = await server.waitForLine(
        (line) => isRetry(line) && line !== first,
        'a second retry',
        READY_LIMIT_MS,
      );
      expect(Number(second.retryInMs)).toBeGreaterThan(Number(first.retryInMs));
      expect(server.exit()).toBeNull();
      expect(listeningLines(server)).toEqual([]);

      proxy.resume();
      const base = await server.listening(READY_LIMIT_MS);
      const ready = await fetchRaw(base, '/readyz');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body.toString('utf8'))).toEqual({ success: true, status: 'ready' });
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    },
    STARTUP_LIMIT_MS + 3 * READY_LIMIT_MS,
  );

  it(
    'WORKERS=2 with nothing listening yet (connection refused): the supervisor waits, then the workers start',
    async () => {
      const port = await freePort();
      const database = await processDatabase('postgres', dir());
      cleanups.push(database.drop);
      const url = new URL(database.url);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      const server = spawn({ DATABASE_URL: url.toString(), WORKERS: '2' });

      const retry = await server.waitForLine(isRetry, 'the supervisor retrying', STARTUP_LIMIT_MS);
      expect(JSON.stringify(retry.err)).toContain('ECONNREFUSED');
      expect(server.exit()).toBeNull();

      // The database "comes up" on the port the process was given.
      const proxy = await startTcpProxy(addressOf(POSTGRES_URL), { port });
      cleanups.push(() => proxy.close());
      const base = await server.listening(READY_LIMIT_MS);
      expect((await fetchRaw(base, '/readyz')).status).toBe(200);
      // Both workers listen before the stop, so each stops as a worker that started does.
      const deadline = Date.now() + READY_LIMIT_MS;
      while (new Set(listeningLines(server).map((line) => line.pid)).size < 2) {
        if (Date.now() > deadline || server.exit())
          throw new Error(`Two workers did not listen\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    },
    STARTUP_LIMIT_MS + 3 * READY_LIMIT_MS,
  );

  it(
    'a process still waiting for the database stops at SIGTERM at once',
    async () => {
      const { proxy, env } = await setUp((proxy, url) => ({ DATABASE_URL: proxy.through(url) }));
      proxy.cut();
      const server = spawn(env);
      await server.waitForLine(isRetry, 'a first retry', STARTUP_LIMIT_MS);
      const started = Date.now();
      const exit = await server.stop(5000);
      expect(exit.signal).not.toBe('SIGKILL');
      expect(Date.now() - started).toBeLessThan(5000);
    },
    STARTUP_LIMIT_MS + 10_000,
  );

  it(
    'the database frozen (connections accepted, nothing answered): the start times out and retries too',
    async () => {
      const { proxy, env } = await setUp((proxy, url) => ({ DATABASE_URL: proxy.through(url) }));
      proxy.pause();
      const server = spawn(env);

      // DATABASE_DEADLINE_MS is 0.5 s: a start that gets no answer must say so, not wait in silence.
      const retry = await server.waitForLine(isRetry, 'a retry after no answer', STARTUP_LIMIT_MS);
      expect(retry.level).toBe(40);
      expect(server.exit()).toBeNull();

      proxy.resume();
      const base = await server.listening(READY_LIMIT_MS);
      expect((await fetchRaw(base, '/readyz')).status).toBe(200);
    },
    2 * STARTUP_LIMIT_MS + READY_LIMIT_MS,
  );
});
