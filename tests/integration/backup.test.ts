import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { STARTER_GHADIS } from '../../src/server/bootstrap.js';
import { openDatabase } from '../../src/server/db/database.js';
import { knownMigrations, migrateToLatest } from '../../src/server/db/migrate.js';
import { backupSqlite } from '../../src/server/modules/backup/backup-service.js';
import { exportDatabase } from '../../src/server/modules/backup/dump-export.js';
import { importDump } from '../../src/server/modules/backup/dump-import.js';
import { TABLE_ORDER } from '../../src/server/modules/backup/dump-tables.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { UserRecord } from '../../src/shared/schemas/users.js';
import {
  answers,
  cli,
  type DumpFile,
  damagedDumps,
  openAgain,
  populate,
  readDump,
  rowCounts,
  writingMidway,
} from '../support/dumps.js';
import {
  call,
  createGhadi,
  expectStatus,
  type Item,
  type List,
  login,
  loginAdmin,
  today,
  unique,
} from '../support/factories.js';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  createTestApp,
  DIALECTS,
  openTestDatabase,
  type TestApp,
  tempDir,
  testConfig,
} from '../support/test-app.js';

const STARTERS = new Set(STARTER_GHADIS.map((ghadi) => ghadi.name_en));

/** Transient: the VAPID key they are bound to never leaves the database (decision 0025). */
const NOTIFICATION_TABLES: string[] = [
  'push_subscriptions',
  'push_subscription_ghadis',
  'notifications',
  'notification_deliveries',
  'telegram_messages',
];

