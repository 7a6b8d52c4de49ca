import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DeclarationLog } from '../../src/server/modules/declarations/declaration-log.js';
import { DeclarationsRepository } from '../../src/server/modules/declarations/declarations-repository.js';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../src/shared/schemas/results.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  type Failure,
  type List,
  loginAdmin,
  postResult,
  submitResult,
  today,
} from '../support/factories.js';
import { listen } from '../support/http.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

const run = promisify(execFile);

interface Page {
  success: true;
  data: DeclarationEntry[];
  head: { seq: number; hash: string };
}

/** The named fields of a row (destructuring would shadow the global Date). */
function pick<T extends object, K extends keyof T>(row: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>;
}

/** The published formula, written here independently of the server's code. */
function hashOf(entry: DeclarationEntry): string {
  const fields = [entry.seq, entry.GID, entry.Date, entry.Result, entry.Previous, entry.DeclaredAt];
  return createHash('sha256')
    .update(`${entry.prevHash}\n${JSON.stringify(fields)}`, 'utf8')
    .digest('hex');
}

describe.each(DIALECTS)('declaration log [%s]', (dialect) => {
  const t = useTestApp(dialect);
  const log = async (query = '') =>
    expectStatus<Page>(await call(t.app, { url: `/api/declarations${query}` }), 200);
  const everything = async () => {
    const entries: DeclarationEntry[] = [];
    for (let after = 0; ; ) {
      const page = await log(`?after=${after}&limit=3`);
      if (page.data.length === 0) return { entries, head: page.head };
      entries.push(...page.data);
      after = page.data.at(-1)?.seq ?? after;
    }
  };
  const logService = () => new DeclarationLog(t.database, new DeclarationsRepository(t.database));

  it('appends one entry per value declared or corrected, chained by hash; the same value again appends nothing', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    const before = (await log()).head.seq;
    const date = daysFromToday(-1);
    const started = new Date().toISOString();
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '45', dateTime: date });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '45', dateTime: date });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '54', dateTime: date });

    const mine = (await log(`?gid=${ghadi.GID}`)).data;
    expect(mine.map((row) => pick(row, ['seq', 'Result', 'Previous', 'Date', 'Name']))).toEqual([
      { seq: before + 1, Result: '45', Previous: null, Date: date, Name: ghadi.NameEn },
      { seq: before + 2, Result: '54', Previous: '45', Date: date, Name: ghadi.NameEn },
    ]);
    for (const entry of mine) {
      expect(entry.DeclaredAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(entry.DeclaredAt >= started).toBe(true);
      expect(Object.keys(entry)).toEqual([
        'seq',
        'GID',
        'Name',
        'Date',
        'Result',
        'Previous',
        'DeclaredAt',
        'prevHash',
        'hash',
        'Step',
      ]);
    }

    const { entries, head } = await everything();
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
    let previous = '0'.repeat(64);
    for (const entry of entries) {
      expect(entry.prevHash).toBe(previous);
      expect(entry.hash).toBe(hashOf(entry));
      previous = entry.hash;
    }
    expect(head).toEqual({ seq: entries.length, hash: previous });
    expect(expectStatus(await call(t.app, { url: '/api/declarations/head' }), 200)).toEqual({
      success: true,
      ...head,
    });
  });

  it('public results and ghadi rows say which values are corrections, and when each was declared', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '12', dateTime: today() });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '21', dateTime: today() });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '33', dateTime: daysFromToday(-1) });
    const entries = (await log(`?gid=${ghadi.GID}`)).data;
    const declaredAt = (date: string) => entries.filter((entry) => entry.Date === date).at(-1)?.DeclaredAt;

    const rows = expectStatus<List<PublicResultRecord>>(
      await call(t.app, { url: `/api/results/${encodeURIComponent(ghadi.NameEn)}` }),
      200,
    ).data;
    expect(rows.map((row) => pick(row, ['Date', 'Result', 'Corrected', 'Previous', 'DeclaredAt']))).toEqual([
      { Date: today(), Result: '21', Corrected: true, Previous: '12', DeclaredAt: declaredAt(today()) },
      {
        Date: daysFromToday(-1),
        Result: '33',
        Corrected: false,
        Previous: null,
        DeclaredAt: declaredAt(daysFromToday(-1)),
      },
    ]);
    const month = today().slice(0, 7);
    const listed = expectStatus<List<PublicResultRecord>>(
      await call(t.app, { url: `/api/results?month=${month}` }),
      200,
    );
    expect(listed.data.find((row) => row.GID === ghadi.GID && row.Date === today())).toMatchObject({
      Corrected: true,
      Previous: '12',
    });
    const ghadis = expectStatus<List<GhadiRecord>>(await call(t.app, { url: '/api/ghadis' }), 200).data;
    expect(ghadis.find((row) => row.GID === ghadi.GID)).toMatchObject({
      TodayResult: '21',
      Corrected: true,
      Previous: '12',
      DeclaredAt: declaredAt(today()),
    });
  });

  it('filters by ghadi and date, pages after a seq, caps the limit at 1000', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    for (const [days, value] of [
      [-3, '1'],
      [-2, '2'],
      [-1, '3'],
    ] as const)
      await submitResult(t.app, token, { ghadiId: ghadi.GID, result: value, dateTime: daysFromToday(days) });
    const all = (await log(`?gid=${ghadi.GID}`)).data;
    expect(all.map((entry) => entry.Result)).toEqual(['1', '2', '3']);
    const oneDate = (await log(`?gid=${ghadi.GID}&date=${daysFromToday(-2)}`)).data;
    expect(oneDate.map((entry) => entry.Result)).toEqual(['2']);
    const after = (await log(`?gid=${ghadi.GID}&after=${all[0]?.seq}&limit=1`)).data;
    expect(after.map((entry) => entry.Result)).toEqual(['2']);
    expect((await log('?limit=1000')).success).toBe(true);
    const tooMany = expectStatus<Failure>(await call(t.app, { url: '/api/declarations?limit=1001' }), 400);
    expect(tooMany.message).toMatch(/limit/);
  });

  it('simultaneous declarations get consecutive seqs and one unbroken chain', async () => {
    const token = await loginAdmin(t.app);
    const ghadis = await Promise.all([1, 2, 3, 4, 5].map(() => createGhadi(t.app, token)));
    const answers = await Promise.all(
      ghadis.map((ghadi, index) =>
        postResult(t.app, token, { ghadiId: ghadi.GID, result: String(index), dateTime: today() }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await logService().verify()).toEqual({ entries: (await log()).head.seq, problem: null });
  });

  it('a CSV import appends its created and corrected values in file order, nothing for unchanged lines', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    const [a, b] = [daysFromToday(-5), daysFromToday(-4)];
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '70', dateTime: a });
    const file = `Date,GID,Result\n${b},${ghadi.GID},80\n${a},${ghadi.GID},71\n`;
    const importing = (csv: string) =>
      call(t.app, {
        method: 'POST',
        url: '/api/results/import?dryRun=false',
        token,
        body: csv,
        headers: { 'content-type': 'text/csv' },
      });
    expectStatus(await importing(file), 200);
    expectStatus(await importing(file), 200);
    const entries = (await log(`?gid=${ghadi.GID}`)).data;
    expect(entries.map((row) => pick(row, ['Date', 'Result', 'Previous']))).toEqual([
      { Date: a, Result: '70', Previous: null },
      { Date: b, Result: '80', Previous: null },
      { Date: a, Result: '71', Previous: '70' },
    ]);
    expect((await logService().verify()).problem).toBeNull();
  });

  it('admins see who declared each value of a result; others may not', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    const date = daysFromToday(-1);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '5', dateTime: date });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '6', dateTime: date });
    const url = `/api/result-history?gid=${ghadi.GID}&date=${date}`;
    const history = expectStatus<List<DeclarationEntry & { DeclaredByName: string }>>(
      await call(t.app, { url, token }),
      200,
    ).data;
    expect(
      history.map(({ Result, Previous, DeclaredByName }) => ({ Result, Previous, DeclaredByName })),
    ).toEqual([
      { Result: '5', Previous: null, DeclaredByName: 'Administrator' },
      { Result: '6', Previous: '5', DeclaredByName: 'Administrator' },
    ]);
    expect((await call(t.app, { url })).statusCode).toBe(401);
    const publicEntries = JSON.stringify((await log(`?gid=${ghadi.GID}`)).data);
    expect(publicEntries).not.toMatch(/DeclaredBy|Administrator/);
  });

  it('writes the log at the first start for results stored before it, in time order', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    const date = daysFromToday(-2);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '10', dateTime: date });
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '11', dateTime: date });
    const expected = (await everything()).entries.map((row) =>
      pick(row, ['GID', 'Date', 'Result', 'Previous', 'DeclaredAt']),
    );
    // As a database from before the log: no entries (results and their history are kept).
    await sql`delete from declarations`.execute(t.database.db);
    await t.restart();
    const rebuilt = (await everything()).entries.map((row) =>
      pick(row, ['GID', 'Date', 'Result', 'Previous', 'DeclaredAt']),
    );
    // The same entries, in time order (entries of one instant, as an import's, may come in another order).
    const canonical = (list: typeof expected) => list.map((entry) => JSON.stringify(entry)).sort();
    expect(canonical(rebuilt)).toEqual(canonical(expected));
    const instants = rebuilt.map((entry) => entry.DeclaredAt);
    expect(instants).toEqual([...instants].sort());
    expect(rebuilt.filter((entry) => entry.GID === ghadi.GID).map((entry) => entry.Result)).toEqual([
      '10',
      '11',
    ]);
    expect((await logService().verify()).problem).toBeNull();
  });

  it('a result changed behind the log is caught by the server’s check and by npm run verify', async () => {
    const token = await loginAdmin(t.app);
    const ghadi = await createGhadi(t.app, token);
    await submitResult(t.app, token, { ghadiId: ghadi.GID, result: '42', dateTime: daysFromToday(-1) });
    const entry = (await log(`?gid=${ghadi.GID}`)).data[0];
    const base = await listen(t.app);
    const verify = () =>
      run(process.execPath, ['--import', 'tsx', 'src/server/cli/verify-log.ts', base]).then(
        (done) => ({ code: 0, out: done.stdout }),
        (failed: { code: number; stdout: string }) => ({ code: failed.code, out: failed.stdout }),
      );
    const good = await verify();
    expect(good.code).toBe(0);
    expect(good.out).toMatch(/^verified: \d+ entries, head seq \d+ hash [0-9a-f]{64}/);

    await sql`update results set value = '24' where gid = ${ghadi.GID}`.execute(t.database.db);
    const check = await logService().verify();
    expect(check.problem).toBe(
      `entry ${entry?.seq} (GID ${ghadi.GID} on ${daysFromToday(-1)}): declared "42" but "24" is published`,
    );
    // The public answers are cached: a restart reads the edited row, as a new process would.
    const restarted = await t.restart();
    const again = await listen(restarted);
    const bad = await run(process.execPath, ['--import', 'tsx', 'src/server/cli/verify-log.ts', again]).then(
      () => ({ code: 0, out: '' }),
      (failed: { code: number; stdout: string }) => ({ code: failed.code, out: failed.stdout }),
    );
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`NOT VERIFIED: entry ${entry?.seq} (GID ${ghadi.GID} on ${daysFromToday(-1)})`);
    await sql`update results set value = '42' where gid = ${ghadi.GID}`.execute(t.database.db);
  }, 60_000);
});
