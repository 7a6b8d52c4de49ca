/**
 * Issue 44's calendars and feeds, read from outside with the checker's own parsing: the ICS files'
 * events (recurrence, TZID of SITE_TIMEZONE with its VTIMEZONE, weekdays, open and result times), and
 * the Atom and JSON feeds' entries against the ghadi's own log entries, corrections included. Atom's
 * XML is checked well-formed by Chromium's DOMParser (reach-embed.ts hands one in).
 */
import { check } from './check.js';
import type { LogEntry, ReachGhadi, ReachSite } from './reach-site.js';
import type { CheckResult } from './types.js';

/** A VEVENT's properties by name (parameters kept in the name, e.g. "DTSTART;TZID=Asia/Kolkata"). */
type Properties = Map<string, string>;

/** RFC 5545's unfolding, then each VEVENT's lines; also whether a VTIMEZONE names `zone`. */
export function readCalendar(text: string, zone: string) {
  const lines = text.replace(/\r\n[ \t]/g, '').split('\r\n');
  const events: Properties[] = [];
  let current: Properties | null = null;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = new Map();
    else if (line === 'END:VEVENT' && current) {
      events.push(current);
      current = null;
    } else if (current) {
      const colon = line.indexOf(':');
      current.set(line.slice(0, colon), line.slice(colon + 1));
    }
  }
  return {
    events,
    crlf: text.endsWith('\r\n') && !/[^\r]\n/.test(text),
    zoneDefined: lines.includes(`TZID:${zone}`) && lines.includes('BEGIN:VTIMEZONE'),
  };
}

const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** What the ghadi's event of `kind` should say: its time in the zone and its recurrence. */
function expectedEvent(ghadi: ReachGhadi, kind: 'result' | 'open', zone: string) {
  const text = kind === 'open' ? ghadi.OpenTime : ghadi.RTime;
  const match = /^(\d{1,2}):(\d\d)\s*([AP])M$/i.exec(text ?? '');
  if (!match) throw new Error(`the checker cannot read ${text}`);
  const hour = (Number(match[1]) % 12) + (match[3]?.toUpperCase() === 'P' ? 12 : 0);
  const time = `T${String(hour).padStart(2, '0')}${match[2]}00`;
  const days = ghadi.Days.length === 0 || ghadi.Days.length === 7 ? null : ghadi.Days;
  return {
    uid: `ghadi-${ghadi.GID}-${kind}@`,
    dtstart: `DTSTART;TZID=${zone}`,
    time,
    rrule: days === null ? 'FREQ=DAILY' : `FREQ=WEEKLY;BYDAY=${days.map((day) => BYDAY[day]).join(',')}`,
  };
}

function eventProblems(events: Properties[], ghadis: ReachGhadi[], zone: string, origin: string): string[] {
  const problems: string[] = [];
  for (const ghadi of ghadis) {
    const kinds: Array<'result' | 'open'> = ghadi.OpenTime ? ['open', 'result'] : ['result'];
    for (const kind of kinds) {
      const want = expectedEvent(ghadi, kind, zone);
      const event = events.find((candidate) => candidate.get('UID')?.startsWith(want.uid));
      if (!event) {
        problems.push(`${ghadi.NameEn}: no ${kind} event`);
        continue;
      }
      const start = event.get(want.dtstart);
      if (!start?.endsWith(want.time)) problems.push(`${ghadi.NameEn} ${kind}: ${want.dtstart} is ${start}`);
      if (event.get('RRULE') !== want.rrule)
        problems.push(`${ghadi.NameEn} ${kind}: RRULE ${event.get('RRULE')}`);
      const url = event.get('URL;VALUE=URI') ?? event.get('URL');
      if (!url?.startsWith(`${origin}/satta-results/`)) problems.push(`${ghadi.NameEn} ${kind}: URL ${url}`);
      // A weekly event must start on one of its days: the first occurrence is DTSTART itself.
      if (start && ghadi.Days.length > 0 && ghadi.Days.length < 7) {
        const day = new Date(
          `${start.slice(0, 4)}-${start.slice(4, 6)}-${start.slice(6, 8)}T00:00:00Z`,
        ).getUTCDay();
        if (!ghadi.Days.includes(day)) problems.push(`${ghadi.NameEn} ${kind}: starts on day ${day}`);
      }
    }
  }
  return problems;
}

