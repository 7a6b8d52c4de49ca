/**
 * The charts group's pages, as with JavaScript off (the HTML as served), in English and Hindi: every
 * cell of the year and month charts' tables in the markup against what was declared, `<html lang>`,
 * the canonical link, the hreflang twins, the JSON-LD (BreadcrumbList, Dataset) and the page data
 * (the 404 pages: charts-live.ts). Cells are read as the views render them (src/web/features/public-charts/
 * chart-parts.tsx): the value, with `data-testid="correction-mark"` when corrected; `td.n` "–" for no
 * result; `td.x` for a day the month lacks; `aria-current="date"` for today.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  type Cell,
  type ChartGhadi,
  type ChartsSite,
  daysIn,
  two,
  yearApiPath,
  yearPath,
} from './charts-seed.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

export const LANGUAGES = [
  ['en', ''],
  ['hi', '/hi'],
] as const;
const shownName = (ghadi: ChartGhadi, language: string) => (language === 'hi' ? ghadi.NameHn : ghadi.NameEn);
const listed = (problems: string[]) =>
  `${problems.length} problems${problems.length ? `: ${problems.slice(0, 5).join('; ')}` : ''}`;

interface Tag {
  attrs: Record<string, string>;
  html: string;
}

export function decode(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replace(/&#x27;|&#39;|&apos;/g, "'")
    .replaceAll('&amp;', '&');
}

function attributes(source = ''): Record<string, string> {
  const pairs = [...source.matchAll(/([\w:-]+)="([^"]*)"/g)];
  return Object.fromEntries(pairs.map((match) => [(match[1] ?? '').toLowerCase(), decode(match[2] ?? '')]));
}

/** A cell's own text: without the correction mark (a sup) and the words for screen readers only. */
function shownText(html: string): string {
  return decode(
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<sup[\s\S]*?<\/sup>/g, '')
      .replace(/<span class="sr-only">[\s\S]*?<\/span>/g, '')
      .replace(/<[^>]+>/g, ''),
  ).trim();
}

/** The page's (first) table: its header cells and its body rows. */
function chartTable(html: string): { head: Tag[]; rows: Array<Tag & { cells: Tag[] }> } | null {
  const table = /<table\b[^>]*>([\s\S]*?)<\/table>/.exec(html)?.[1];
  if (!table) return null;
  const cellsOf = (row: string) =>
    [...row.matchAll(/<(td|th)(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/\1>)/g)].map((match) => ({
      attrs: attributes(match[2]),
      html: match[3] ?? '',
    }));
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return {
    head: cellsOf(/<thead>([\s\S]*?)<\/thead>/.exec(table)?.[1] ?? ''),
    rows: [...body.matchAll(/<tr(\s[^>]*)?>([\s\S]*?)<\/tr>/g)].map((match) => ({
      attrs: attributes(match[1]),
      html: match[2] ?? '',
      cells: cellsOf(match[2] ?? ''),
    })),
  };
}

/** '' when the cell shows what was declared of its date (or a day the month lacks, when `exists` is false). */
function cellProblem(
  cell: Tag | undefined,
  expected: Cell | null,
  date: string,
  today: string,
  exists = true,
) {
  if (!cell) return `${date}: no cell`;
  const text = shownText(cell.html);
  const kind = cell.attrs.class ?? '';
  const labelled = Boolean(cell.attrs['aria-label']);
  if (!exists)
    return kind === 'x' && text === '' && labelled ? '' : `${date} (no such day): "${text}" .${kind}`;
  if (expected) {
    const marked = cell.html.includes('data-testid="correction-mark"');
    return text === expected.Result && marked === expected.Corrected
      ? ''
      : `${date}: "${text}"${marked ? '✱' : ''}, declared ${expected.Result}${expected.Corrected ? '✱' : ''}`;
  }
  if (date < today)
    return kind === 'n' && text === '–' && labelled ? '' : `${date} (none): "${text}" .${kind}`;
  return text === '' && kind === '' ? '' : `${date} (to come): "${text}" .${kind}`;
}

function linkHref(html: string, rel: string, hreflang?: string): string | undefined {
  for (const match of html.matchAll(/<link\b([^>]*)>/g)) {
    const link = attributes(match[1]);
    if (link.rel === rel && link.hreflang === hreflang) return link.href;
  }
  return undefined;
}