describe('the dump’s table list', () => {
  it('names every table the migrations create, parents before their children', async () => {
    const database = openDatabase({ kind: 'sqlite', file: ':memory:' });
    try {
      await migrateToLatest(database);
      const { rows } = await sql<{ name: string }>`select name from sqlite_master
        where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(database.db);
      expect(rows.map((row) => row.name).sort()).toEqual([...TABLE_ORDER].sort());
      for (const [position, table] of TABLE_ORDER.entries()) {
        const parents = await sql<{ table: string }>`select * from pragma_foreign_key_list(${table})`.execute(
          database.db,
        );
        for (const parent of parents.rows)
          expect(TABLE_ORDER.indexOf(parent.table as never)).toBeLessThan(position);
      }
    } finally {
      await database.close();
    }
  });
});

describe.each(DIALECTS)('backup and restore from %s', (dialect) => {
  const dir = tempDir();
  let source: TestApp;
  let dumpFile: string;
  let dump: DumpFile;
  let sourceAnswers: unknown[];

  beforeAll(async () => {
    source = await createTestApp(dialect, { sqliteFile: path.join(dir(), 'source.db') });
    await populate(source);
    dumpFile = path.join(dir(), 'source.ndjson.gz');
    const exporter = openAgain(source);
    await exportDatabase(exporter, dumpFile, { pageSize: 2 }).finally(() => exporter.close());
    dump = readDump(dumpFile);
    sourceAnswers = await answers(source.app);
  });
  afterAll(async () => {
    await source?.close();
  });

  it('dumps every table, users with their password hashes, with a header and a trailer', async () => {
    expect(dump.header).toMatchObject({
      format: 'ghadi-results-dump',
      dialect,
      migrations: knownMigrations(),
    });
    for (const table of TABLE_ORDER) {
      // The signing key is the only setting, and it is left out (see the signing key's suite below);
      // idempotency keys, sessions, WebAuthn challenges and the log's tree nodes (rebuilt at start)
      // never leave the database, nor do push subscriptions and the notification outbox (decision 0025).
      if (
        ![
          'settings',
          'idempotency_keys',
          'sessions',
          'webauthn_challenges',
          'log_nodes',
          ...NOTIFICATION_TABLES,
        ].includes(table)
      )
        expect(dump.rows[table]?.length, table).toBeGreaterThan(0);
      expect(dump.counts[table], table).toBe(dump.rows[table]?.length);
    }
    expect(dump.rows.settings).toEqual([]);
    for (const table of NOTIFICATION_TABLES) expect(dump.rows[table], table).toEqual([]);
    expect(dump.rows.idempotency_keys).toEqual([]);
    expect((await rowCounts(source.database)).idempotency_keys).toBeGreaterThan(0);
    expect(dump.rows.sessions).toEqual([]);
    expect((await rowCounts(source.database)).sessions).toBeGreaterThan(0);
    expect(dump.rows.webauthn_challenges).toEqual([]);
    expect((await rowCounts(source.database)).webauthn_challenges).toBeGreaterThan(0);
    expect(dump.rows.users?.every((user) => String(user.password_hash).startsWith('$argon2'))).toBe(true);
    expect(dump.rows.visitor_totals?.[0]).toEqual({ name: 'sessions', total: 1 });
    // Two first declarations (one for a past date) and a correction, made today, and the visit.
    expect(dump.rows.daily_stats).toEqual([{ date: today(), visitors: 1, declarations: 2, corrections: 1 }]);
  });

  it('exports one snapshot while the site goes on writing', async () => {
    const file = path.join(dir(), 'during-writes.ndjson.gz');
    const token = await loginAdmin(source.app);
    const names = Array.from({ length: 4 }, () => unique('Midway '));
    const exporter = openAgain(source);
    const midway = writingMidway(exporter, () =>
      Promise.all(names.map((NameEn) => createGhadi(source.app, token, { NameEn }))),
    );
    await exportDatabase(midway, file, { pageSize: 2 }).finally(() => exporter.close());
    const { rows } = readDump(file);
    // Written after the export's first read, so outside its snapshot: neither the ghadis nor their changes.
    const stored = rows.ghadis?.map((ghadi) => ghadi.name_en);
    for (const name of names) expect(stored).not.toContain(name);
    const made = rows.ghadis
      ?.filter((ghadi) => !STARTERS.has(String(ghadi.name_en)))
      .map((ghadi) => ghadi.gid);
    const logged = rows.change_log
      ?.filter((change) => change.kind === 'ghadi')
      .map((change) => JSON.parse(String(change.payload)).gid);
    expect(new Set(logged)).toEqual(new Set(made));
    const recorded = rows.activity_log?.map((entry) => entry.target_name);
    for (const name of names) expect(recorded).not.toContain(name);
    // Nothing else was written since the first dump but the sign-ins (the login throttle's log and
    // counts, and the activity trail's entry).
    const signIns = { login_attempts: [], login_attempt_counts: [], activity_log: [] };
    expect({ ...rows, ...signIns }).toEqual({ ...dump.rows, ...signIns });
  });

  it.each(DIALECTS)('imports into a fresh %s database that then answers as the source did', async (to) => {
    const { database, dropDatabase, target } = await openTestDatabase(to, path.join(dir(), unique('t')));
    let app: FastifyInstance | undefined;
    try {
      const { counts } = await importDump(database, dumpFile);
      expect(counts).toEqual(dump.counts);
      const again = path.join(dir(), unique('again'));
      await exportDatabase(database, again);
      expect(readDump(again).rows).toEqual(dump.rows);

      app = await buildApp(
        { ...testConfig(), database: target },
        { database, logger: false, serveWebApp: false },
      );
      expectStatus(await login(app, ADMIN_USERNAME, ADMIN_PASSWORD), 200);
      expect(await answers(app)).toEqual(sourceAnswers);
      // The keys went in as they were: the next generated ones must not collide (PostgreSQL's sequences).
      const token = await loginAdmin(app);
      const ghadi = await createGhadi(app, token);
      expect(ghadi.GID).toBeGreaterThan(Math.max(...(dump.rows.ghadis ?? []).map((row) => Number(row.gid))));
      const body = {
        UserName: unique('u'),
        DisplayName: 'New',
        Email: 'n@example.com',
        Password: 'password-1',
      };
      const user = expectStatus<Item<UserRecord>>(
        await call(app, { method: 'POST', url: '/api/users', token, body }),
        201,
      );
      expect(user.data.User_Id).toBeGreaterThan(
        Math.max(...(dump.rows.users ?? []).map((row) => Number(row.user_id))),
      );
    } finally {
      await app?.close();
      await database.close();
      await dropDatabase();
    }
  });

  it('refuses a database with rows, and replaces them with --force', async () => {
    const target = await createTestApp(dialect);
    try {
      const before = await rowCounts(target.database);
      await expect(importDump(target.database, dumpFile)).rejects.toThrow(
        /not empty \(rows in settings, users, ghadis/,
      );
      expect(await rowCounts(target.database)).toEqual(before);
      await importDump(target.database, dumpFile, { force: true });
      const again = path.join(dir(), unique('forced'));
      await exportDatabase(target.database, again);
      expect(readDump(again).rows).toEqual(dump.rows);
    } finally {
      await target.close();
    }
  });

  it('refuses, without migrating it, a site database of another version (even with --force)', async () => {
    const target = await createTestApp(dialect);
    try {
      const latest = knownMigrations().at(-1) ?? '';
      await sql`delete from kysely_migration where name = ${latest}`.execute(target.database.db);
      await expect(importDump(target.database, dumpFile, { force: true })).rejects.toThrow(
        /does not match this version/,
      );
      const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(
        target.database.db,
      );
      expect(rows.map((row) => row.name)).not.toContain(latest);
    } finally {
      await target.close();
    }
  });

  it('refuses a damaged or foreign dump and writes nothing, into an empty or a --force target', async () => {
    const damaged = damagedDumps(dumpFile);
    const empty = await openTestDatabase(dialect, path.join(dir(), unique('empty')));
    const full = await createTestApp(dialect);
    try {
      await migrateToLatest(empty.database);
      const emptyCounts = await rowCounts(empty.database);
      const fullCounts = await rowCounts(full.database);
      for (const [what, content, message] of damaged) {
        const file = path.join(dir(), unique('damaged'));
        fs.writeFileSync(file, content);
        await expect(importDump(empty.database, file), what).rejects.toThrow(message);
        expect(await rowCounts(empty.database), what).toEqual(emptyCounts);
        await expect(importDump(full.database, file, { force: true }), what).rejects.toThrow(message);
        expect(await rowCounts(full.database), what).toEqual(fullCounts);
      }
    } finally {
      await full.close();
      await empty.database.close();
      await empty.dropDatabase();
    }
  });

  it('db:backup: a hot SQLite copy that opens with the same rows; on PostgreSQL, a pointer to db:export', async () => {
    const file = path.join(dir(), 'hot-backup.db');
    if (dialect === 'postgres') {
      await expect(backupSqlite(source.database, file)).rejects.toThrow(/use db:export/);
      return;
    }
    const token = await loginAdmin(source.app);
    // A write through the site's own connection while the copy is under way: all pages but one are
    // copied, the copy is held while the ghadi is written, then it finishes. SQLite carries the write
    // into the pages already copied.
    let written = false;
    let heldAt: number | undefined;
    let held: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    const backup = backupSqlite(source.database, file, ({ totalPages, remainingPages }) => {
      // The first step only opens the copy.
      if (remainingPages === totalPages) return totalPages - 1;
      if (written) return 100;
      heldAt ??= remainingPages;
      held();
      return 0;
    });
    await Promise.race([holding, backup]);
    try {
      await createGhadi(source.app, token);
    } finally {
      written = true;
    }
    await backup;
    expect(heldAt).toBe(1);
    const copy = openDatabase({ kind: 'sqlite', file });
    try {
      const [fromCopy, fromSource] = [path.join(dir(), 'copy.gz'), path.join(dir(), 'now.gz')];
      await exportDatabase(copy, fromCopy);
      await exportDatabase(source.database, fromSource);
      expect(readDump(fromCopy).rows).toEqual(readDump(fromSource).rows);
      // Left out like the signing key: the source has some, the copy none.
      expect((await rowCounts(source.database)).idempotency_keys).toBeGreaterThan(0);
      expect((await rowCounts(copy)).idempotency_keys).toBe(0);
    } finally {
      await copy.close();
    }
  });
});

describe('the db-tools CLI', () => {
  const dir = tempDir();

  it('exports a running site’s SQLite file and imports it into another, end to end', async () => {
    const siteFile = path.join(dir(), 'site.db');
    const source = await createTestApp('sqlite', { sqliteFile: siteFile });
    try {
      await createGhadi(source.app, await loginAdmin(source.app));
      const file = path.join(dir(), 'site.ndjson.gz');
      const copy = path.join(dir(), 'copy.db');
      const [exported, usage] = await Promise.all([cli(['export', file], siteFile), cli(['import'], copy)]);
      expect(exported).toMatchObject({ code: 0, err: '' });
      expect(exported.out).toMatch(/ghadis\s+8\n/);
      expect(usage.code).toBe(2);
      expect(usage.err.trim().split('\n')).toEqual([
        expect.stringMatching(/db:import needs exactly one FILE/),
      ]);
      // The second import is into the running site's own database: refused, as it has rows.
      const [imported, refused] = await Promise.all([
        cli(['import', file], copy),
        cli(['import', file], siteFile),
      ]);
      expect(imported).toMatchObject({ code: 0, err: '' });
      expect(imported.out).toMatch(/^Imported a sqlite dump of .* into SQLite .*copy\.db:\n/);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/^db:import failed: The target database is not empty/);
      // A FILE that is the database itself would be overwritten by the dump or the copy.
      for (const command of ['export', 'backup']) {
        const onItself = await cli([command, siteFile], siteFile);
        expect(onItself.code).toBe(1);
        expect(onItself.err).toMatch(/is the database itself/);
      }
      const list = (app: FastifyInstance) =>
        call(app, { url: '/api/ghadis' }).then((r) => r.json<List<GhadiRecord>>());
      const restored = await createTestApp('sqlite', { sqliteFile: copy });
      try {
        expect(await list(restored.app)).toEqual(await list(source.app));
      } finally {
        await restored.close();
      }
    } finally {
      await source.close();
    }
  });
});
