import type { ReactNode } from 'react';
import { monthChartPath } from '../../../shared/chart-pages.js';
import { inLanguage, type Language } from '../../../shared/page-language.js';
import { CHROME_TEXT } from './chrome-text.js';

export function SiteFooter({
  siteName,
  year,
  language = 'en',
  chartMonth = null,
  children,
}: {
  siteName: string;
  year: number;
  language?: Language;
  chartMonth?: string | null;
  /** What the footer holds above its lines (the share links). */
  children?: ReactNode;
}) {
  const text = CHROME_TEXT[language];
  const links = text.footerLinks;
  // Tall enough to tap (WCAG 2.2: 24 px at least), however short the word.
  const link = 'inline-flex min-h-9 items-center px-1 underline hover:text-white';
  return (
    <footer className="mt-10 bg-slate-900 px-4 py-6 text-center text-sm text-slate-300">
      {children}
      <p>
        © {year} {siteName}. {text.rights}
      </p>
      <p className="mt-1 text-slate-400">{text.disclaimer}</p>
      <p className="mt-2 flex flex-wrap justify-center gap-x-3">
        <a href={inLanguage(language, '/')} className={link}>
          {links.home}
        </a>
        <a href={inLanguage(language, '/#chart')} className={link}>
          {links.liveChart}
        </a>
        {chartMonth && (
          <a href={inLanguage(language, monthChartPath(chartMonth))} className={link}>
            {links.charts}
          </a>
        )}
        <a href={inLanguage(language, '/declarations')} className={link}>
          {links.declarations}
        </a>
        {/* One sitemap lists both languages' pages. */}
        <a href="/sitemap.xml" className={link}>
          {links.sitemap}
        </a>
      </p>
    </footer>
  );
}
