import { BANNER_SLUG, BLOG_SLUG } from '../../../shared/home-content-blocks.js';
import { utcYearMonth } from '../../../shared/month-tables.js';
import { foldName, ghadiAddressed, indexNames, type NameIndex } from '../../../shared/names.js';
import type { GhadiNames, HomePageData, PublicGhadi } from '../../../shared/public-page-data.js';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { SITE_NAME } from '../../../shared/site.js';
import { isDatabaseUnavailable } from '../../db/database-errors.js';
import type { DatabaseHealth } from '../../db/database-health.js';
import type { ChangeKind } from '../changes/change.js';
import type { ChartPeriods } from '../results/results-repository.js';
import type { CachedAnswer } from './cached-answer.js';
import { ByteBudget, MemoStore, whenReady } from './memo-store.js';
import type { PublicData } from './public-data.js';

/** A built answer, and whether it is worth keeping (an unknown name's 404 is not). */
export interface Built {
  answer: CachedAnswer;
  keep: boolean;
}

/** What a cached answer is stale after; a day change makes everything stale. */
export interface CachePolicy {
  /** The read's route, as the metrics name it. */
  path: string;
  dependsOn: readonly ChangeKind[];
  /** How many variants (keys) are kept; the oldest goes first. */
  maxKept: number;
}

/**
 * What every public read's answers may hold together, bodies in all their encodings. Keys are
 * canonical, so this is reached only by a site with very many ghadis, months and pages in demand.
 */
export const MAX_ANSWER_BYTES = 48 * 1024 * 1024;

function answerBytes(built: Built): number {
  const { identity, gzip, br } = built.answer.bodies;
  return identity.length + (gzip?.length ?? 0) + (br?.length ?? 0);
}

/** Stale answers handed out in place of a build: never kept as fresh. */
const staleAnswers = new WeakSet<Built>();

const tickerNamesByList = new WeakMap<GhadiRecord[], GhadiNames[]>();

const namesByList = new WeakMap<GhadiRecord[], NameIndex<GhadiRecord>>();

/** The list's live ghadis by the names their public addresses spell (names.ts), built once per list. */
function namesOf(list: GhadiRecord[]): NameIndex<GhadiRecord> {
  let index = namesByList.get(list);
  if (!index) {
    index = indexNames(list);
    namesByList.set(list, index);
  }
  return index;
}

/**
 * The public site's data and answers, built from the database once and kept until a change (or the
 * site's new day) makes them stale. Values are returned without a promise once built, so the hot
 * paths cost no allocation for a hit.
 */
export class ReadModel {
  /** The id of the latest change applied: data built now includes at least that much. */
  version = 0;
  /** Counts the drops: something kept from an answer is current while this has not moved. */
  generation = 0;
  /**
   * When the data last changed (a change applied, a new day), as the home board's "Last updated":
   * one value for every answer built from the same data, so the page and /api/home agree.
   */
  private changedAt = new Date().toISOString();
  private readonly ghadiList = new MemoStore<GhadiRecord[]>(1);
  private readonly monthResults = new MemoStore<PublicResultRecord[]>(24);
  private readonly blocks = new MemoStore<ContentBlockRecord | null>(64);
  private readonly answers = new Map<CachePolicy, MemoStore<Built>>();
  private readonly answerBudget = new ByteBudget(MAX_ANSWER_BYTES);

  constructor(
    private readonly data: PublicData,
    /** The site's date (SITE_TIMEZONE); reading it may roll the day over, which drops everything. */
    readonly today: () => string,
    readonly timeZone: string,
    /** Told whether each public read found its answer built (the metrics). */
    readonly onLookup: (route: string, hit: boolean) => void,
    /** Whether the database is away now: the last answer before a change then beats a 503. */
    private readonly database: Pick<DatabaseHealth, 'unavailable' | 'failed'> = {
      unavailable: false,
      failed: () => {},
    },
  ) {}

  ghadis(): GhadiRecord[] | Promise<GhadiRecord[]> {
    return this.ghadiList.get('all', () => this.data.ghadiList());
  }

  /** Every live ghadi's names by OrderId (each page's keyword ticker), one array per ghadi list. */
  ghadiNames(): GhadiNames[] | Promise<GhadiNames[]> {
    return whenReady(this.ghadis(), (list) => {
      let names = tickerNamesByList.get(list);
      if (!names) {
        names = list.map(({ GID, NameEn, NameHn }) => ({ GID, NameEn, NameHn }));
        tickerNamesByList.set(list, names);
      }
      return names;
    });
  }

  /** The live ghadi an address names, in any case, with hyphens for spaces (names.ts). */
  ghadiNamed(name: string): GhadiRecord | undefined | Promise<GhadiRecord | undefined> {
    return whenReady(this.ghadis(), (list) => ghadiAddressed(namesOf(list), name));
  }

  /**
   * The name an address's answers are kept under: the folded English name of the ghadi it names,
   * however the address spelled it. Null when the ghadi list is built and no live ghadi has the name
   * (its 404 is then made per request, never kept), or when the list is being rebuilt and the
   * spelling may be another's (a hyphen): such a request is answered for itself, and builds the list.
   */
  keptName(name: string): string | null {
    const list = this.ghadiList.peek('all');
    if (list === undefined) {
      const folded = foldName(name);
      return folded.includes('-') ? null : folded;
    }
    const ghadi = ghadiAddressed(namesOf(list), name);
    return ghadi ? foldName(ghadi.NameEn) : null;
  }

