import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclarationEntry } from '../../src/shared/schemas/declarations.js';
import type { GhadiRecord } from '../../src/shared/schemas/ghadis.js';
import {
  call,
  createGhadi,
  expectStatus,
  type Failure,
  loginAdmin,
  submitResult,
  unique,
} from '../support/factories.js';
import { writePagesBuild } from '../support/pages-build.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';
import { childrenNamed, childText, parseXml, type XmlElement } from '../support/xml.js';

const SITE = 'https://results.example';
const ZONE = 'Asia/Kolkata';
// Dates far back, so that the declarations are no one else's and never today's.
const DAY = '2004-05-06';
const NEXT_DAY = '2004-05-07';

const pagePath = (name: string) => `/satta-results/${encodeURIComponent(name.toLowerCase())}`;

/** An iCalendar file's content lines, unfolded (RFC 5545 3.1), each split into name, parameters and value. */
interface IcsLine {
  name: string;
  params: string;
  value: string;
}
function icsLines(body: string): IcsLine[] {
  expect(body).toMatch(/\r\n$/);
  return body
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      const head = line.slice(0, colon);
      const semicolon = head.indexOf(';');
      return {
        name: semicolon === -1 ? head : head.slice(0, semicolon),
        params: semicolon === -1 ? '' : head.slice(semicolon + 1),
        value: line.slice(colon + 1),
      };
    });
}

/** The components of a calendar, checked to nest (BEGIN/END) and to be one VCALENDAR. */
function icsEvents(body: string): Array<Map<string, IcsLine>> {
  const lines = icsLines(body);
  expect(lines[0]).toEqual({ name: 'BEGIN', params: '', value: 'VCALENDAR' });
  expect(lines.at(-1)).toEqual({ name: 'END', params: '', value: 'VCALENDAR' });
  const stack: string[] = [];
  const events: Array<Map<string, IcsLine>> = [];
  let event: Map<string, IcsLine> | null = null;
  for (const line of lines) {
    if (line.name === 'BEGIN') {
      stack.push(line.value);
      if (line.value === 'VEVENT') event = new Map();
    } else if (line.name === 'END') {
      expect(stack.pop()).toBe(line.value);
      if (line.value === 'VEVENT' && event) {
        events.push(event);
        event = null;
      }
    } else if (event) {
      event.set(line.name, line);
    }
  }
  expect(stack).toEqual([]);
  return events;
}

/** Each event by its UID. */
const byUid = (events: Array<Map<string, IcsLine>>) =>
  new Map(events.map((event) => [event.get('UID')?.value ?? '', event]));

