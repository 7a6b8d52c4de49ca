import { useRef, useState } from 'react';
import { BLOG_MISSING_TEXT, type HomePageData, yearOf } from '../../../shared/public-pages.js';
import { GhadiChart } from './ghadi-chart.js';
import { loadHomeData, signalTouchesContent } from './home-data.js';
import { useLiveChanges } from './live-updates.js';
import { RatesSection, TimeTableSection } from './promo.js';
import { RecordChart } from './record-chart.js';
import { ContentHtml, PublicShell } from './site-chrome.js';
import { VisitorCounter } from './visitor-counter.js';

/**
 * The home page, from data the server rendered it with (or the SPA loaded); live changes refetch
 * the cached public answers, so a declared result shows without a reload.
 */
export function HomeView({ initial }: { initial: HomePageData }) {
  const [data, setData] = useState(initial);
  // Refreshes can overlap on a slow network; only the latest one may replace what is shown. Content
  // is refreshed only by some signals, so it has its own sequence: a later chart-only refresh must
  // not throw away a content refresh still in flight.
  const latestRefresh = useRef(0);
  const latestContentRefresh = useRef(0);

  useLiveChanges((signal) => {
    const refresh = ++latestRefresh.current;
    const withContent = signalTouchesContent(signal);
    const contentRefresh = withContent ? ++latestContentRefresh.current : -1;
    loadHomeData(data, signal)
      .then((loaded) => {
        setData((current) => {
          let next = current;
          if (refresh === latestRefresh.current) {
            next = { ...loaded, blogHtml: current.blogHtml, bannerHtml: current.bannerHtml };
          }
          if (contentRefresh === latestContentRefresh.current) {
            next = { ...next, blogHtml: loaded.blogHtml, bannerHtml: loaded.bannerHtml };
          }
          return next;
        });
      })
      .catch((error: unknown) => console.error('Failed to refresh the home page', error));
  });

  return (
    <PublicShell siteName={data.siteName} year={yearOf(data.today)} path="/">
      <div className="space-y-6">
        <h1 className="text-center text-2xl font-extrabold text-slate-900 sm:text-3xl">
          Satta Results Today – Live Chart
        </h1>
        {data.bannerHtml && (
          <section
            aria-label="Announcement"
            className="rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm"
          >
            <ContentHtml html={data.bannerHtml} />
          </section>
        )}
        <GhadiChart ghadis={data.ghadis} today={data.today} />
        <div className="grid gap-4 md:grid-cols-2">
          <RatesSection siteName={data.siteName} />
          <TimeTableSection />
        </div>
        <RecordChart ghadis={data.ghadis} results={data.record} month={data.recordMonth} today={data.today} />
        <section
          id="blog"
          aria-labelledby="blog-title"
          className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        >
          <h2 id="blog-title" className="text-xl font-bold text-slate-900">
            Blog
          </h2>
          {data.blogHtml ? (
            <ContentHtml html={data.blogHtml} className="mt-3" />
          ) : (
            <p className="mt-3 text-slate-600">{BLOG_MISSING_TEXT}</p>
          )}
        </section>
        <VisitorCounter />
      </div>
    </PublicShell>
  );
}
