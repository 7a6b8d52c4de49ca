import { z } from 'zod';
import {
  BANNER_SLUG,
  BLOG_SLUG,
  chosenMonth,
  ghadiPagePath,
  type HomePageData,
  type LiveChange,
  type PublicPageData,
  utcYearMonth,
} from '../../../shared/public-pages.js';
import { itemAnswer, listAnswer } from '../../../shared/schemas/common.js';
import { type ContentBlockRecord, contentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import { type GhadiRecord, ghadiRecord } from '../../../shared/schemas/ghadis.js';
import {
  type PublicResultRecord,
  publicResultRecord,
  resultListAnswer,
} from '../../../shared/schemas/results.js';
import { SITE_NAME } from '../../../shared/site.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { CONTENT_SECURITY_POLICY } from '../../plugins/web-app.js';
import { type CachedAnswer, HTML_TYPE, prepareAnswer, prepareFailure, prepareJson } from './cached-answer.js';
import { MemoStore, whenReady } from './memo-store.js';
import type { PublicPages } from './page-html.js';
import type { PublicData } from './public-data.js';
import { SiteClock } from './site-clock.js';

const ghadiListAnswer = listAnswer(ghadiRecord);
const ghadiResultsAnswer = listAnswer(publicResultRecord);
const contentAnswer = itemAnswer(contentBlockRecord);

/** Through the routes' own response schemas, so that cached bytes equal what the live handlers send. */
function encodeJson<T extends z.ZodType>(schema: T, value: z.input<T>): Promise<CachedAnswer> {
  return prepareJson(200, z.encode(schema, value as z.output<T>));
}

type Answer = CachedAnswer | Promise<CachedAnswer>;

/** How many origins (scheme and host) pages are kept for; see PublicSite.byOrigin. */
const MAX_ORIGINS = 8;

const namesByList = new WeakMap<GhadiRecord[], Map<string, GhadiRecord>>();

/** The live ghadi a public address names (lower-cased English name), if any. */
function ghadiNamed(list: GhadiRecord[], name: string): GhadiRecord | undefined {
  let byName = namesByList.get(list);
  if (!byName) {
    byName = new Map();
    for (const ghadi of list) {
      const key = ghadi.NameEn.toLowerCase();
      if (!byName.has(key)) byName.set(key, ghadi);
    }
    namesByList.set(list, byName);
  }
  return byName.get(name.toLowerCase());
}

export interface PublicSiteOptions {
  data: PublicData;
  /** The server renderer, or null when the public pages are not built. */
  pages: PublicPages | null;
  changes: ChangeFeed;
  timeZone: string;
  /** Told of every change after the caches have dropped what it made stale. */
  onChange: (change: LiveChange) => void;
}

/**
 * The public site's answers, built from the database once and kept in memory until a write
 * (ChangeFeed) or the site's new day makes them stale: API reads and server-rendered pages alike,
 * serialized and compressed, ready to send.
 */
export class PublicSite {
  private readonly clock: SiteClock;
  private readonly ghadiData = new MemoStore<GhadiRecord[]>(1);
  private readonly resultData = new MemoStore<PublicResultRecord[]>(24);
  private readonly contentData = new MemoStore<ContentBlockRecord | null>(16);
  /** Answers that depend on results and ghadis. */
  private readonly resultAnswers = new MemoStore<CachedAnswer>(2000);
  /** Answers that depend on content blocks only. */
  private readonly contentAnswers = new MemoStore<CachedAnswer>(200);
  /** Pages, sitemap and robots.txt, by the origin they name. */
  private readonly pageAnswers = new MemoStore<CachedAnswer>(1000);
  private readonly origins = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: PublicSiteOptions) {
    this.clock = new SiteClock(options.timeZone, () => {
      this.clearAll();
      options.onChange({ kind: 'day' });
    });
    this.unsubscribe = options.changes.subscribe((change) => {
      this.invalidate(change);
      options.onChange(change);
    });
  }

  get rendersPages(): boolean {
    return this.options.pages !== null;
  }

  close(): void {
    this.clock.stop();
    this.unsubscribe();
  }

  /** GET /api/ghadis */
  ghadisAnswer(): Answer {
    this.clock.today();
    return this.resultAnswers.get('ghadis', async () =>
      encodeJson(ghadiListAnswer, { success: true, data: await this.ghadis() }),
    );
  }

  /** GET /api/results and GET /api/results?month=YYYY-MM, as a reader without an admin token sees them. */
  resultsAnswer(month: string | undefined): Answer {
    this.clock.today();
    return this.resultAnswers.get(`results|${month ?? ''}`, async () =>
      encodeJson(resultListAnswer, { success: true, data: await this.results(month) }),
    );
  }

  /** GET /api/results/{name}?month=&year= */
  ghadiResultsAnswer(name: string, month: number | undefined, year: number | undefined): Answer {
    this.clock.today();
    const noData = () => prepareFailure(404, `No data available for ${name}`);
    return whenReady(this.ghadis(), (list) => {
      // Unknown names are answered without the database and not kept, so no one can fill the cache.
      if (!ghadiNamed(list, name)) return noData();
      return this.resultAnswers.get(`ghadi|${name}|${month ?? ''}|${year ?? ''}`, async () => {
        const rows = await this.options.data.ghadiResults(name, month, year);
        return rows ? encodeJson(ghadiResultsAnswer, { success: true, data: rows }) : noData();
      });
    });
  }

  /** GET /api/contentblocks/slug/{slug} */
  contentAnswer(slug: string): Answer {
    this.clock.today();
    return this.contentAnswers.get(slug, async () => {
      const block = await this.options.data.content(slug);
      return block
        ? encodeJson(contentAnswer, { success: true, data: block })
        : prepareFailure(404, 'Content block not found');
    });
  }

  /** The server-rendered home page. */
  homePage(origin: string): Answer {
    this.clock.today();
    return this.byOrigin(origin, 'home', async (keep) => this.page(200, await this.homeData(), origin, keep));
  }

  /** The server-rendered page of one ghadi and month; 404 with the no-data page for an unknown ghadi. */
  resultsPage(origin: string, name: string, month: unknown, year: unknown): Answer {
    const today = this.clock.today();
    const chosen = chosenMonth(today, month as string | undefined, year as string | undefined);
    return whenReady(this.ghadis(), (list) => {
      const ghadi = ghadiNamed(list, name);
      const data: PublicPageData = {
        page: 'results',
        siteName: SITE_NAME,
        name,
        today,
        ...chosen,
        ghadi: null,
        results: null,
      };
      // Unknown names are rendered for the one request and not kept, so no one can fill the cache.
      if (!ghadi) return this.page(404, data, origin, false);
      return this.byOrigin(origin, `results|${name}|${chosen.year}-${chosen.month}`, async (keep) => {
        const results = await this.options.data.ghadiResults(ghadi.NameEn, chosen.month, chosen.year);
        const { GID, NameEn, NameHn, RTime } = ghadi;
        return this.page(200, { ...data, ghadi: { GID, NameEn, NameHn, RTime }, results }, origin, keep);
      });
    });
  }

  /** /sitemap.xml: the home page and every ghadi's page. */
  sitemap(origin: string): Answer {
    return this.byOrigin(origin, 'sitemap', async () => {
      const addresses = [
        `${origin}/`,
        ...(await this.ghadis()).map((g) => `${origin}${ghadiPagePath(g.NameEn)}`),
      ];
      const body = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...addresses.map(
          (address) => `  <url><loc>${escapeXml(address)}</loc><changefreq>daily</changefreq></url>`,
        ),
        '</urlset>',
        '',
      ].join('\n');
      return prepareAnswer(200, 'application/xml; charset=utf-8', body);
    });
  }

  robots(origin: string): Answer {
    return this.byOrigin(origin, 'robots', () =>
      prepareAnswer(
        200,
        'text/plain; charset=utf-8',
        [
          'User-agent: *',
          'Allow: /',
          'Disallow: /admin',
          'Disallow: /agent',
          '',
          `Sitemap: ${origin}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
    );
  }

  private page(status: number, data: PublicPageData, origin: string, keep: boolean): Promise<CachedAnswer> {
    if (!this.options.pages) throw new Error('The public pages are not built');
    const html = this.options.pages.render(data, origin);
    return prepareAnswer(
      status,
      HTML_TYPE,
      html,
      { 'content-security-policy': CONTENT_SECURITY_POLICY },
      keep,
    );
  }

  /**
   * Pages name their origin (canonical links, the sitemap), so they are kept per origin — for the
   * first few origins only: the Host header is the caller's to choose, and each kept page set costs
   * memory. Pages for further origins are built for their request alone.
   */
  private byOrigin(origin: string, key: string, build: (keep: boolean) => Promise<CachedAnswer>): Answer {
    if (!this.origins.has(origin)) {
      if (this.origins.size >= MAX_ORIGINS) return build(false);
      this.origins.add(origin);
    }
    return this.pageAnswers.get(`${key}|${origin}`, () => build(true));
  }

  private async homeData(): Promise<HomePageData> {
    const today = this.clock.today();
    const recordMonth = utcYearMonth();
    const [ghadis, record, blog, banner] = await Promise.all([
      this.ghadis(),
      this.results(recordMonth),
      this.content(BLOG_SLUG),
      this.content(BANNER_SLUG),
    ]);
    return {
      page: 'home',
      siteName: SITE_NAME,
      today,
      recordMonth,
      ghadis,
      record: record.filter((result) => result.Name),
      blogHtml: blog?.Content ?? null,
      bannerHtml: banner?.Content ?? null,
    };
  }

  // Not async: a value already built is used without a promise on the hot paths.
  private ghadis(): GhadiRecord[] | Promise<GhadiRecord[]> {
    return this.ghadiData.get('all', () => this.options.data.ghadiList());
  }

  private results(month: string | undefined): PublicResultRecord[] | Promise<PublicResultRecord[]> {
    return this.resultData.get(month ?? '', () => this.options.data.resultList(month));
  }

  private content(slug: string): ContentBlockRecord | null | Promise<ContentBlockRecord | null> {
    return this.contentData.get(slug, () => this.options.data.content(slug));
  }

  private invalidate(change: LiveChange): void {
    if (change.kind === 'content') {
      this.contentData.clear();
      this.contentAnswers.clear();
    } else {
      this.ghadiData.clear();
      this.resultData.clear();
      this.resultAnswers.clear();
    }
    this.pageAnswers.clear();
  }

  private clearAll(): void {
    this.ghadiData.clear();
    this.resultData.clear();
    this.contentData.clear();
    this.resultAnswers.clear();
    this.contentAnswers.clear();
    this.pageAnswers.clear();
  }
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
