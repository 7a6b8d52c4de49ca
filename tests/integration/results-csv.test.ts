import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import type { LiveEvent } from '../../src/shared/live-events.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import type { PublicResultRecord, ResultsImportAnswer } from '../../src/shared/schemas/results.js';
import {
  call,
  createAgentWithToken,
  createGhadi,
  expectStatus,
  type Failure,
  ghadiFields,
  type List,
  loginAdmin,
  type Response,
  submitResult,
  unique,
} from '../support/factories.js';
import { fetchRaw, listen, openEvents, type ReceivedEvent } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp, useTestApp } from '../support/test-app.js';

const MB = 1024 * 1024;

function exportCsv(app: FastifyInstance, token: string | undefined, query: string): Promise<Response> {
  return call(app, { url: `/api/results/export.csv?${query}`, ...(token ? { token } : {}) });
}

function importCsv(
  app: FastifyInstance,
  token: string | undefined,
  body: string,
  dryRun: boolean,
): Promise<Response> {
  return call(app, {
    method: 'POST',
    url: `/api/results/import?dryRun=${dryRun}`,
    body,
    headers: { 'content-type': 'text/csv; charset=utf-8' },
    ...(token ? { token } : {}),
  });
}

const answerOf = (response: Response) => response.json<ResultsImportAnswer>();

/** Days of one year no other test of the file uses, so that a range export holds this test's rows only. */
let nextYear = 2001;
const yearOfTheTest = () => {
  nextYear += 1;
  return nextYear;
};

/** A file of lines "date,gid,value" under the header Date,GID,Result. */
const fileOf = (lines: Array<[string, number, string]>) =>
  ['Date,GID,Result', ...lines.map((line) => line.join(','))].join('\n');

