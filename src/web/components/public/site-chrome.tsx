import { type ReactNode, useEffect } from 'react';
import type { Language } from '../../../shared/page-language.js';
import type { GhadiNames } from '../../../shared/public-page-data.js';
import { trackVisitOnce } from '../../lib/visitor.js';
import { KeywordTicker } from './keyword-ticker.js';
import { SiteFooter } from './site-footer.js';
import { SiteHeader } from './site-header.js';
import { SocialLinks } from './social-links.js';
import './public-styles.css';

/** Header, page, footer and share links; tracks the visit once per browser session. */
export function PublicShell({
  siteName,
  year,
  path,
  language,
  today,
  ghadis,
  children,
}: {
  siteName: string;
  year: number;
  /** The page's address in English (the Hindi alternate is the same under /hi): the switch and share links. */
  path: string;
  language: Language;
  /** The site's today (YYYY-MM-DD): the header and footer link to its month's chart. */
  today?: string;
  /** Every live ghadi by OrderId: the keyword strip names each. */
  ghadis: readonly GhadiNames[];
  children: ReactNode;
}) {
  useEffect(() => {
    void trackVisitOnce();
    // A marker for tests and tools: the page is interactive from here on.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  const chartMonth = today ? today.slice(0, 7) : null;
  return (
    <div id="top" className="flex min-h-dvh flex-col bg-slate-100 text-slate-900">
      <SiteHeader siteName={siteName} language={language} path={path} chartMonth={chartMonth} />
      <KeywordTicker language={language} ghadis={ghadis} />
      <main className="mx-auto w-full max-w-5xl flex-1 px-3 py-5 sm:px-4">{children}</main>
      <SiteFooter siteName={siteName} year={year} language={language} chartMonth={chartMonth}>
        <SocialLinks siteName={siteName} path={path} language={language} />
      </SiteFooter>
    </div>
  );
}