describe.each(DIALECTS)('feeds and calendars [%s]', (dialect) => {
  const dir = tempDir();
  let t: TestApp;
  let token: string;
  let daily: GhadiRecord;
  let market: GhadiRecord;
  let doomed: GhadiRecord;

  const declare = (gid: number, result: string, dateTime = DAY) =>
    submitResult(t.app, token, { ghadiId: gid, result, dateTime });
  const get = (url: string, headers: Record<string, string> = {}) => call(t.app, { url, headers });
  /** The log's entries of a ghadi, newest first, as the public API lists them. */
  const logOf = async (gid: number): Promise<DeclarationEntry[]> => {
    const answer = expectStatus<{ data: DeclarationEntry[] }>(
      await get(`/api/declarations?gid=${gid}&limit=500`),
      200,
    );
    return answer.data.reverse();
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      env: { PUBLIC_URL: SITE, WEB_ROOT: writePagesBuild(dir()), SITE_TIMEZONE: ZONE },
      serveWebApp: true,
    });
    token = await loginAdmin(t.app);
    daily = await createGhadi(t.app, token, { NameEn: unique('Cal Daily'), RTime: '11:30 PM' });
    market = await createGhadi(t.app, token, {
      NameEn: unique('Cal Market'),
      Kind: 'open-close',
      OpenTime: '3:45 PM',
      RTime: '17:45',
      Days: [1, 2, 3, 4, 5, 6],
    });
    doomed = await createGhadi(t.app, token, { NameEn: unique('Cal Doomed'), RTime: '9:00 AM' });
    await declare(daily.GID, '45');
    // A correction of the same day, then another day's declaration.
    await declare(daily.GID, '54');
    await declare(daily.GID, '07', NEXT_DAY);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('calendars', () => {
    it('/calendar.ics has a daily or weekly event per live ghadi and time, in the site zone', async () => {
      const answer = await get('/calendar.ics');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(answer.body).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
      // The zone's definition, for clients that do not know it by name.
      expect(answer.body).toContain(`BEGIN:VTIMEZONE\r\nTZID:${ZONE}\r\n`);
      const events = byUid(icsEvents(answer.body));

      const result = events.get(`ghadi-${daily.GID}-result@ghadi-results.calendar`);
      expect(result?.get('RRULE')?.value).toBe('FREQ=DAILY');
      expect(result?.get('DTSTART')).toEqual({
        name: 'DTSTART',
        params: `TZID=${ZONE}`,
        value: '20260101T233000',
      });
      expect(result?.get('SUMMARY')?.value).toBe(`${daily.NameEn} result`);
      expect(result?.get('URL')?.value).toBe(`${SITE}${pagePath(daily.NameEn)}`);
      expect(result?.get('DESCRIPTION')?.value).toContain(daily.NameHn);
      // A daily ghadi has no open event.
      expect(events.has(`ghadi-${daily.GID}-open@ghadi-results.calendar`)).toBe(false);

      // The market: its open and its close, Monday to Saturday, each starting on a day it runs.
      const open = events.get(`ghadi-${market.GID}-open@ghadi-results.calendar`);
      const close = events.get(`ghadi-${market.GID}-result@ghadi-results.calendar`);
      expect(open?.get('RRULE')?.value).toBe('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA');
      expect(close?.get('RRULE')?.value).toBe('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA');
      // 2026-01-01 is a Thursday, a day it runs.
      expect(open?.get('DTSTART')?.value).toBe('20260101T154500');
      expect(close?.get('DTSTART')?.value).toBe('20260101T174500');
      expect(close?.get('DTSTART')?.params).toBe(`TZID=${ZONE}`);
      expect(open?.get('SUMMARY')?.value).toBe(`${market.NameEn} open`);

      // Every event is one ghadi's: as many as the live ghadis' times.
      const ghadis = expectStatus<{ data: GhadiRecord[] }>(await get('/api/ghadis'), 200).data;
      const times = ghadis.reduce(
        (count, ghadi) => count + 1 + (ghadi.Kind === 'open-close' && ghadi.OpenTime ? 1 : 0),
        0,
      );
      expect(events.size).toBe(times);
      for (const event of events.values()) expect(event.get('DTSTAMP')?.value).toMatch(/Z$/);
    });

    it("a ghadi's calendar has its events only, for any spelling of its name; an unknown one is 404", async () => {
      const own = await get(`${pagePath(market.NameEn)}/calendar.ics`);
      expect(own.statusCode).toBe(200);
      expect(own.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect([...byUid(icsEvents(own.body)).keys()].sort()).toEqual(
        [
          `ghadi-${market.GID}-open@ghadi-results.calendar`,
          `ghadi-${market.GID}-result@ghadi-results.calendar`,
        ].sort(),
      );
      const respelled = await get(
        `/satta-results/${encodeURIComponent(market.NameEn.toUpperCase().replaceAll(' ', '-'))}/calendar.ics`,
      );
      expect(respelled.statusCode).toBe(200);
      expect(respelled.body).toBe(own.body);

      const unknown = await get(`/satta-results/${unique('nobody')}/calendar.ics`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<Failure>().success).toBe(false);
    });

    it('is kept, and a renamed, retimed or deleted ghadi changes it on the next request', async () => {
      const first = await get('/calendar.ics');
      const again = await get('/calendar.ics');
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(first.headers['surrogate-key']).toContain(`ghadi-${doomed.GID}`);
      const ownBefore = await get(`${pagePath(doomed.NameEn)}/calendar.ics`);
      expect(ownBefore.body).toContain('DTSTART;TZID=Asia/Kolkata:20260101T090000');

      // A new time (a change of the ghadi alone: its key).
      expectStatus(
        await call(t.app, {
          method: 'PUT',
          url: `/api/ghadis/${doomed.GID}`,
          token,
          body: { NameEn: doomed.NameEn, NameHn: doomed.NameHn, RTime: '9:15 AM', OrderId: doomed.OrderId },
        }),
        200,
      );
      const retimed = await get('/calendar.ics');
      expect(retimed.body).toContain('DTSTART;TZID=Asia/Kolkata:20260101T091500');
      const ownAfter = await get(`${pagePath(doomed.NameEn)}/calendar.ics`);
      expect(ownAfter.body).toContain('DTSTART;TZID=Asia/Kolkata:20260101T091500');

      // A new name.
      const renamed = unique('Cal Renamed');
      expectStatus(
        await call(t.app, {
          method: 'PUT',
          url: `/api/ghadis/${doomed.GID}`,
          token,
          body: { NameEn: renamed, NameHn: doomed.NameHn, RTime: '9:15 AM', OrderId: doomed.OrderId },
        }),
        200,
      );
      const afterRename = byUid(icsEvents((await get('/calendar.ics')).body));
      const event = afterRename.get(`ghadi-${doomed.GID}-result@ghadi-results.calendar`);
      expect(event?.get('SUMMARY')?.value).toBe(`${renamed} result`);
      expect(event?.get('URL')?.value).toBe(`${SITE}${pagePath(renamed)}`);
      expect((await get(`${pagePath(doomed.NameEn)}/calendar.ics`)).statusCode).toBe(404);
      expect((await get(`${pagePath(renamed)}/calendar.ics`)).statusCode).toBe(200);

      // Gone.
      expectStatus(await call(t.app, { method: 'DELETE', url: `/api/ghadis/${doomed.GID}`, token }), 200);
      const afterDelete = byUid(icsEvents((await get('/calendar.ics')).body));
      expect(afterDelete.has(`ghadi-${doomed.GID}-result@ghadi-results.calendar`)).toBe(false);
      expect(afterDelete.has(`ghadi-${daily.GID}-result@ghadi-results.calendar`)).toBe(true);
      expect((await get(`${pagePath(renamed)}/calendar.ics`)).statusCode).toBe(404);
    });
  });

  describe('feeds', () => {
    /** The Atom feed's entries, checked to be Atom. */
    const atomEntries = async (name: string): Promise<XmlElement[]> => {
      const answer = await get(`${pagePath(name)}/feed.xml`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      const root = parseXml(answer.body);
      expect(root.name).toBe('feed');
      expect(root.attributes.xmlns).toBe('http://www.w3.org/2005/Atom');
      expect(childText(root, 'id')).toBe(`${SITE}${pagePath(name)}/feed.xml`);
      return childrenNamed(root, 'entry');
    };
    const jsonFeedOf = async (name: string) => {
      const answer = await get(`${pagePath(name)}/feed.json`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/feed+json; charset=utf-8');
      return answer.json<{
        version: string;
        feed_url: string;
        items: Array<{ id: string; url: string; title: string; tags?: string[]; _declaration: unknown }>;
      }>();
    };

    it("the Atom feed lists the ghadi's log entries, newest first, corrections marked", async () => {
      const log = await logOf(daily.GID);
      expect(log.map((entry) => entry.Result)).toEqual(['07', '54', '45']);
      const entries = await atomEntries(daily.NameEn);
      expect(entries.map((entry) => childText(entry, 'id'))).toEqual(
        log.map((entry) => `urn:ghadi-results:declaration:${entry.hash}`),
      );
      expect(entries.map((entry) => childText(entry, 'title'))).toEqual([
        `${daily.NameEn}: 07 (7 May 2004)`,
        `${daily.NameEn}: 54 (6 May 2004, corrected, was 45)`,
        `${daily.NameEn}: 45 (6 May 2004)`,
      ]);
      expect(entries.map((entry) => childText(entry, 'updated'))).toEqual(
        log.map((entry) => entry.DeclaredAt),
      );
      expect(entries.map((entry) => childrenNamed(entry, 'link')[0]?.attributes.href)).toEqual(
        log.map((entry) => `${SITE}/r/${entry.hash}`),
      );
      expect(entries.map((entry) => childrenNamed(entry, 'category').length)).toEqual([0, 1, 0]);
    });

    it('the JSON Feed is version 1.1 with the same entries', async () => {
      const log = await logOf(daily.GID);
      const feed = await jsonFeedOf(daily.NameEn);
      expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
      expect(feed.feed_url).toBe(`${SITE}${pagePath(daily.NameEn)}/feed.json`);
      expect(feed.items.map((item) => item._declaration)).toEqual(
        log.map((entry) => ({
          seq: entry.seq,
          GID: entry.GID,
          Date: entry.Date,
          Result: entry.Result,
          Previous: entry.Previous,
          DeclaredAt: entry.DeclaredAt,
          hash: entry.hash,
          prevHash: entry.prevHash,
          Step: entry.Step,
          correction: entry.Previous !== null,
        })),
      );
      expect(feed.items.map((item) => item.tags ?? [])).toEqual([[], ['correction'], []]);
      expect(feed.items[1]?.title).toBe(`${daily.NameEn}: 54 (6 May 2004, corrected, was 45)`);
      expect(feed.items[0]?.url).toBe(`${SITE}/r/${log[0]?.hash}`);
    });

    it('a new declaration is in both on the next request; other ghadis keep theirs', async () => {
      const atomBefore = await get(`${pagePath(daily.NameEn)}/feed.xml`);
      const again = await get(`${pagePath(daily.NameEn)}/feed.xml`);
      expect(again.headers.etag).toBe(atomBefore.headers.etag);
      const otherBefore = await get(`${pagePath(market.NameEn)}/feed.json`);
      expect(otherBefore.json<{ items: unknown[] }>().items).toEqual([]);

      await declare(daily.GID, '88', '2004-05-08');
      const [newest] = await logOf(daily.GID);
      expect(newest?.Result).toBe('88');
      const entries = await atomEntries(daily.NameEn);
      expect(childText(entries[0] as XmlElement, 'id')).toBe(`urn:ghadi-results:declaration:${newest?.hash}`);
      expect(entries).toHaveLength(4);
      const feed = await jsonFeedOf(daily.NameEn);
      expect(feed.items).toHaveLength(4);
      expect(feed.items[0]?.title).toBe(`${daily.NameEn}: 88 (8 May 2004)`);

      const otherAfter = await get(`${pagePath(market.NameEn)}/feed.json`);
      expect(otherAfter.headers.etag).toBe(otherBefore.headers.etag);
    });

    it('an unknown ghadi has no feeds', async () => {
      for (const file of ['feed.xml', 'feed.json']) {
        const answer = await get(`/satta-results/${unique('nobody')}/${file}`);
        expect(answer.statusCode).toBe(404);
        expect(answer.json<Failure>().success).toBe(false);
      }
    });
  });

  describe('the results page', () => {
    it('names both feeds and the calendar in its head, in both languages', async () => {
      for (const prefix of ['', '/hi']) {
        const page = await get(`${prefix}${pagePath(daily.NameEn)}`);
        expect(page.statusCode).toBe(200);
        const base = `${SITE}${pagePath(daily.NameEn)}`;
        expect(page.body).toContain(
          `<link rel="alternate" type="application/atom+xml" href="${base}/feed.xml" title="${daily.NameEn} results (Atom)" />`,
        );
        expect(page.body).toContain(
          `<link rel="alternate" type="application/feed+json" href="${base}/feed.json" title="${daily.NameEn} results (JSON Feed)" />`,
        );
        expect(page.body).toContain(`<link rel="alternate" type="text/calendar" href="${base}/calendar.ics"`);
      }
      const unknown = await get(`/satta-results/${unique('nobody')}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).not.toContain('feed.xml');
    });

    it('the sitemap lists pages only, not the feeds', async () => {
      const sitemap = await get('/sitemap.xml');
      expect(sitemap.body).toContain(`${SITE}${pagePath(daily.NameEn)}<`);
      expect(sitemap.body).not.toContain('feed.xml');
      expect(sitemap.body).not.toContain('.ics');
    });
  });
});

describe.each(DIALECTS)('feeds and calendars without PUBLIC_URL [%s]', (dialect) => {
  let t: TestApp;
  let ghadi: GhadiRecord;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const token = await loginAdmin(t.app);
    ghadi = await createGhadi(t.app, token, { NameEn: unique('Cal Origin') });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("name the request's own origin, for that request alone", async () => {
    for (const file of ['calendar.ics', 'feed.xml', 'feed.json']) {
      const answer = await call(t.app, {
        url: `${pagePath(ghadi.NameEn)}/${file}`,
        headers: { host: 'mirror.example' },
      });
      expect(answer.statusCode, file).toBe(200);
      expect(answer.body, file).toContain(`http://mirror.example${pagePath(ghadi.NameEn)}`);
      expect(answer.headers['cache-control'], file).toContain('private');
    }
    const calendar = await call(t.app, { url: '/calendar.ics', headers: { host: 'other.example' } });
    expect(calendar.body).toContain(`URL;VALUE=URI:http://other.example${pagePath(ghadi.NameEn)}`);
  });
});
