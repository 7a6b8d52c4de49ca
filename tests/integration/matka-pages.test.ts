import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import { ALL_DAYS, weekdayOf } from '../../src/shared/matka.js';
import type { GhadiInput, GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  expectStatus,
  ghadiFields,
  type Item,
  loginAdmin,
  submitResult,
  today,
  unique,
} from '../support/factories.js';
import { createTestApp, DIALECTS, noteUnbuilt, type TestApp, WEB_BUILT } from '../support/test-app.js';

noteUnbuilt('matka-pages.test.ts');

/**
 * The public pages of open/close markets, starline draws and closed days, as they arrive without
 * JavaScript: the server's HTML. Nothing here depends on the hour: the values and closures shown do not.
 */
describe.skipIf(!WEB_BUILT).each(DIALECTS)('server-rendered pages of every kind of ghadi [%s]', (dialect) => {
  let web: TestApp;
  let token: string;
  beforeAll(async () => {
    web = await createTestApp(dialect, { serveWebApp: true });
    token = await loginAdmin(web.app);
  });
  afterAll(async () => {
    await web?.close();
  });

  const page = async (url: string) => {
    const response = await call(web.app, { url });
    expect([url, response.statusCode]).toEqual([url, 200]);
    return response.body;
  };
  const create = async (fields: Partial<GhadiInput>) =>
    expectStatus<Item<GhadiRecord>>(
      await call(web.app, {
        method: 'POST',
        url: '/api/ghadis',
        token,
        body: { ...ghadiFields({ OrderId: 0 }), ...fields },
      }),
      201,
    ).data;
  const declare = (ghadi: GhadiRecord, result: string) =>
    submitResult(web.app, token, { ghadiId: ghadi.GID, result, dateTime: today() });
  const market = () =>
    create({
      NameEn: unique('Kalyan '),
      NameHn: 'कल्याण',
      Kind: 'open-close',
      OpenTime: '3:45 PM',
      RTime: '5:45 PM',
    });

  /** A ghadi's card on the home board: from its item to the item's end. */
  function card(html: string, ghadi: GhadiRecord): string {
    const start = html.indexOf(`data-gid="${ghadi.GID}"`);
    expect(start).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf('</li>', start));
  }
  /** Today's row of a ghadi's month. */
  function todayRow(html: string): string {
    const start = html.indexOf(`<th scope="row">${today().slice(8, 10)}</th>`);
    expect(start).toBeGreaterThan(-1);
    return html.slice(start, html.indexOf('</tr>', start));
  }

  it('the home board shows a market’s open half with its close time, then the whole day, in both languages', async () => {
    const ghadi = await market();
    expect((await declare(ghadi, '123')).Result).toBe('123-6');
    const english = card(await page('/'), ghadi);
    expect(english).toContain('>123-6</span>');
    expect(english).toMatch(/data-testid="close-due"[^>]*>Close 5:45 PM<\/span>/);
    expect(english).toContain('Open 3:45 PM</span>');
    expect(english).toMatch(/Open declared<!-- --> <!-- -->at <time/);
    const hindi = card(await page('/hi'), ghadi);
    expect(hindi).toContain('>123-6</span>');
    expect(hindi).toMatch(/data-testid="close-due"[^>]*>क्लोज़ 5:45 PM<\/span>/);
    expect(hindi).toContain('ओपन 3:45 PM</span>');

    expect((await declare(ghadi, '459')).Result).toBe('123-68-459');
    for (const path of ['/', '/hi']) {
      const complete = card(await page(path), ghadi);
      expect(complete).toContain('>123-68-459</span>');
      expect(complete).not.toContain('close-due');
      expect(complete).toMatch(path === '/' ? />Declared<!-- --> <!-- -->at <time/ : />घोषित<!-- --> <time/);
    }
  });

  it('the home board says a ghadi on its holiday, or on a weekday it does not run, is closed', async () => {
    const onHoliday = await market();
    await call(web.app, {
      method: 'POST',
      url: '/api/holidays',
      token,
      body: { Date: today(), GID: onHoliday.GID, Note: 'Diwali' },
    }).then((response) => expect(response.statusCode).toBe(201));
    const offToday = await create({
      NameEn: unique('Weekday '),
      Days: ALL_DAYS.filter((day) => day !== weekdayOf(today())),
    });
    const english = await page('/');
    expect(card(english, onHoliday)).toContain(
      'data-testid="state" class="mt-1 text-sm font-semibold text-slate-700">Holiday</p>',
    );
    expect(card(english, onHoliday)).not.toContain('data-testid="waiting"');
    expect(card(english, offToday)).toContain('>Closed today</p>');
    expect(english).toMatch(/ waiting · <!-- -->2<!-- --> closed today/);
    const hindi = await page('/hi');
    expect(card(hindi, onHoliday)).toContain('>छुट्टी</p>');
    expect(card(hindi, offToday)).toContain('>आज बंद</p>');
    expect(hindi).toMatch(/ इंतज़ार में<!-- --> · <!-- -->2<!-- --> बंद/);
  });

  it('the results page shows the stored form of each step, and the market’s times, in both languages', async () => {
    const ghadi = await market();
    const path = `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}`;
    await declare(ghadi, '123-6');
    const opened = await page(path);
    expect(opened).toContain('Open 3:45 PM · Close 5:45 PM');
    expect(todayRow(opened)).toContain(
      `<td class="v"><button type="button" class="rc" data-date="${today()}" aria-haspopup="dialog">123-6</button></td>`,
    );
    await declare(ghadi, '8-459');
    expect(todayRow(await page(path))).toContain(
      `<td class="v"><button type="button" class="rc" data-date="${today()}" aria-haspopup="dialog">123-68-459</button></td>`,
    );
    const hindi = await page(`/hi${path}`);
    expect(hindi).toContain('ओपन 3:45 PM · क्लोज़ 5:45 PM');
    expect(todayRow(hindi)).toContain(
      `<td class="v"><button type="button" class="rc" data-date="${today()}" aria-haspopup="dialog">123-68-459</button></td>`,
    );
  });

  it('the results page marks a past day the ghadi does not run as closed, in both languages', async () => {
    // Last month: every day of it is past, whatever today is.
    const lastMonth = addDays(`${today().slice(0, 7)}-01`, -1).slice(0, 7);
    const [ran, off] = [`${lastMonth}-10`, `${lastMonth}-11`];
    const ghadi = await create({
      NameEn: unique('Weekday '),
      Days: ALL_DAYS.filter((day) => day !== weekdayOf(off)),
    });
    await submitResult(web.app, token, { ghadiId: ghadi.GID, result: '45', dateTime: ran });
    const [year, month] = lastMonth.split('-').map(Number) as [number, number];
    const path = `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}?month=${month}&year=${year}`;
    for (const [prefix, closed] of [
      ['', 'Closed'],
      ['/hi', 'बंद'],
    ] as const) {
      const html = await page(`${prefix}${path}`);
      expect(html).toContain(
        `<th scope="row">10</th><td class="v"><button type="button" class="rc" data-date="${ran}" aria-haspopup="dialog">45</button></td>`,
      );
      expect(html).toContain(
        `<th scope="row">11</th><td class="n" data-testid="closed">${closed}</td><td></td>`,
      );
      expect(html).toContain(
        `<th scope="row">18</th><td class="n" data-testid="closed">${closed}</td><td></td>`,
      );
      // A day it runs, without a value, is still "No result".
      expect(html).toMatch(/<th scope="row">12<\/th><td class="n" aria-label="[^"]+">–<\/td>/);
    }
  });

  it('a starline draw shows its panna and ank on the board and its month; its charts carry its kind', async () => {
    const star = await create({ NameEn: unique('Star '), Kind: 'panna', RTime: '1:00 PM' });
    expect((await declare(star, '128')).Result).toBe('128-1');
    expect(card(await page('/'), star)).toContain('>128-1</span>');
    const path = `/satta-results/${encodeURIComponent(star.NameEn.toLowerCase())}`;
    expect(todayRow(await page(path))).toContain(
      `<td class="v"><button type="button" class="rc" data-date="${today()}" aria-haspopup="dialog">128-1</button></td>`,
    );
    const year = today().slice(0, 4);
    const chart = (
      await call(web.app, { url: `/api/charts/${encodeURIComponent(star.NameEn)}/${year}` })
    ).json<{
      data: { Kind?: string };
    }>();
    expect(chart.data.Kind).toBe('panna');
  });

  it('a market’s year chart shows its jodi, with the whole result as the cell’s title and name', async () => {
    const ghadi = await market();
    await declare(ghadi, '123-68-459');
    const html = await page(
      `/satta-results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}/${today().slice(0, 4)}`,
    );
    expect(html).toMatch(/<td aria-current="date" title="123-68-459" aria-label="123-68-459">68<\/td>/);
    const month = await page(`/chart/${today().slice(0, 7)}`);
    expect(month).toContain('title="123-68-459" aria-label="123-68-459">68</td>');
  });
});