  /** A month's public results (YYYY-MM), newest first. */
  results(month: string): PublicResultRecord[] | Promise<PublicResultRecord[]> {
    return this.monthResults.get(month, () => this.data.monthResults(month));
  }

  content(slug: string): ContentBlockRecord | null | Promise<ContentBlockRecord | null> {
    return this.blocks.get(slug, () => this.data.content(slug));
  }

  /**
   * One ghadi's results as GET /api/results/{name} gives them: undefined when no live ghadi has the
   * name (answered without the database), null when it has no results in the period.
   */
  async ghadiResults(
    name: string,
    month?: number,
    year?: number,
  ): Promise<PublicResultRecord[] | null | undefined> {
    const ghadi = await this.ghadiNamed(name);
    if (!ghadi) return undefined;
    return this.data.ghadiResults(ghadi.GID, month, year);
  }

  async publicGhadi(name: string): Promise<PublicGhadi | null> {
    const ghadi = await this.ghadiNamed(name);
    if (!ghadi) return null;
    const { GID, NameEn, NameHn, RTime } = ghadi;
    return { GID, NameEn, NameHn, RTime };
  }

  /** A ghadi's results of a year and the years it has results in (its year chart's data). */
  ghadiYear(gid: number, year: number): Promise<{ rows: PublicResultRecord[]; years: number[] }> {
    return this.data.ghadiYear(gid, year);
  }

  /** Each live ghadi's years with results, and the months with results of any live ghadi (the sitemap). */
  chartPeriods(): Promise<ChartPeriods> {
    return this.data.chartPeriods();
  }

  /** Everything the home page shows (GET /api/home, and the page's embedded data). */
  async homeData(): Promise<HomePageData> {
    const version = this.version;
    const today = this.today();
    const recordMonth = utcYearMonth();
    const [ghadis, record, blog, banner] = await Promise.all([
      this.ghadis(),
      this.results(recordMonth),
      this.content(BLOG_SLUG),
      this.content(BANNER_SLUG),
    ]);
    return {
      page: 'home',
      version,
      siteName: SITE_NAME,
      today,
      timeZone: this.timeZone,
      updatedAt: this.changedAt,
      recordMonth,
      ghadis,
      record: record.filter((result) => result.Name),
      blogHtml: blog?.Content ?? null,
      bannerHtml: banner?.Content ?? null,
    };
  }

  /** A cached answer, or a promise of it while it is built (shared by everyone who asks meanwhile). */
  answer(policy: CachePolicy, key: string, build: () => Promise<Built>): Built | Promise<Built> {
    this.dropAllOnNewDay();
    const store = this.store(policy);
    const fresh = store.peek(key);
    this.onLookup(policy.path, fresh !== undefined);
    if (fresh) return fresh;
    // While the database is away, the answer from before the latest change is better than a 503,
    // and answers at once instead of waiting for a build to fail.
    const stale = this.database.unavailable ? store.staleValue(key) : undefined;
    if (stale) return stale;
    const buildOrStale = () =>
      build().catch((error: unknown) => {
        const previous = store.staleValue(key);
        if (!previous || !isDatabaseUnavailable(error)) throw error;
        this.database.failed(error);
        staleAnswers.add(previous);
        return previous;
      });
    return store.get(key, buildOrStale, (built) => built.keep && !staleAnswers.has(built));
  }

  /** A cached answer only when it is already built. */
  readyAnswer(policy: CachePolicy, key: string): CachedAnswer | undefined {
    this.dropAllOnNewDay();
    const answer = this.answers.get(policy)?.peek(key)?.answer;
    // A miss here is counted when Fastify, which takes the request next, builds the answer.
    if (answer) this.onLookup(policy.path, true);
    return answer;
  }

  /**
   * Reading the site's date rolls the site clock over when a new day has begun, and the rollover
   * drops every answer: done before a lookup, so that no answer of yesterday is served today.
   */
  private dropAllOnNewDay(): void {
    this.today();
  }

  /** Forgets everything (a new day; or changes may have been missed). */
  dropAll(): void {
    this.generation += 1;
    this.changedAt = new Date().toISOString();
    this.ghadiList.clear();
    this.monthResults.clear();
    this.blocks.clear();
    for (const store of this.answers.values()) store.clear();
  }

  /** Forgets what a change of this kind made stale. */
  drop(kind: ChangeKind): void {
    // An import may touch any month of any ghadi: finding what it left fresh would cost more than rebuilding.
    if (kind === 'day' || kind === 'results-imported') {
      this.dropAll();
      return;
    }
    this.generation += 1;
    this.changedAt = new Date().toISOString();
    if (kind === 'content') this.blocks.clear();
    else {
      this.ghadiList.clear();
      this.monthResults.clear();
    }
    for (const [policy, store] of this.answers) if (policy.dependsOn.includes(kind)) store.clear();
  }

  private store(policy: CachePolicy): MemoStore<Built> {
    let store = this.answers.get(policy);
    if (!store) {
      store = new MemoStore(policy.maxKept, {
        weighing: { budget: this.answerBudget, weigh: answerBytes },
        keepStale: true,
      });
      this.answers.set(policy, store);
    }
    return store;
  }
}
