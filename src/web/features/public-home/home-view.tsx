import { startTransition, useEffect, useState } from 'react';
import { yearOf } from '../../../shared/date-labels.js';
import type { Language } from '../../../shared/page-language.js';
import type { HomePageData } from '../../../shared/public-page-data.js';
import { ContentHtml } from '../../components/public/content-html.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { useLiveData } from '../../lib/live-updates.js';
import { GhadiChart } from './ghadi-chart.js';
import { applyHomeEvent, loadHomeData } from './home-live.js';
import { HOME_TEXT } from './home-text.js';
import { RatesSection, TimeTableSection } from './promo.js';
import { RecordChart } from './record-chart.js';
import { VisitorStatsPanel } from './visitor-stats-panel.js';

/**
 * The home page, from data the server rendered it with (or the SPA loaded). Live events carry what
 * changed, so a declared result shows without a request.
 */
export function HomeView({ initial, language }: { initial: HomePageData; language: Language }) {
  const text = HOME_TEXT[language];
  const { data } = useLiveData({
    initial,
    version: initial.version,
    apply: applyHomeEvent,
    reload: loadHomeData,
  });
  // The server's render (and so hydration) reckons "Next" from when its data was built; once the page
  // runs, from the clock, which moves on each half minute so that "Next" passes to the following ghadi.
  const [now, setNow] = useState<string | null>(null);
  useEffect(() => {
    // A transition: this re-renders the whole board, which may then yield to the phone's taps.
    const tick = () => startTransition(() => setNow(new Date().toISOString()));
    tick();
    const timer = setInterval(tick, 30_000);
    return () => clearInterval(timer);
  }, []);

  return (
    <PublicShell
      siteName={data.siteName}
      year={yearOf(data.today)}
      path="/"
      language={language}
      today={data.today}
      ghadis={data.ghadis}
    >
      <div className="space-y-6">
        <h1 className="text-center text-2xl font-extrabold text-slate-900 sm:text-3xl">{text.title}</h1>
        {data.bannerHtml && (
          <section
            aria-label={text.announcement}
            className="rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm"
          >
            <ContentHtml html={data.bannerHtml} />
          </section>
        )}
        <GhadiChart
          ghadis={data.ghadis}
          today={data.today}
          timeZone={data.timeZone}
          updatedAt={data.updatedAt}
          now={now ?? data.updatedAt}
          language={language}
        />
        <div className="later grid gap-4 md:grid-cols-2">
          <RatesSection siteName={data.siteName} language={language} />
          <TimeTableSection language={language} />
        </div>
        <RecordChart
          ghadis={data.ghadis}
          results={data.record}
          month={data.recordMonth}
          today={data.today}
          language={language}
        />
        <section
          id="blog"
          aria-labelledby="blog-title"
          className="later scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        >
          <h2 id="blog-title" className="text-xl font-bold text-slate-900">
            {text.blog}
          </h2>
          {data.blogHtml ? (
            <ContentHtml html={data.blogHtml} className="mt-3" />
          ) : (
            <p className="mt-3 text-slate-600">{text.blogMissing}</p>
          )}
        </section>
        <VisitorStatsPanel language={language} />
      </div>
    </PublicShell>
  );
}