export async function calendarChecks(
  site: ReachSite,
  ghadis: ReachGhadi[],
  zone: string,
): Promise<CheckResult[]> {
  const one = ghadis[1] ?? ghadis[0];
  if (!one) throw new Error('no ghadis');
  const slug = one.NameEn.toLowerCase().replace(/ /g, '-');
  const files: Array<[string, ReachGhadi[]]> = [
    ['/calendar.ics', ghadis],
    [`/satta-results/${slug}/calendar.ics`, [one]],
  ];
  const results: CheckResult[] = [];
  for (const [pathname, shown] of files) {
    results.push(
      await check(`${pathname}: an event per time, ${zone} times, weekdays, the page as URL`, async () => {
        const answer = await site.get(pathname);
        const text = answer.body.toString('utf8');
        const calendar = readCalendar(text, zone);
        const problems = eventProblems(calendar.events, shown, zone, site.url);
        const type = String(answer.headers['content-type']);
        if (!type.startsWith('text/calendar')) problems.push(`Content-Type ${type}`);
        if (!calendar.zoneDefined) problems.push(`no VTIMEZONE for ${zone}`);
        if (!calendar.crlf) problems.push('lines not ended by CRLF');
        // The site's own ghadis (a new site starts with some) have events too: count the checker's.
        const ours = calendar.events.filter((event) =>
          shown.some((ghadi) => event.get('UID')?.startsWith(`ghadi-${ghadi.GID}-`)),
        );
        const expected = shown.reduce((sum, ghadi) => sum + (ghadi.OpenTime ? 2 : 1), 0);
        if (ours.length !== expected) problems.push(`${ours.length} events of these ghadis, not ${expected}`);
        return {
          ok: answer.status === 200 && problems.length === 0,
          detail:
            problems.join('; ') ||
            `${answer.status}, ${calendar.events.length} events, these ghadis': ${ours
              .map((event) => `${event.get('SUMMARY')} ${event.get('RRULE')}`)
              .join(', ')}`,
        };
      }),
    );
  }
  return results;
}

interface JsonFeed {
  version: string;
  items: Array<{ id: string; title: string; tags?: string[]; _declaration?: { seq: number; hash: string } }>;
}

/** The feeds of `ghadi` against its log: the same entries, newest first, corrections tagged. */
export async function feedChecks(
  site: ReachSite,
  ghadi: ReachGhadi,
  log: LogEntry[],
): Promise<CheckResult[]> {
  const slug = ghadi.NameEn.toLowerCase().replace(/ /g, '-');
  const newestFirst = [...log].reverse();
  const corrections = log.filter((entry) => entry.Previous !== null).length;
  const json = await check(
    'feed.json: JSON Feed 1.1, one item per log entry, corrections tagged',
    async () => {
      const answer = await site.get(`/satta-results/${slug}/feed.json`);
      const feed = JSON.parse(answer.body.toString('utf8')) as JsonFeed;
      const ids = feed.items.map((item) => item.id);
      const want = newestFirst.map((entry) => `urn:ghadi-results:declaration:${entry.hash}`);
      const tagged = feed.items.filter((item) => item.tags?.includes('correction')).length;
      const ok =
        answer.status === 200 &&
        String(answer.headers['content-type']).startsWith('application/feed+json') &&
        feed.version === 'https://jsonfeed.org/version/1.1' &&
        JSON.stringify(ids) === JSON.stringify(want) &&
        tagged === corrections &&
        corrections > 0;
      return {
        ok,
        detail: `${answer.status} ${feed.version}, ${feed.items.length} items for ${log.length} entries, ${tagged}/${corrections} corrections tagged; first: ${feed.items[0]?.title}`,
      };
    },
  );
  const atom = await check('feed.xml: Atom, one entry per log entry, corrections categorised', async () => {
    const answer = await site.get(`/satta-results/${slug}/feed.xml`);
    const text = answer.body.toString('utf8');
    const ids = [...text.matchAll(/<entry>[\s\S]*?<id>([^<]+)<\/id>/g)].map((match) => match[1]);
    const want = newestFirst.map((entry) => `urn:ghadi-results:declaration:${entry.hash}`);
    const categorised = [...text.matchAll(/<category[^>]*term="correction"/g)].length;
    const ok =
      answer.status === 200 &&
      String(answer.headers['content-type']).startsWith('application/atom+xml') &&
      text.includes('<feed xmlns="http://www.w3.org/2005/Atom"') &&
      JSON.stringify(ids) === JSON.stringify(want) &&
      categorised === corrections;
    return {
      ok,
      detail: `${answer.status}, ${ids.length} entries for ${log.length}, ${categorised} corrections`,
    };
  });
  return [json, atom];
}