describe.each(DIALECTS)('results CSV [%s]', (dialect) => {
  const t = useTestApp(dialect);
  let adminToken: string;
  let agentToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
    agentToken = (await createAgentWithToken(t.app, adminToken)).token;
  });

  const declare = (gid: number, date: string, result: string) =>
    submitResult(t.app, adminToken, { ghadiId: gid, result, dateTime: date });

  describe('export', () => {
    it('streams a header, then rows by date then GID, quoting names as CSV needs', async () => {
      const year = yearOfTheTest();
      const first = await createGhadi(t.app, adminToken, { NameEn: unique('Comma, "Quoted" ') });
      const second = await createGhadi(t.app, adminToken);
      await declare(second.GID, `${year}-03-02`, '07');
      await declare(first.GID, `${year}-03-02`, '11');
      await declare(second.GID, `${year}-03-01`, '2*');
      await declare(first.GID, `${year}-03-03`, '99');
      await declare(first.GID, `${year}-04-01`, '00');

      const response = await exportCsv(t.app, adminToken, `from=${year}-03-01&to=${year}-03-31`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="results-${year}-03-01-${year}-03-31.csv"`,
      );
      const quoted = `"${first.NameEn.replaceAll('"', '""')}"`;
      expect(response.body).toBe(
        [
          'Date,GID,Name,Result',
          `${year}-03-01,${second.GID},${second.NameEn},2*`,
          `${year}-03-02,${first.GID},${quoted},11`,
          `${year}-03-02,${second.GID},${second.NameEn},07`,
          `${year}-03-03,${first.GID},${quoted},99`,
          '',
        ].join('\n'),
      );

      const one = await exportCsv(t.app, adminToken, `from=${year}-01-01&to=${year}-12-31&gid=${first.GID}`);
      expect(one.body.trim().split('\n').slice(1)).toEqual([
        `${year}-03-02,${first.GID},${quoted},11`,
        `${year}-03-03,${first.GID},${quoted},99`,
        `${year}-04-01,${first.GID},${quoted},00`,
      ]);
    });

    it('reads a long range in pages, every row once, and leaves deleted ghadis out', async () => {
      const year = yearOfTheTest();
      const ghadis = [await createGhadi(t.app, adminToken), await createGhadi(t.app, adminToken)];
      const gone = await createGhadi(t.app, adminToken);
      const lines: Array<[string, number, string]> = [];
      for (let day = 0; day < 365; day += 1) {
        for (const ghadi of [...ghadis, gone])
          lines.push([addDays(`${year}-01-01`, day), ghadi.GID, `${day}`]);
      }
      expectStatus(await importCsv(t.app, adminToken, fileOf(lines), false), 200);
      await call(t.app, { method: 'DELETE', url: `/api/ghadis/${gone._id}`, token: adminToken });

      const response = await exportCsv(t.app, adminToken, `from=${year}-01-01&to=${year}-12-31`);
      const rows = response.body.trim().split('\n').slice(1);
      expect(rows).toHaveLength(365 * 2);
      const ordered = lines.filter(([, gid]) => gid !== gone.GID);
      expect(rows.map((row) => row.split(',')[0])).toEqual(ordered.map(([date]) => date));
    });

    it('answers just the header for an empty range', async () => {
      const response = await exportCsv(t.app, adminToken, 'from=2000-01-01&to=2000-01-31');
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('Date,GID,Name,Result\n');
    });

    it('refuses a bad range with 400 naming the field', async () => {
      for (const [query, field] of [
        ['from=2020-02-01&to=2020-01-31', 'to: Must be on or after from'],
        ['from=2020-02-01', 'to'],
        ['to=2020-02-01', 'from'],
        ['from=2020-02-30&to=2020-03-01', 'from: Must be a date'],
        ['from=2020/01/01&to=2020-03-01', 'from: Must be a date'],
        ['from=2020-01-01&to=2020-03-01&gid=abc', 'gid'],
      ] as const) {
        const response = await exportCsv(t.app, adminToken, query);
        expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
        expect(response.json<Failure>().message).toContain(field);
      }
    });
  });

  it('both routes are for admins: 401 without a token, 403 for an agent', async () => {
    const range = 'from=2020-01-01&to=2020-01-31';
    expect((await exportCsv(t.app, undefined, range)).statusCode).toBe(401);
    expect((await exportCsv(t.app, agentToken, range)).statusCode).toBe(403);
    expect((await importCsv(t.app, undefined, 'Date,GID,Result\n', true)).statusCode).toBe(401);
    expect((await importCsv(t.app, agentToken, 'Date,GID,Result\n', false)).statusCode).toBe(403);
  });

  describe('import', () => {
    it('a dry run writes nothing and counts what the import then does; a second import changes nothing', async () => {
      const year = yearOfTheTest();
      const ghadi = await createGhadi(t.app, adminToken);
      await declare(ghadi.GID, `${year}-05-01`, '10');
      await declare(ghadi.GID, `${year}-05-02`, '20');
      const file = fileOf([
        [`${year}-05-01`, ghadi.GID, '10'],
        [`${year}-05-02`, ghadi.GID, '21'],
        [`${year}-05-03`, ghadi.GID, '30'],
        [`${year}-05-04`, ghadi.GID, ' 040 '],
      ]);
      const range = `from=${year}-01-01&to=${year}-12-31`;
      const before = (await exportCsv(t.app, adminToken, range)).body;

      const dry = expectStatus<ResultsImportAnswer>(await importCsv(t.app, adminToken, file, true), 200);
      expect(dry).toMatchObject({ success: true, dryRun: true, created: 2, corrected: 1, unchanged: 1 });
      expect(dry.errors).toEqual([]);
      expect((await exportCsv(t.app, adminToken, range)).body).toBe(before);

      const real = expectStatus<ResultsImportAnswer>(await importCsv(t.app, adminToken, file, false), 200);
      expect(real).toEqual({
        ...dry,
        dryRun: false,
        message: 'Imported: 2 created, 1 corrected, 1 unchanged',
      });
      expect((await exportCsv(t.app, adminToken, range)).body.trim().split('\n').slice(1)).toEqual([
        `${year}-05-01,${ghadi.GID},${ghadi.NameEn},10`,
        `${year}-05-02,${ghadi.GID},${ghadi.NameEn},21`,
        `${year}-05-03,${ghadi.GID},${ghadi.NameEn},30`,
        `${year}-05-04,${ghadi.GID},${ghadi.NameEn},040`,
      ]);

      const again = expectStatus<ResultsImportAnswer>(await importCsv(t.app, adminToken, file, false), 200);
      expect(again).toMatchObject({ success: true, created: 0, corrected: 0, unchanged: 4 });
    });

    it('a correction keeps the old value in result_history, by the importing admin', async () => {
      const year = yearOfTheTest();
      const ghadi = await createGhadi(t.app, adminToken);
      const declared = await declare(ghadi.GID, `${year}-06-01`, '15');
      const file = fileOf([[`${year}-06-01`, ghadi.GID, '51']]);
      expectStatus(await importCsv(t.app, adminToken, file, false), 200);
      const history = await t.database.db
        .selectFrom('result_history')
        .select(['old_value', 'new_value', 'changed_by'])
        .where('result_id', '=', Number(declared._id))
        .execute();
      expect(history).toEqual([{ old_value: '15', new_value: '51', changed_by: declared.CreatedById }]);
    });

    it('reads columns in any order and case, ignores others, finds names in any case; the GID wins', async () => {
      const year = yearOfTheTest();
      const named = await createGhadi(t.app, adminToken, { NameEn: unique('Éclair ') });
      const other = await createGhadi(t.app, adminToken);
      const file = [
        ' result ,Notes,NAME,date,gid',
        `1,anything,${named.NameEn.toUpperCase()},${year}-07-01,`,
        `2,,"${named.NameEn}",${year}-07-02,`,
        `3,,${named.NameEn},${year}-07-03,${other.GID}`,
      ].join('\r\n');
      const answer = expectStatus<ResultsImportAnswer>(await importCsv(t.app, adminToken, file, false), 200);
      expect(answer).toMatchObject({ created: 3, errorCount: 0 });
      const rows = (await exportCsv(t.app, adminToken, `from=${year}-07-01&to=${year}-07-31`)).body;
      expect(rows.trim().split('\n').slice(1)).toEqual([
        `${year}-07-01,${named.GID},${named.NameEn},1`,
        `${year}-07-02,${named.GID},${named.NameEn},2`,
        `${year}-07-03,${other.GID},${other.NameEn},3`,
      ]);
    });

    it('reports each bad line by its line in the file, and writes nothing', async () => {
      const year = yearOfTheTest();
      const ghadi = await createGhadi(t.app, adminToken);
      const deleted = await createGhadi(t.app, adminToken);
      await call(t.app, { method: 'DELETE', url: `/api/ghadis/${deleted._id}`, token: adminToken });
      const file = [
        'Date,GID,Name,Result',
        `${year}-08-01,${ghadi.GID},,12`,
        `${year}-02-30,${ghadi.GID},,12`,
        `${year}-08-02,999999,,12`,
        `${year}-08-03,,No Such Ghadi,12`,
        `${year}-08-04,${ghadi.GID},,1=2`,
        '',
        `${year}-08-01,${ghadi.GID},,13`,
        `${year}-08-05,${deleted.GID},,14`,
        `1999-12-31,${ghadi.GID},,15`,
        `${year}-08-06,${ghadi.GID},"two`,
        `lines",`,
      ].join('\n');
      const response = await importCsv(t.app, adminToken, file, false);
      expect(response.statusCode).toBe(400);
      const answer = answerOf(response);
      expect(answer).toMatchObject({ success: false, dryRun: false, errorCount: 8, created: 1 });
      expect(answer.message).toBe('8 lines have errors; nothing was imported');
      expect(answer.errors).toEqual([
        { line: 3, message: 'Date: Must be a date (YYYY-MM-DD)' },
        { line: 4, message: 'GID 999999: No such ghadi' },
        { line: 5, message: 'Name No Such Ghadi: No such ghadi' },
        { line: 6, message: 'Result: Use letters, digits, spaces or * # + - /' },
        { line: 8, message: `${ghadi.NameEn} on ${year}-08-01 is also on line 2` },
        { line: 9, message: `GID ${deleted.GID}: The ghadi ${deleted.NameEn} is deleted` },
        {
          line: 10,
          message: expect.stringMatching(/^Date: Must be between 2000-01-01 and \d{4}-\d{2}-\d{2}$/),
        },
        { line: 11, message: 'Result: This field is required' },
      ]);
      expect((await exportCsv(t.app, adminToken, `from=${year}-01-01&to=${year}-12-31`)).body).toBe(
        'Date,GID,Name,Result\n',
      );

      const dry = await importCsv(t.app, adminToken, file, true);
      expect(dry.statusCode).toBe(400);
      expect(answerOf(dry)).toEqual({ ...answer, dryRun: true, message: '8 lines have errors' });
    });

    it('a file without its header, or not CSV, fails at the line that says so', async () => {
      const cases: Array<[string, { line: number; message: string }]> = [
        ['', { line: 1, message: 'The file is empty; line 1 must be the header (Date,GID,Name,Result)' }],
        [
          'Date,GID\n2020-01-01,1',
          { line: 1, message: 'Line 1 must be the header (Date,GID,Name,Result); missing: Result' },
        ],
        [
          '2020-01-01,1,x,12',
          {
            line: 1,
            message: 'Line 1 must be the header (Date,GID,Name,Result); missing: Date, GID or Name, Result',
          },
        ],
        ['Date,Date,GID,Result', { line: 1, message: 'The column Date appears twice' }],
        [
          'Date,GID,Result\n2020-01-01,1,"12"x',
          { line: 2, message: expect.stringMatching(/^Not valid CSV: /) },
        ],
      ];
      for (const [file, error] of cases) {
        const response = await importCsv(t.app, adminToken, file, true);
        expect(response.statusCode).toBe(400);
        expect(answerOf(response).errors).toEqual([error]);
      }
    });

    it('takes only text/csv (415)', async () => {
      const response = await call(t.app, {
        method: 'POST',
        url: '/api/results/import?dryRun=true',
        token: adminToken,
        body: { Date: '2020-01-01' },
      });
      expect(response.statusCode).toBe(415);
      expect(response.json<Failure>().message).toBe('Send the file as the body, with Content-Type text/csv');
      const noFlag = await call(t.app, {
        method: 'POST',
        url: '/api/results/import',
        token: adminToken,
        body: 'Date,GID,Result\n',
        headers: { 'content-type': 'text/csv' },
      });
      expect(noFlag.statusCode).toBe(400);
      expect(noFlag.json<Failure>().message).toBe('dryRun: Must be true or false');
    });

    it('takes a file up to 10 MB, while every other route still stops at 1 MB', async () => {
      const ghadi = await createGhadi(t.app, adminToken);
      const year = yearOfTheTest();
      const big = `Date,GID,Result,Notes\n${year}-09-01,${ghadi.GID},1,${'n'.repeat(3 * MB)}\n`;
      const answer = expectStatus<ResultsImportAnswer>(await importCsv(t.app, adminToken, big, true), 200);
      expect(answer).toMatchObject({ created: 1, errorCount: 0 });

      const json = JSON.stringify({ Title: 'x', Slug: unique('big-'), Content: 'x'.repeat(2 * MB) });
      const other = await call(t.app, {
        method: 'POST',
        url: '/api/contentblocks',
        token: adminToken,
        body: json,
        headers: { 'content-type': 'application/json' },
      });
      expect(other.statusCode).toBe(413);
      expect(other.json<Failure>().message).toBe('Request body is too large (limit 1 MB)');

      const tooBig = await importCsv(t.app, adminToken, `Date,GID,Result\n${'x'.repeat(10 * MB)}`, true);
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json<Failure>().message).toBe('Request body is too large (limit 10 MB)');
    });

    it('round trip: an export imported into a fresh app exports the same bytes', async () => {
      const year = yearOfTheTest();
      const ghadis = [
        await createGhadi(t.app, adminToken, { NameEn: unique('Round, "Trip" ') }),
        await createGhadi(t.app, adminToken, { NameEn: unique('गली ') }),
        // Would run as a formula in a spreadsheet: exported with a leading apostrophe, imported without.
        await createGhadi(t.app, adminToken, { NameEn: unique('=HYPERLINK(') }),
      ];
      const lines: Array<[string, number, string]> = [];
      for (let day = 0; day < 40; day += 1) {
        for (const [index, ghadi] of ghadis.entries())
          lines.push([
            addDays(`${year}-01-01`, day),
            ghadi.GID,
            ['0 7', '#1', '*', '09', '+1-2'][(day + index) % 5] ?? '',
          ]);
      }
      expectStatus(await importCsv(t.app, adminToken, fileOf(lines), false), 200);
      const range = `from=${year}-01-01&to=${year}-12-31`;
      const exported = (await exportCsv(t.app, adminToken, range)).body;
      expect(exported).toContain(`,'=HYPERLINK(`);
      expect(exported).toContain(",'+1-2\n");
      expect(exported).not.toMatch(/,[=+@-]/);

      const fresh = await createTestApp(dialect);
      try {
        const freshToken = await loginAdmin(fresh.app);
        for (const { NameEn, GID } of ghadis) {
          const body = { ...ghadiFields({ NameEn }), GID };
          expectStatus(
            await call(fresh.app, { method: 'POST', url: '/api/ghadis', token: freshToken, body }),
            201,
          );
        }
        const answer = expectStatus<ResultsImportAnswer>(
          await importCsv(fresh.app, freshToken, exported, false),
          200,
        );
        expect(answer.created).toBe(120);
        expect((await exportCsv(fresh.app, freshToken, range)).body).toBe(exported);
      } finally {
        await fresh.close();
      }
    });
  });
});