/** What the head says wrong: language, canonical, twins, JSON-LD. */
function headProblems(
  html: string,
  language: string,
  path: string,
  site: ChartsSite,
  dataset: [string, string],
) {
  const english = site.url + path.replace(/^\/hi\//, '/');
  const canonical = site.url + path;
  const expected: Array<[string, string | undefined, string]> = [
    ['canonical', undefined, canonical],
    ['alternate', 'en', english],
    ['alternate', 'hi', site.url + (path.startsWith('/hi/') ? path : `/hi${path}`)],
    ['alternate', 'x-default', english],
  ];
  const problems = expected
    .filter(([rel, hreflang, href]) => linkHref(html, rel, hreflang) !== href)
    .map(([rel, hreflang]) => `${path}: ${rel} ${hreflang ?? ''} ${linkHref(html, rel, hreflang)}`);
  if (!html.includes(`<html lang="${language}">`)) problems.push(`${path}: no <html lang="${language}">`);
  const items = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? '{}') as Record<string, unknown>,
  );
  const trail = items.find((item) => item['@type'] === 'BreadcrumbList')?.itemListElement as
    | Array<{ item?: string }>
    | undefined;
  if (trail?.at(-1)?.item !== canonical)
    problems.push(`${path}: BreadcrumbList ends at ${trail?.at(-1)?.item}`);
  const data = items.find((item) => item['@type'] === 'Dataset') as
    | { url?: string; temporalCoverage?: string; inLanguage?: string; distribution?: { contentUrl?: string } }
    | undefined;
  const [coverage, contentUrl] = dataset;
  if (
    data?.url !== canonical ||
    data.temporalCoverage !== coverage ||
    data.inLanguage !== language ||
    data.distribution?.contentUrl !== site.url + contentUrl
  )
    problems.push(`${path}: Dataset ${JSON.stringify(data)?.slice(0, 200)}`);
  return problems;
}

function pageData(html: string): { chart?: unknown } {
  const json = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return json ? (JSON.parse(json) as { chart?: unknown }) : {};
}

/** The problems of a year chart's markup (31 rows: a day header and 12 months) against what was declared. */
export function yearTableProblems(
  html: string,
  site: ChartsSite,
  gid: number,
  year: number,
): [string[], number] {
  const table = chartTable(html);
  if (table?.rows.length !== 31) return [[`year ${year}: ${table?.rows.length ?? 'no'} table rows`], 0];
  const problems: string[] = [];
  let cells = 0;
  for (const [index, row] of table.rows.entries()) {
    const day = index + 1;
    if (row.cells.length !== 13 || shownText(row.cells[0]?.html ?? '') !== two(day))
      problems.push(`year ${year} day ${day}: ${row.cells.length} cells`);
    for (let month = 1; month <= 12; month++, cells++) {
      const date = `${year}-${two(month)}-${two(day)}`;
      const cell = row.cells[month];
      const exists = day <= daysIn(year, month);
      const problem = cellProblem(cell, site.declared.cell(gid, date), date, site.today, exists);
      if (problem) problems.push(problem);
      if (date === site.today && cell?.attrs['aria-current'] !== 'date')
        problems.push(`${date}: not marked today`);
    }
  }
  return [problems, cells];
}

async function yearPagesCheck(site: ChartsSite): Promise<CheckResult> {
  return check(
    'year chart pages, English and Hindi, JavaScript off: every cell, head, twins, JSON-LD',
    async () => {
      const problems: string[] = [];
      let [pages, cells] = [0, 0];
      for (const ghadi of site.mine) {
        for (const year of site.years) {
          const charted = site.declared.yearsOf(ghadi.GID).includes(year);
          const api = JSON.parse((await site.get(yearApiPath(ghadi.NameEn, year))).body.toString()).data;
          for (const [language, prefix] of LANGUAGES) {
            const path = prefix + yearPath(ghadi.NameEn, year);
            const answer = await site.get(path);
            const html = answer.body.toString();
            pages++;
            // A year without a result of the ghadi's is the site's 404 page.
            if (!charted) {
              if (answer.status !== 404) problems.push(`${path} (no result): ${answer.status}`);
              continue;
            }
            if (answer.status !== 200 || !String(answer.headers['content-type']).startsWith('text/html')) {
              problems.push(`${path}: ${answer.status} ${answer.headers['content-type']}`);
              continue;
            }
            const markup = html.slice(0, html.indexOf('id="page-data"'));
            const [found, compared] = yearTableProblems(markup, site, ghadi.GID, year);
            cells += compared;
            problems.push(
              ...found,
              ...headProblems(html, language, path, site, [String(year), yearApiPath(ghadi.NameEn, year)]),
            );
            const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
            if (!title.includes(shownName(ghadi, language)) || !title.includes(String(year)))
              problems.push(`${path}: title "${title}"`);
            if (!isDeepStrictEqual(pageData(html).chart, api))
              problems.push(`${path}: its page data is not the API's`);
          }
        }
      }
      return {
        ok: problems.length === 0 && pages === site.mine.length * site.years.length * 2,
        detail: `${pages} pages, ${cells} cells in the markup; ${listed(problems)}`,
      };
    },
  );
}

