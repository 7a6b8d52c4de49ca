/**
 * A declaration at result time, as the bench makes it and checks it: an admin declares (or corrects)
 * today's result of one ghadi through the API, then every page that shows that ghadi on that day is
 * read until it shows the new value. A page "shows" it when the data it embeds (the
 * `<script id="page-data">` the server renders) holds the value in that ghadi's cell for that day,
 * read the way the page reads it, so a page built before the write can never pass.
 */
import { monthChartPath, yearChartPath } from '../../src/shared/chart-pages.js';
import { ghadiPagePath } from '../../src/shared/ghadi-page-month.js';
import { inLanguage, LANGUAGES } from '../../src/shared/page-language.js';
import type { PublicPageData } from '../../src/shared/public-page-data.js';
import { send } from './client.js';
import { jsonOf, type TimedAnswer } from './timed-request.js';

export interface Declared {
  gid: number;
  name: string;
  /** The site's today, YYYY-MM-DD. */
  date: string;
  value: string;
}

const PAGE_DATA = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/;

export function pageDataOf(answer: TimedAnswer): PublicPageData | null {
  const match = PAGE_DATA.exec(answer.body.toString('utf8'));
  return match?.[1] ? (JSON.parse(match[1]) as PublicPageData) : null;
}

/** The value a page's data shows for the ghadi and day, or undefined when the page does not show it. */
export function shownValue(data: PublicPageData, gid: number, date: string): string | undefined {
  const day = Number(date.slice(8, 10)) - 1;
  switch (data.page) {
    case 'home':
      return date === data.today ? data.ghadis.find((ghadi) => ghadi.GID === gid)?.TodayResult : undefined;
    case 'results':
      return data.results?.find((result) => result.GID === gid && result.Date === date)?.Result;
    case 'year-chart':
      if (data.chart.GID !== gid || data.chart.year !== Number(date.slice(0, 4))) return undefined;
      return data.chart.months[Number(date.slice(5, 7)) - 1]?.[day]?.Result;
    case 'month-chart': {
      if (data.chart.month !== date.slice(0, 7)) return undefined;
      const column = data.chart.ghadis.findIndex((ghadi) => ghadi.GID === gid);
      return column < 0 ? undefined : (data.chart.days[day]?.[column]?.Result ?? undefined);
    }
    default:
      return undefined;
  }
}

/** The pages that show a ghadi's result of a day (its month and year): home, results page, charts. */
export function pagesShowing(name: string, date: string): string[] {
  return [
    '/',
    ghadiPagePath(name),
    yearChartPath(name, Number(date.slice(0, 4))),
    monthChartPath(date.slice(0, 7)),
  ].flatMap((address) => LANGUAGES.map((language) => inLanguage(language, address)));
}

/** A two-digit value other than `current`, different at each `round`. */
export function nextValue(current: string | undefined, round: number): string {
  const base = Number(current ?? 0) + 1 + round;
  return String(base % 100).padStart(2, '0');
}

export async function declare(
  baseUrl: string,
  token: string,
  declared: Omit<Declared, 'name'>,
  address: string,
): Promise<TimedAnswer> {
  const answer = await send(baseUrl, '/api/agent/my-ghadi/update-result', {
    method: 'POST',
    address,
    token,
    json: { ghadiId: declared.gid, result: declared.value, dateTime: declared.date },
  });
  if (answer.status !== 200) {
    const body = jsonOf<{ message?: string }>(answer, 'POST /api/agent/my-ghadi/update-result');
    throw new Error(`the declaration answered ${answer.status}: ${body.message ?? ''}`);
  }
  return answer;
}

/**
 * Reads each page in turn until it shows the declared value; resolves with, per page, the
 * milliseconds from `since` (performance.now() when the write answered) to the first read that
 * showed it (the read's end). A page that has not shown it after `boundMs` counts as Infinity.
 */
export async function timesToShow(
  baseUrl: string,
  declared: Declared,
  since: number,
  boundMs: number,
  address: string,
): Promise<Record<string, number>> {
  const pages = pagesShowing(declared.name, declared.date);
  const seen: Record<string, number> = {};
  await Promise.all(
    pages.map(async (page) => {
      for (;;) {
        const answer = await send(baseUrl, page, { method: 'GET', address });
        const data = answer.status === 200 ? pageDataOf(answer) : null;
        const now = performance.now();
        if (data && shownValue(data, declared.gid, declared.date) === declared.value) {
          seen[page] = now - since;
          return;
        }
        if (now - since > boundMs) {
          seen[page] = Number.POSITIVE_INFINITY;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
  return seen;
}