describe.each(DIALECTS)('results CSV and the public site [%s]', (dialect) => {
  let own: TestApp;
  let base: string;
  let adminToken: string;

  beforeAll(async () => {
    own = await createTestApp(dialect);
    base = await listen(own.app);
    adminToken = await loginAdmin(own.app);
  });
  afterAll(async () => {
    await own?.close();
  });

  const publicResults = async (ghadi: GhadiRecord, year: number) =>
    expectStatus<List<PublicResultRecord>>(
      await call(own.app, { url: `/api/results/${encodeURIComponent(ghadi.NameEn)}?month=1&year=${year}` }),
      200,
    ).data.map((row) => `${row.Date} ${row.Result}`);

  it('a bulk import sends one resync, and the public answers show its values', async () => {
    const ghadi = await createGhadi(own.app, adminToken);
    await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '1', dateTime: '2019-01-01' });
    expect(await publicResults(ghadi, 2019)).toEqual(['2019-01-01 1']);
    const stream = await openEvents(base);
    try {
      const lines: Array<[string, number, string]> = [];
      for (let day = 0; day < 31; day += 1)
        lines.push([addDays('2019-01-01', day), ghadi.GID, `${day + 50}`]);
      for (let day = 0; day < 31; day += 1) lines.push([addDays('2018-01-01', day), ghadi.GID, `${day}`]);
      expectStatus(await importCsv(own.app, adminToken, fileOf(lines), false), 200);

      await stream.waitFor((events) => events.length >= 1);
      // A small import after it: its events arrive after the resync, so nothing else came in between.
      await submitResult(own.app, adminToken, { ghadiId: ghadi.GID, result: '9', dateTime: '2017-01-01' });
      const events = await stream.waitFor((received) => received.length >= 2);
      expect(events.map((event) => (event.data as LiveEvent).kind)).toEqual(['resync', 'result']);
      const shown = await publicResults(ghadi, 2019);
      expect(shown).toHaveLength(31);
      expect(shown.at(-1)).toBe('2019-01-01 50');
    } finally {
      stream.close();
    }
  });

  it('a small import sends one result event per result', async () => {
    const ghadi = await createGhadi(own.app, adminToken);
    const stream = await openEvents(base);
    try {
      const file = fileOf([
        ['2016-01-01', ghadi.GID, '1'],
        ['2016-01-02', ghadi.GID, '2'],
      ]);
      expectStatus(await importCsv(own.app, adminToken, file, false), 200);
      // The ghadi's own creation may still be on its way to the new stream: results only.
      const ofGhadi = (received: ReceivedEvent[]) =>
        received.filter((event) => {
          const data = event.data as { gid?: number; kind?: string };
          return data.kind === 'result' && data.gid === ghadi.GID;
        });
      const events = ofGhadi(await stream.waitFor((received) => ofGhadi(received).length >= 2));
      expect(events.map((event) => event.data)).toMatchObject([
        { kind: 'result', gid: ghadi.GID, date: '2016-01-01', result: { Result: '1' } },
        { kind: 'result', gid: ghadi.GID, date: '2016-01-02', result: { Result: '2' } },
      ]);
      expect(await publicResults(ghadi, 2016)).toEqual(['2016-01-02 2', '2016-01-01 1']);
    } finally {
      stream.close();
    }
  });

  it('the fast path leaves /api/results/export.csv to its route, not to a ghadi of that name', async () => {
    const range = '?from=2016-01-01&to=2016-01-31';
    const anonymous = await fetchRaw(base, `/api/results/export.csv${range}`);
    expect(anonymous.status).toBe(401);
    const admin = await fetchRaw(base, `/api/results/export.csv${range}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(admin.status).toBe(200);
    expect(admin.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(admin.body.toString()).toMatch(/^Date,GID,Name,Result\n2016-01-01,/);
    const reserved = await call(own.app, {
      method: 'POST',
      url: '/api/ghadis',
      token: adminToken,
      body: { NameEn: 'Export.CSV', NameHn: 'x', RTime: '1 PM', OrderId: 1 },
    });
    expect(reserved.statusCode).toBe(400);
  });
});
