/**
 * The data each public page is built from: what the server renders and caches, embeds in the page,
 * and the browser hydrates. Types only.
 */
import type { Language } from './page-language.js';
import type { ReceiptProof } from './receipt-proof.js';
import type { MonthChart, WeeklyChart, YearChart } from './schemas/charts.js';
import type { DeclarationEntry, DeclarationHead } from './schemas/declarations.js';
import type { GhadiRecord } from './schemas/ghadis.js';
import type { ReceiptEntry, SharedReceiptEntry } from './schemas/receipts.js';
import type { PublicResultRecord } from './schemas/results.js';
import type { WeeklyView } from './weekly-chart-pages.js';

/** One ghadi as the public pages need it. */
export type PublicGhadi = Pick<
  GhadiRecord,
  'GID' | 'NameEn' | 'NameHn' | 'RTime' | 'Kind' | 'OpenTime' | 'Days'
>;

/** A live ghadi as every page's keyword ticker names it (the home page has the full records). */
export type GhadiNames = Pick<GhadiRecord, 'GID' | 'NameEn' | 'NameHn'>;

/** What every page's data has, but the home page's (its ghadis carry more) and a month chart's. */
interface PageBasics {
  siteName: string;
  /** Today in the site's time zone (YYYY-MM-DD). */
  today: string;
  /** The site's IANA time zone (SITE_TIMEZONE): declared times are shown in it. */
  timeZone: string;
  /** Every live ghadi by OrderId: the keyword ticker lists them. */
  ghadiNames: GhadiNames[];
}

/** What GET /api/home answers and the home page embeds: everything the home page shows. */
export interface HomePageData {
  page: 'home';
  /** The id of the latest live event this data includes: the page's event stream starts after it. */
  version: number;
  /** The site's name (sent with the data, so that the public bundle does not import the zod schemas). */
  siteName: string;
  /** Today in the site's time zone (YYYY-MM-DD): the chart's "today". */
  today: string;
  /** The site's IANA time zone (SITE_TIMEZONE): the board's times are shown in it. */
  timeZone: string;
  /**
   * When this data was last brought up to date (ISO 8601 UTC): when the server last applied a change
   * (or began a new day), then moved on by each live event the page applies. The board's "Last updated", and its "now" until the page runs.
   */
  updatedAt: string;
  /** The record chart's month, YYYY-MM in UTC (spec: UTC month and year). */
  recordMonth: string;
  /** Every live ghadi by OrderId, with today's and yesterday's results. */
  ghadis: GhadiRecord[];
  /** The record month's results that have a ghadi name. */
  record: PublicResultRecord[];
  blogHtml: string | null;
  bannerHtml: string | null;
}

export interface ResultsPageData extends PageBasics {
  page: 'results';
  version: number;
  /** The name as addressed in the URL (decoded). */
  name: string;
  month: number;
  year: number;
  /** Null when no live ghadi has this name (the page answers 404). */
  ghadi: PublicGhadi | null;
  /** Null when the month has no results (spec: "No data available for {name}"). */
  results: PublicResultRecord[] | null;
  /**
   * The ghadi's punctuality of the last 30 days in one line of the page's language (punctuality-line.ts),
   * on the current month's page only; null or absent: none to show.
   */
  punctuality?: string | null;
  /**
   * PUBLIC_URL, or null without one: the embed snippet names the site by it (the page's own origin,
   * once in the browser, without it).
   */
  siteUrl?: string | null;
}

/** The public declaration log, newest first, a page at a time (/declarations?page=N). */
export interface DeclarationsPageData extends PageBasics {
  page: 'declarations';
  /** The log's latest entry when the page was built; the entries shown are at or before it. */
  head: DeclarationHead;
  /** This page's entries, newest first; empty past the end (the page answers 404). */
  entries: DeclarationEntry[];
  /** 1-based. */
  pageNumber: number;
  /** At least 1 (an empty log has one empty page). */
  pageCount: number;
}

/** A ghadi's year: 12 month columns of 31 days (/satta-results/{name}/{year}). */
export interface YearChartPageData extends PageBasics {
  page: 'year-chart';
  version: number;
  chart: YearChart;
  /** A panna or open/close ghadi's: the page links to its weekly charts of the year. */
  weekly?: boolean;
}

/** A panna or open/close ghadi's year, a row per week: its jodis (/jodi-chart/…) or panels (/panel-chart/…). */
export interface WeeklyChartPageData extends PageBasics {
  page: 'weekly-chart';
  version: number;
  view: WeeklyView;
  chart: WeeklyChart;
}

/** Every live ghadi's month: 31 day rows, a column per ghadi by OrderId (/chart/{YYYY-MM}). */
export interface MonthChartPageData {
  page: 'month-chart';
  version: number;
  siteName: string;
  today: string;
  timeZone: string;
  chart: MonthChart;
  /** The nearest months before and after with a chart (results, or the current month), or null. */
  previousMonth: string | null;
  nextMonth: string | null;
}

/** The entry a receipt names, with the proof that the latest checkpoint holds it. */
export interface ReceiptFound {
  kind: 'entry';
  entry: ReceiptEntry;
  /** The ghadi's names now; null when it was deleted (the entry keeps its English name). */
  ghadi: GhadiNames | null;
  /** The entry's inclusion proof in the tree of `checkpoint`. */
  proof: ReceiptProof;
  /** The latest checkpoint (a C2SP signed note). */
  checkpoint: string;
}

/**
 * One log entry by its receipt, the shortest start of its hash no other shares (/r/{receipt}), or
 * the entries a receipt several hashes begin with names (answered 409).
 */
export interface ReceiptPageData extends PageBasics {
  page: 'receipt';
  /** The receipt as the page names it (lower case). */
  receipt: string;
  found: ReceiptFound | { kind: 'shared'; entries: SharedReceiptEntry[] };
}

/** The site's 404: an address with nothing behind it (a chart of an unknown ghadi or year). */
export interface NotFoundPageData extends PageBasics {
  page: 'not-found';
}

/** A server-rendered page's data, and the language it is shown in (its address says: /hi is Hindi). */
export type PublicPageData = (
  | HomePageData
  | ResultsPageData
  | DeclarationsPageData
  | YearChartPageData
  | WeeklyChartPageData
  | MonthChartPageData
  | ReceiptPageData
  | NotFoundPageData
) & { language: Language };

/** What the server-side bundle (src/web/entry-server.tsx) exports. */
export interface PublicPageRenderer {
  renderPage(data: PublicPageData): string;
}
