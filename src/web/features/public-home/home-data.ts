import { BANNER_SLUG, BLOG_SLUG, type HomePageData, utcYearMonth } from '../../../shared/public-pages.js';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import type { SiteInfo } from '../../../shared/site.js';
import type { LiveSignal } from './live-updates.js';
import { getJson, getJsonOrNull } from './public-fetch.js';

function settled<T>(result: PromiseSettledResult<T>, fallback: T, what: string): T {
  if (result.status === 'fulfilled') return result.value;
  console.error(`Failed to load ${what}`, result.reason);
  return fallback;
}

/** Whether a live signal may have changed the content blocks (results and ghadis do not). */
export function signalTouchesContent(signal: LiveSignal): boolean {
  return signal.kind !== 'result' && signal.kind !== 'ghadi';
}

/**
 * The home page's data from the cached public API. A part that fails keeps its previous value
 * (or an empty one) and is only logged (spec section 8: record chart failures are not shown).
 * A live signal about results or ghadis leaves the content blocks alone: refetching an absent
 * block on every declared result would cost a request (and a logged 404) each time.
 */
export async function loadHomeData(previous?: HomePageData, signal?: LiveSignal): Promise<HomePageData> {
  const recordMonth = utcYearMonth();
  const contentChanged = !previous || !signal || signalTouchesContent(signal);
  const content = (slug: string, current: string | null | undefined) =>
    contentChanged
      ? getJsonOrNull<{ data: ContentBlockRecord }>(`/api/contentblocks/slug/${slug}`).then(
          (answer) => answer?.data.Content ?? null,
        )
      : Promise.resolve(current ?? null);
  const [site, ghadis, record, blog, banner] = await Promise.allSettled([
    getJson<SiteInfo>('/api/site'),
    getJson<{ data: GhadiRecord[] }>('/api/ghadis').then((answer) => answer.data),
    getJson<{ data: PublicResultRecord[] }>(`/api/results?month=${recordMonth}`).then((answer) =>
      answer.data.filter((result) => result.Name),
    ),
    content(BLOG_SLUG, previous?.blogHtml),
    content(BANNER_SLUG, previous?.bannerHtml),
  ]);
  const sameMonth = previous?.recordMonth === recordMonth;
  const siteInfo = settled(site, null, 'the site date');
  return {
    page: 'home',
    siteName: siteInfo?.siteName ?? previous?.siteName ?? '',
    today: siteInfo?.today ?? previous?.today ?? new Date().toISOString().slice(0, 10),
    recordMonth,
    ghadis: settled(ghadis, previous?.ghadis ?? [], 'the ghadi chart'),
    record: settled(record, sameMonth ? (previous?.record ?? []) : [], 'the record chart'),
    blogHtml: settled(blog, previous?.blogHtml ?? null, 'the blog section'),
    bannerHtml: settled(banner, previous?.bannerHtml ?? null, 'the banner'),
  };
}
