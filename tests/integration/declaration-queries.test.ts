import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import type { LiveEvent } from '../../src/shared/live-events.js';
import { createGhadi, loginAdmin, submitResult, today } from '../support/factories.js';
import { type EventStream, listen, openEvents } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';

/** What a statement is about: its kind and the tables it names, or the text of raw SQL. */
function describeStatement(node: RootOperationNode): string {
  if (node.kind === 'RawNode') return `raw ${node.sqlFragments.join('?').trim()}`;
  const tables = new Set<string>();
  for (const match of JSON.stringify(node).matchAll(/"kind":"TableNode".*?"name":"(\w+)"/g))
    tables.add(match[1] ?? '');
  return `${node.kind.replace(/QueryNode$/, '').toLowerCase()} ${[...tables].sort().join(',')}`;
}

/**
 * How much another process pays for one declaration: the statements a second app on the same
 * database runs between a result declared on the first and the live event it sends for it. Each
 * process reads the change log; the result and its log entry come in the log's row, as the writer
 * had them, so nothing reads them back. (Before they were carried, each process read the result and
 * the result's whole declaration history back: two more statements per declaration per process.)
 */
describe.each(DIALECTS)('queries per declaration [%s]', (dialect) => {
  const dir = tempDir();
  let pair: TestApp;
  let other: { app: FastifyInstance; database: Database };
  let statements: string[];
  let stream: EventStream;
  let adminToken: string;

  beforeAll(async () => {
    pair = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'declared.db') });
    adminToken = await loginAdmin(pair.app);
    const own = openDatabase(
      pair.config.database,
      pair.database.pgSchema ? { pgSchema: pair.database.pgSchema } : {},
    );
    statements = [];
    const counter: KyselyPlugin = {
      transformQuery(args) {
        statements.push(describeStatement(args.node));
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    other = {
      database: own,
      app: await buildApp(pair.config, {
        database: { ...own, db: own.db.withPlugin(counter) },
        logger: false,
        serveWebApp: false,
      }),
    };
    stream = await openEvents(await listen(other.app));
  });
  afterAll(async () => {
    stream?.close();
    await other?.app.close();
    await other?.database.close();
    await pair?.close();
  });

  it('another process reads the change log and nothing the write held', async () => {
    const ghadi = await createGhadi(pair.app, adminToken);
    await stream.waitFor((events) =>
      events.some((event) => (event.data as LiveEvent).kind === 'ghadi' && event.id !== undefined),
    );
    statements.length = 0;
    await submitResult(pair.app, adminToken, { ghadiId: ghadi.GID, result: '42', dateTime: today() });
    const [declared] = (
      await stream.waitFor((events) => events.some((event) => (event.data as LiveEvent).kind === 'result'))
    )
      .map((event) => event.data as LiveEvent)
      .filter((event) => event.kind === 'result');

    // The event has what the write held: the result as the public sees it and its log entry.
    expect(declared).toMatchObject({
      gid: ghadi.GID,
      result: { GID: ghadi.GID, Result: '42' },
      declaration: { GID: ghadi.GID, Result: '42', Previous: null, Name: ghadi.NameEn },
    });
    // SQLite's bus asks the file whether another connection committed; that is not a read of data.
    const reads = statements.filter((statement) => statement !== 'raw pragma data_version');
    expect(reads.filter((statement) => statement.includes('change_log')).length).toBeGreaterThan(0);
    // Neither the result (read with who declared it) nor its log entries are read back.
    expect(reads.filter((statement) => /\bdeclarations\b/.test(statement))).toEqual([]);
    expect(reads.filter((statement) => /^select .*\bresults\b.*\busers\b/.test(statement))).toEqual([]);
    // What is left is the log and the ghadi list (its four statements: ghadis, today's and yesterday's
    // results, the latest values, today's holidays), which the event names the ghadi from and the
    // home page is rebuilt from; the visitor counter's own reads come and go.
    const ghadiList = /^select (ghadis|results|g,ghadis,r,results|holidays)$/;
    expect(
      reads.filter((statement) => !/change_log|visitor_totals/.test(statement) && !ghadiList.test(statement)),
    ).toEqual([]);
  });
});