async function monthPagesCheck(site: ChartsSite): Promise<CheckResult> {
  return check(
    'month chart pages, English and Hindi, JavaScript off: every cell, head, twins, JSON-LD',
    async () => {
      const problems: string[] = [];
      let [pages, cells] = [0, 0];
      const columns = site.ghadis.length;
      const withResults = site.declared.months();
      for (const month of site.months) {
        const api = JSON.parse((await site.get(`/api/charts/month/${month}`)).body.toString()).data;
        const year = Number(month.slice(0, 4));
        const length = daysIn(year, Number(month.slice(5, 7)));
        for (const [language, prefix] of LANGUAGES) {
          const path = `${prefix}/chart/${month}`;
          const answer = await site.get(path);
          const html = answer.body.toString();
          pages++;
          // A month without a result of any live ghadi's is the site's 404 page.
          if (!withResults.has(month)) {
            if (answer.status !== 404) problems.push(`${path} (no result): ${answer.status}`);
            continue;
          }
          if (answer.status !== 200) {
            problems.push(`${path}: ${answer.status}`);
            continue;
          }
          problems.push(...headProblems(html, language, path, site, [month, `/api/charts/month/${month}`]));
          if (!isDeepStrictEqual(pageData(html).chart, api))
            problems.push(`${path}: its page data is not the API's`);
          const table = chartTable(html.slice(0, html.indexOf('id="page-data"')));
          // Each column's header links to its ghadi's year chart, and names it in the page's language.
          const heads = (table?.head ?? []).slice(1).map((cell) => ({
            href: attributes(/<a\b([^>]*)>/.exec(cell.html)?.[1]).href,
            name: shownText(cell.html),
          }));
          const wanted = site.ghadis.map((ghadi) => ({
            href: prefix + yearPath(ghadi.NameEn, year),
            name: shownName(ghadi, language),
          }));
          if (!isDeepStrictEqual(heads, wanted))
            problems.push(`${path}: columns ${JSON.stringify(heads).slice(0, 200)}`);
          if (table?.rows.length !== 31) {
            problems.push(`${path}: ${table?.rows.length ?? 'no'} rows`);
            continue;
          }
          for (const [index, row] of table.rows.entries()) {
            const date = `${month}-${two(index + 1)}`;
            if (index + 1 > length) {
              const [, missing] = row.cells;
              const span = Number(missing?.attrs.colspan ?? 1);
              if (
                row.cells.length !== 2 ||
                span !== columns ||
                cellProblem(missing, null, date, site.today, false)
              )
                problems.push(`${path} ${date}: not one cell marking a day the month lacks`);
              continue;
            }
            if (row.cells.length !== columns + 1) problems.push(`${path} ${date}: ${row.cells.length} cells`);
            if (date === site.today && row.attrs['aria-current'] !== 'date')
              problems.push(`${date}: not marked today`);
            for (const [column, ghadi] of site.ghadis.entries()) {
              cells++;
              const problem = cellProblem(
                row.cells[column + 1],
                site.declared.cell(ghadi.GID, date),
                date,
                site.today,
              );
              if (problem) problems.push(`${path} ${ghadi.NameEn} ${problem}`);
            }
          }
        }
      }
      return {
        ok: problems.length === 0 && pages === site.months.length * 2,
        detail: `${pages} pages, ${cells} cells in the markup; ${listed(problems)}`,
      };
    },
  );
}

export async function pageChecks(site: ChartsSite): Promise<CheckResult[]> {
  return [await yearPagesCheck(site), await monthPagesCheck(site)];
}
