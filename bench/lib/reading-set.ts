/**
 * What visitors read at result time, by page kind: the home page, the ghadis' results pages (this
 * month mostly, some past months), their year charts (every year with results) and the month charts
 * of the seeded period, each in English and Hindi. Shared by the burst, the stampede and the Varnish
 * scenarios, which load these addresses through wrk (bench/reading-mix.lua) or a Node client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monthChartPath, shiftMonth, yearChartPath } from '../../src/shared/chart-pages.js';
import { ghadiMonthPath } from '../../src/shared/ghadi-page-month.js';
import { inLanguage, LANGUAGES } from '../../src/shared/page-language.js';
import type { SeedSummary } from './seed.js';

export const PAGE_KINDS = ['home', 'results', 'year', 'month'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** The mix: home 40 %, results pages 30 %, year charts 20 %, month charts 10 %. */
export const MIX_SHARES: Record<PageKind, number> = { home: 0.4, results: 0.3, year: 0.2, month: 0.1 };

/** Past months of a ghadi's results page that readers open besides the current one. */
const PAST_RESULT_MONTHS = 2;

export type ReadingSet = Record<PageKind, string[]>;

function bothLanguages(paths: string[]): string[] {
  return paths.flatMap((address) => LANGUAGES.map((language) => inLanguage(language, address)));
}

function yearsBetween(first: string, last: string): number[] {
  const years: number[] = [];
  for (let year = Number(first.slice(0, 4)); year <= Number(last.slice(0, 4)); year++) years.push(year);
  return years;
}

export function readingSet(seed: SeedSummary, today: string): ReadingSet {
  const thisMonth = today.slice(0, 7);
  const firstMonth = seed.firstDate.slice(0, 7);
  const months: string[] = [];
  for (let month = thisMonth; month >= firstMonth; month = shiftMonth(month, -1)) months.push(month);
  const results = seed.ghadis.flatMap((ghadi) =>
    months
      .slice(0, PAST_RESULT_MONTHS + 1)
      .map((month) =>
        ghadiMonthPath(ghadi.name, Number(month.slice(5, 7)), Number(month.slice(0, 4)), today),
      ),
  );
  const years = yearsBetween(seed.firstDate, today);
  return {
    home: bothLanguages(['/']),
    results: bothLanguages(results),
    year: bothLanguages(seed.ghadis.flatMap((ghadi) => years.map((year) => yearChartPath(ghadi.name, year)))),
    month: bothLanguages(months.map(monthChartPath)),
  };
}

export function pageCount(set: ReadingSet): number {
  return PAGE_KINDS.reduce((sum, kind) => sum + set[kind].length, 0);
}

/** Writes one kind's addresses, one a line, for bench/reading-mix.lua (BENCH_PATHS_FILE). */
export function writePathsFile(dir: string, kind: PageKind, paths: readonly string[]): string {
  const file = path.join(dir, `reading-${kind}.txt`);
  fs.writeFileSync(file, `${paths.join('\n')}\n`);
  return file;
}

/**
 * Writes the whole mix for one wrk (bench/reading-mix.lua picks a line at random): each kind's
 * addresses repeated so that its lines are its share of the mix. One load generator, not one per
 * kind: four wrks sharing a core stalled each other for hundreds of milliseconds, and those stalls,
 * not the server, made the p99 (bench/README.md, burst).
 */
export function writeMixFile(dir: string, set: ReadingSet, lines = 10_000): string {
  const mix: string[] = [];
  for (const kind of PAGE_KINDS) {
    const pages = set[kind];
    const count = Math.round(lines * MIX_SHARES[kind]);
    for (let index = 0; index < count && pages.length; index++)
      mix.push(pages[index % pages.length] as string);
  }
  const file = path.join(dir, 'reading-mix.txt');
  fs.writeFileSync(file, `${mix.join('\n')}\n`);
  return file;
}
