import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createQueryId, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { checkReceiptProof } from '../../src/shared/receipt-proof.js';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { ReceiptAnswer, ReceiptEntry, SharedReceiptEntry } from '../../src/shared/schemas/receipts.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { sample } from '../support/prometheus-text.js';
import { planOf } from '../support/query-plan.js';
import { insertTwin } from '../support/shared-receipts.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';

const receiptOf = (entry: { hash: string }) => entry.hash.slice(0, 10);
const TOKEN = 'metrics-token-for-the-receipt-tests';

/**
 * GET /api/declarations/receipt/{receipt}: a log entry by the first 10 characters of its hash, with
 * whether a later entry of its ghadi and date replaced it. Read through a second app on the same
 * database whose statements are recorded, so that the lookup's plan can be checked too.
 */
describe.each(DIALECTS)('receipts in the API [%s]', (dialect) => {
  const dir = tempDir();
  let t: TestApp;
  let other: { app: FastifyInstance; database: Database };
  let token: string;
  const statements: RootOperationNode[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      sqliteFile: path.join(dir(), 'receipts.db'),
      env: { METRICS_TOKEN: TOKEN },
    });
    token = await loginAdmin(t.app);
    const own = openDatabase(t.config.database, t.database.pgSchema ? { pgSchema: t.database.pgSchema } : {});
    const recorder: KyselyPlugin = {
      transformQuery(args) {
        statements.push(args.node);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    other = {
      database: own,
      app: await buildApp(t.config, {
        database: { ...own, db: own.db.withPlugin(recorder) },
        logger: false,
        serveWebApp: false,
      }),
    };
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.database.close();
    await t?.close();
  });

  const entriesOf = async (ghadi: GhadiRecord) =>
    expectStatus<{ data: DeclarationEntry[] }>(
      await call(t.app, { url: `/api/declarations?gid=${ghadi.GID}&limit=1000` }),
      200,
    ).data;
  const receipt = async (code: string, app = t.app) =>
    expectStatus<ReceiptAnswer>(await call(app, { url: `/api/declarations/receipt/${code}` }), 200);
  const served = async (url: string) => {
    const answer = await call(t.app, { url });
    expect(answer.statusCode, url).toBe(200);
    return answer.body;
  };
  /** The answer's proof, checked as the receipt page checks it, against the key the site serves. */
  const verdictOf = async (answer: ReceiptAnswer) =>
    checkReceiptProof(answer.data, answer.proof, answer.checkpoint, await served('/api/log/key'));
  const lookups = async () => {
    const text = (await call(t.app, { url: '/metrics', token: TOKEN })).body;
    const route = '/api/declarations/receipt/:receipt';
    const of = (outcome: string) => sample(text, 'public_read_cache_lookups_total', { route, outcome });
    return { hit: of('hit'), miss: of('miss') };
  };
  const related = (entry: DeclarationEntry, Corrected: boolean) => ({
    seq: entry.seq,
    Receipt: receiptOf(entry),
    Result: entry.Result,
    DeclaredAt: entry.DeclaredAt,
    Step: entry.Step,
    Corrected,
  });

  it('a first declaration: the log entry as the log shows it, its receipt, and that it stands', async () => {
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '45', dateTime: today() });
    const [entry] = (await entriesOf(ghadi)) as [DeclarationEntry];
    const answer = await receipt(receiptOf(entry));
    expect(answer).toEqual({
      success: true,
      data: {
        ...entry,
        Receipt: receiptOf(entry),
        Corrected: false,
        Latest: true,
        Next: null,
        Current: null,
      },
      proof: {
        seq: entry.seq,
        size: expect.any(Number),
        leafHash: expect.any(String),
        hashes: expect.any(Array),
      },
      checkpoint: await served('/api/log/checkpoint'),
    });
    expect(answer.data.Receipt).toMatch(/^[0-9a-f]{10}$/);
  });

  it('carries the entry’s inclusion proof in the latest checkpoint, which verifies with the site’s key', async () => {
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '27', dateTime: daysFromToday(-2) });
    await submitResult(t.app, token, {
      ghadiId: (await createGhadi(t.app, token)).GID,
      result: '72',
      dateTime: today(),
    });
    const [entry] = (await entriesOf(ghadi)) as [DeclarationEntry];
    const answer = await receipt(receiptOf(entry));
    const head = expectStatus<{ seq: number }>(await call(t.app, { url: '/api/declarations/head' }), 200);
    expect(answer.proof.size).toBe(head.seq);
    const { success: _success, ...direct } = expectStatus<{ success: true } & ReceiptAnswer['proof']>(
      await call(t.app, { url: `/api/log/proof/inclusion?seq=${entry.seq}&size=${head.seq}` }),
      200,
    );
    expect(answer.proof).toEqual(direct);
    const verdict = await verdictOf(answer);
    expect(verdict).toMatchObject({ verified: true, size: head.seq });
    // A tampered proof is caught: the same check names what failed.
    expect(await verdictOf({ ...answer, data: { ...answer.data, Result: '28' } })).toMatchObject({
      verified: false,
      failed: 'leaf',
    });
  });

  it('a later declaration drops the kept answer: the receipt then carries the newer checkpoint', async () => {
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '36', dateTime: daysFromToday(-5) });
    const [entry] = (await entriesOf(ghadi)) as [DeclarationEntry];
    const url = `/api/declarations/receipt/${receiptOf(entry)}`;
    const first = await call(t.app, { url });
    expect(String(first.headers['surrogate-key']).split(' ')).toContain('log');
    const before = JSON.parse(first.body) as ReceiptAnswer;
    const kept = await lookups();
    expect((await call(t.app, { url })).body).toBe(first.body);
    expect(await lookups()).toEqual({ hit: kept.hit + 1, miss: kept.miss });

    // Another ghadi's declaration: nothing of this entry changed but the log it is in.
    await submitResult(t.app, token, {
      ghadiId: (await createGhadi(t.app, token)).GID,
      result: '63',
      dateTime: today(),
    });
    const after = await receipt(receiptOf(entry));
    expect(after.data).toEqual(before.data);
    expect(after.proof.size).toBe(before.proof.size + 1);
    expect(after.checkpoint).not.toBe(before.checkpoint);
    expect(after.checkpoint).toBe(await served('/api/log/checkpoint'));
    expect(await verdictOf(after)).toMatchObject({ verified: true, size: before.proof.size + 1 });
  });

  it('a corrected value links the entry that corrected it and the one that stands now', async () => {
    const ghadi = await createGhadi(t.app, token);
    const date = daysFromToday(-1);
    for (const result of ['45', '54', '55'])
      await submitResult(t.app, token, { ghadiId: ghadi.GID, result, dateTime: date });
    const [first, second, third] = (await entriesOf(ghadi)) as [
      DeclarationEntry,
      DeclarationEntry,
      DeclarationEntry,
    ];

    expect((await receipt(receiptOf(first))).data).toMatchObject({
      seq: first.seq,
      Result: '45',
      Previous: null,
      Corrected: false,
      Latest: false,
      Next: related(second, true),
      Current: related(third, true),
    });
    expect((await receipt(receiptOf(second))).data).toMatchObject({
      Result: '54',
      Previous: '45',
      Corrected: true,
      Latest: false,
      Next: related(third, true),
      Current: related(third, true),
    });
    expect((await receipt(receiptOf(third))).data).toMatchObject({
      Result: '55',
      Previous: '54',
      Corrected: true,
      Latest: true,
      Next: null,
      Current: null,
    });
  });

  it('an open/close market: the close completes the open half, which is no correction', async () => {
    const ghadi = await createGhadi(t.app, token, {
      NameEn: unique('Kalyan '),
      Kind: 'open-close',
      OpenTime: '3:45 PM',
      RTime: '5:45 PM',
    });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '123', dateTime: today() });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '459', dateTime: today() });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '123-69-450', dateTime: today() });
    const [open, close, corrected] = (await entriesOf(ghadi)) as [
      DeclarationEntry,
      DeclarationEntry,
      DeclarationEntry,
    ];

    expect((await receipt(receiptOf(open))).data).toMatchObject({
      Result: '123-6',
      Step: 'open',
      Corrected: false,
      Latest: false,
      Next: related(close, false),
      Current: related(corrected, true),
    });
    expect(close).toMatchObject({ Result: '123-68-459', Previous: '123-6', Step: 'close' });
    expect((await receipt(receiptOf(close))).data).toMatchObject({
      Previous: '123-6',
      Step: 'close',
      Corrected: false,
      Latest: false,
      Next: related(corrected, true),
    });
    expect((await receipt(receiptOf(corrected))).data).toMatchObject({
      Previous: '123-68-459',
      Step: 'close',
      Corrected: true,
      Latest: true,
    });
  });

  it('reads a receipt in upper case as the same receipt, kept once', async () => {
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '07', dateTime: today() });
    const [entry] = (await entriesOf(ghadi)) as [DeclarationEntry];
    const lower = await call(t.app, { url: `/api/declarations/receipt/${receiptOf(entry)}` });
    const before = await lookups();
    const upper = await call(t.app, {
      url: `/api/declarations/receipt/${receiptOf(entry).toUpperCase()}`,
    });
    expect(upper.statusCode).toBe(200);
    expect(upper.body).toBe(lower.body);
    expect(await lookups()).toEqual({ hit: before.hit + 1, miss: before.miss });
  });

  it('an unknown receipt is a 404, in the API’s error shape', async () => {
    const known = new Set((await entriesOf(await createGhadi(t.app, token))).map(receiptOf));
    const all = expectStatus<{ data: DeclarationEntry[] }>(
      await call(t.app, { url: '/api/declarations?limit=1000' }),
      200,
    ).data;
    for (const entry of all) known.add(receiptOf(entry));
    const unknown = ['0123456789', 'abcdefabcd', 'fedcba9876'].find((code) => !known.has(code)) as string;
    const answer = await call(t.app, { url: `/api/declarations/receipt/${unknown}` });
    expect(expectStatus<Failure>(answer, 404)).toEqual({
      success: false,
      message: 'No log entry has this receipt',
    });
  });

  it('anything but 10 to 64 hexadecimal characters is a 400 naming the receipt', async () => {
    for (const code of ['12345', '012345678', 'ghijklmnop', '01234 6789', 'a'.repeat(65)]) {
      const answer = await call(t.app, { url: `/api/declarations/receipt/${encodeURIComponent(code)}` });
      const failure = expectStatus<Failure>(answer, 400);
      expect(failure.success, code).toBe(false);
      expect(failure.message, code).toMatch(/receipt/i);
    }
  });

  it('a correction drops the kept answer: the receipt then names the entry that replaced it', async () => {
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '31', dateTime: today() });
    const [first] = (await entriesOf(ghadi)) as [DeclarationEntry];
    const before = await call(t.app, { url: `/api/declarations/receipt/${receiptOf(first)}` });
    expect(before.headers['surrogate-key']).toContain(`month-${ghadi.GID}-${today().slice(0, 7)}`);
    expect((JSON.parse(before.body) as { data: ReceiptEntry }).data.Latest).toBe(true);

    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '13', dateTime: today() });
    const [, second] = (await entriesOf(ghadi)) as [DeclarationEntry, DeclarationEntry];
    expect((await receipt(receiptOf(first))).data).toMatchObject({
      Latest: false,
      Next: related(second, true),
      Current: related(second, true),
    });
  });

  it('two entries whose hashes share 10 characters: that prefix answers 409 listing both, each by its own longer receipt', async () => {
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '88', dateTime: daysFromToday(-2) });
    const [entry] = (await entriesOf(ghadi)) as [DeclarationEntry];
    // No declaration can be made to collide on purpose: one is written as the log would hold it,
    // sharing the first 12 characters and then differing.
    const head = expectStatus<{ seq: number; hash: string }>(
      await call(t.app, { url: '/api/declarations/head' }),
      200,
    );
    const twin = await insertTwin(t.database, head, entry, {
      gid: ghadi.GID,
      date: daysFromToday(-3),
      length: 12,
    });

    const listed = (hash: string, seq: number, date: string, Result: string): SharedReceiptEntry => ({
      seq,
      GID: ghadi.GID,
      Name: ghadi.NameEn,
      Date: date,
      Result,
      hash,
      Receipt: hash.slice(0, 13),
    });
    const expected = {
      success: false,
      message: 'Several log entries have this receipt: each is listed with its own',
      entries: [
        listed(entry.hash, entry.seq, daysFromToday(-2), '88'),
        listed(twin, head.seq + 1, daysFromToday(-3), '99'),
      ],
    };
    for (const code of [receiptOf(entry).toUpperCase(), entry.hash.slice(0, 12)])
      expect(expectStatus(await call(other.app, { url: `/api/declarations/receipt/${code}` }), 409)).toEqual(
        expected,
      );

    // Its own receipt (and any longer start of its hash) names it alone, and says so.
    for (const code of [entry.hash.slice(0, 13), entry.hash]) {
      const answer = (await receipt(code, other.app)).data;
      expect(answer).toMatchObject({ seq: entry.seq, Result: '88', Receipt: entry.hash.slice(0, 13) });
    }
  });

  it('finds the entry through the hash index, and its later entries through an index of results', async () => {
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '64', dateTime: today() });
    const [entry] = (await entriesOf(ghadi)) as [DeclarationEntry];
    statements.length = 0;
    await receipt(receiptOf(entry), other.app);
    const executor = other.database.db.getExecutor();
    const compiled = statements.map((node) => executor.compileQuery(node, createQueryId()));
    const byHash = compiled.find((query) => query.sql.includes('"hash" >='));
    const newer = compiled.find((query) => /"gid" = .* "result_date" = /.test(query.sql));
    expect(byHash && (await planOf(other.database, byHash))).toMatch(/declarations_by_hash/);
    // Either index of the log's results narrows it to the date's few entries.
    expect(newer && (await planOf(other.database, newer))).toMatch(/declarations_by_(result|date)/);
  });
});
