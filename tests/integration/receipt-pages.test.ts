import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longDate } from '../../src/shared/date-labels.js';
import { dateInZone, timeInZone } from '../../src/shared/dates.js';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  daysFromToday,
  expectStatus,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { insertTwin } from '../support/shared-receipts.js';
import {
  createTestApp,
  DIALECTS,
  noteUnbuilt,
  SITE_TIMEZONE,
  type TestApp,
  WEB_BUILT,
} from '../support/test-app.js';

noteUnbuilt('receipt-pages.test.ts');

const receiptOf = (entry: { hash: string }) => entry.hash.slice(0, 10);

/** A page's visible text: tags and React's text separators out, white space folded. */
function textOf(html: string): string {
  const body = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
  return body
    .replaceAll('<!-- -->', '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');
}

/** When an entry was declared, as the page says it: the date and time in the site's zone. */
function declaredAt(entry: DeclarationEntry, language: 'en' | 'hi'): string {
  const date = longDate(dateInZone(new Date(entry.DeclaredAt), SITE_TIMEZONE), language);
  return `${date}, ${timeInZone(entry.DeclaredAt, SITE_TIMEZONE)}`;
}

/** /r/{receipt} and /hi/r/{receipt}: one log entry by its receipt, rendered by the server. */
describe.skipIf(!WEB_BUILT).each(DIALECTS)('receipt pages [%s]', (dialect) => {
  let web: TestApp;
  let token: string;
  let ghadi: GhadiRecord;
  let entries: DeclarationEntry[];
  beforeAll(async () => {
    web = await createTestApp(dialect, { serveWebApp: true });
    token = await loginAdmin(web.app);
    ghadi = await createGhadi(web.app, token, { NameEn: unique('Receipt Bazar '), NameHn: 'रसीद बाज़ार' });
    for (const result of ['45', '54', '55'])
      await submitResult(web.app, token, { ghadiId: ghadi.GID, result, dateTime: daysFromToday(-1) });
    entries = expectStatus<{ data: DeclarationEntry[] }>(
      await call(web.app, { url: `/api/declarations?gid=${ghadi.GID}` }),
      200,
    ).data;
  });
  afterAll(async () => {
    await web?.close();
  });
  const page = (url: string) => call(web.app, { url });
  const at = (index: number) => entries[index] as DeclarationEntry;

  it('the latest entry: ghadi, date, value, when, what it corrected, its seq and hash, and that it stands', async () => {
    const entry = at(2);
    const response = await page(`/r/${receiptOf(entry)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).toContain(`<link rel="canonical" href="/r/${receiptOf(entry)}" />`);
    const text = textOf(html);
    expect(text).toContain(`Receipt ${receiptOf(entry)}`);
    expect(text).toContain(ghadi.NameEn);
    expect(text).toContain(longDate(daysFromToday(-1)));
    expect(html).toMatch(/data-testid="receipt-result"[^>]*><span[^>]*>55<\/span>/);
    expect(text).toContain(`${declaredAt(entry, 'en')} (${SITE_TIMEZONE} time)`);
    expect(text).toContain('A correction: it replaced 54.');
    expect(html).toMatch(new RegExp(`data-testid="receipt-seq">${entry.seq}<`));
    expect(html).toContain(`data-testid="receipt-hash">${entry.hash}<`);
    expect(text).toContain(
      `This is the latest entry for ${ghadi.NameEn} on ${longDate(daysFromToday(-1))}: 55 is the result this site shows.`,
    );
    // How to check it: the log's instructions, and this entry in the log's API.
    expect(html).toContain('href="/declarations#verify-title"');
    expect(html).toContain(`href="/api/declarations?after=${entry.seq - 1}&amp;limit=1"`);
    // The proof: the latest checkpoint as served, the proof's size, and how to check it by hand.
    const checkpoint = (await page('/api/log/checkpoint')).body;
    expect(/data-testid="receipt-checkpoint"[^>]*>([^<]*)<\/pre>/.exec(html)?.[1]).toBe(checkpoint);
    expect(text).toContain(`in a log of ${checkpoint.split('\n')[1]} entries`);
    expect(text).toContain('To check it by hand (or without JavaScript)');
    expect(html).toContain('href="/api/log/key"');
  });

  it('a corrected entry says so and links the entry that corrected it and the current one', async () => {
    const response = await page(`/r/${receiptOf(at(0))}`);
    expect(response.statusCode).toBe(200);
    const text = textOf(response.body);
    expect(text).toContain('The first declaration of this result.');
    expect(text).toContain('This is no longer the result: it was later corrected to 54.');
    expect(text).toContain('It changed again afterwards: the result now is 55.');
    expect(response.body).toContain(`href="/r/${receiptOf(at(1))}"`);
    expect(response.body).toContain(`href="/r/${receiptOf(at(2))}"`);
    expect(text).not.toContain('This is the latest entry');
  });

  it('in Hindi under /hi: the ghadi’s Hindi name, Hindi words, links that stay in Hindi', async () => {
    const response = await page(`/hi/r/${receiptOf(at(1))}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<html lang="hi">');
    const text = textOf(response.body);
    expect(text).toContain(`रसीद ${receiptOf(at(1))}`);
    expect(text).toContain('रसीद बाज़ार');
    expect(text).toContain(longDate(daysFromToday(-1), 'hi'));
    expect(text).toContain(`${declaredAt(at(1), 'hi')} (${SITE_TIMEZONE} समय)`);
    expect(text).toContain('एक सुधार: इसने 45 की जगह ली।');
    expect(text).toContain('यह अब रिज़ल्ट नहीं है: बाद में इसे सुधारकर 55 किया गया।');
    expect(response.body).toContain(`href="/hi/r/${receiptOf(at(2))}"`);
    expect(response.body).toContain('href="/hi/declarations#verify-title"');
  });

  it('an upper-case receipt shows the same entry', async () => {
    const response = await page(`/r/${receiptOf(at(2)).toUpperCase()}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`data-testid="receipt-hash">${at(2).hash}<`);
  });

  it('an unknown or malformed receipt is the site’s 404 page, in the address’s language', async () => {
    const known = new Set(
      expectStatus<{ data: DeclarationEntry[] }>(
        await call(web.app, { url: '/api/declarations?limit=1000' }),
        200,
      ).data.map(receiptOf),
    );
    const unknown = ['0123456789', 'abcdefabcd'].find((code) => !known.has(code)) as string;
    for (const [url, title] of [
      [`/r/${unknown}`, 'Page not found'],
      ['/r/not-a-receipt', 'Page not found'],
      [`/r/${unknown}0`, 'Page not found'],
      [`/hi/r/${unknown}`, 'पेज नहीं मिला'],
    ] as const) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(response.body, url).toContain(`<title>${title}`);
      expect(response.body, url).toContain('<meta name="robots" content="noindex" />');
    }
  });

  it('a correction drops the kept page: it then says the value was replaced, and links the new one', async () => {
    const other = await createGhadi(web.app, token);
    await submitResult(web.app, token, { ghadiId: other.GID, result: '20', dateTime: today() });
    const [first] = expectStatus<{ data: DeclarationEntry[] }>(
      await call(web.app, { url: `/api/declarations?gid=${other.GID}` }),
      200,
    ).data as [DeclarationEntry];
    const before = await page(`/r/${receiptOf(first)}`);
    expect(textOf(before.body)).toContain('This is the latest entry');
    expect(String(before.headers['surrogate-key']).split(' ')).toContain(
      `month-${other.GID}-${today().slice(0, 7)}`,
    );

    await submitResult(web.app, token, { ghadiId: other.GID, result: '02', dateTime: today() });
    const after = await page(`/r/${receiptOf(first)}`);
    const text = textOf(after.body);
    expect(text).not.toContain('This is the latest entry');
    expect(text).toContain('it was later corrected to 02');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('a later declaration drops the kept page: it then shows the newer checkpoint', async () => {
    const url = `/hi/r/${receiptOf(at(0))}`;
    const before = await page(url);
    expect(String(before.headers['surrogate-key']).split(' ')).toContain('log');
    await submitResult(web.app, token, {
      ghadiId: (await createGhadi(web.app, token)).GID,
      result: '11',
      dateTime: today(),
    });
    const checkpoint = (await page('/api/log/checkpoint')).body;
    const after = await page(url);
    expect(before.body).not.toContain(checkpoint);
    expect(after.body).toContain(checkpoint);
    expect(textOf(after.body)).toContain(`${checkpoint.split('\n')[1]} एंट्रियों के लॉग में`);
  });

  it('a receipt two entries’ hashes begin with is a 409 page listing both by their own receipts', async () => {
    const entry = at(1);
    const head = expectStatus<{ seq: number; hash: string }>(
      await call(web.app, { url: '/api/declarations/head' }),
      200,
    );
    const twin = await insertTwin(web.database, head, entry, {
      gid: ghadi.GID,
      date: daysFromToday(-9),
      length: 11,
    });
    const response = await page(`/r/${receiptOf(entry)}`);
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain('<meta name="robots" content="noindex" />');
    const text = textOf(response.body);
    expect(text).toContain('Several entries’ hashes begin with this receipt.');
    expect(response.body).toContain(`href="/r/${entry.hash.slice(0, 12)}"`);
    expect(response.body).toContain(`href="/r/${twin.slice(0, 12)}"`);
    expect(text).toContain(entry.hash);
    expect(text).toContain(twin);
    const own = await page(`/r/${entry.hash.slice(0, 12)}`);
    expect(own.statusCode).toBe(200);
    expect(textOf(own.body)).toContain(`Receipt ${entry.hash.slice(0, 12)}`);
  });
});
