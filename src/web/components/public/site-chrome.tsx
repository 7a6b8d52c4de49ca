import { type ReactNode, useEffect, useState } from 'react';
import { monthChartPath } from '../../../shared/chart-pages.js';
import {
  ghadiName,
  inLanguage,
  LANGUAGE_NAMES,
  type Language,
  otherLanguage,
} from '../../../shared/page-language.js';
import type { GhadiNames } from '../../../shared/public-page-data.js';
import { trackVisitOnce } from '../../lib/visitor.js';
import { CHROME_TEXT } from './chrome-text.js';
import { NameText } from './ghadi-name.js';
import './public-styles.css';

/** The header's links; the home page's sections are anchors, full loads of the home page from elsewhere. */
function navLinks(language: Language, chartMonth: string | null) {
  const text = CHROME_TEXT[language].nav;
  const links = [
    { href: '/', label: text.home },
    { href: '/#chart', label: text.liveChart },
    { href: '/#record', label: text.recordChart },
    { href: '/#time-table', label: text.timeTable },
    { href: '/#blog', label: text.blog },
    ...(chartMonth ? [{ href: monthChartPath(chartMonth), label: text.charts }] : []),
  ];
  return links.map((link) => ({ ...link, href: inLanguage(language, link.href) }));
}

function GlobeIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-4 w-4 fill-none stroke-current stroke-2">
      <path d="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18ZM3 12h18M12 3c2.5 2.7 3.6 5.7 3.6 9s-1.1 6.3-3.6 9c-2.5-2.7-3.6-5.7-3.6-9S9.5 5.7 12 3Z" />
    </svg>
  );
}

/**
 * The link to this page in the other language, named in that language (its reader finds it) and
 * marked so, for screen readers and search engines alike.
 */
export function LanguageSwitch({ language, path }: { language: Language; path: string }) {
  const other = otherLanguage(language);
  return (
    <a
      href={inLanguage(other, path)}
      hrefLang={other}
      lang={other}
      data-testid="language-switch"
      className="inline-flex min-h-9 items-center gap-1.5 rounded-full border border-amber-300 px-3 text-sm font-semibold text-amber-200 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-amber-300 sm:order-last"
    >
      <GlobeIcon />
      {LANGUAGE_NAMES[other]}
    </a>
  );
}

export function SiteHeader({
  siteName,
  language = 'en',
  path = '/',
  chartMonth = null,
}: {
  siteName: string;
  language?: Language;
  /** The page's English address: the switch links to its twin. */
  path?: string;
  /** The current month (YYYY-MM), whose combined chart "Charts" opens; no entry without it. */
  chartMonth?: string | null;
}) {
  return (
    <header className="bg-slate-900 text-white shadow">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
        <a href={inLanguage(language, '/')} className="text-xl font-extrabold tracking-tight text-amber-300">
          {siteName}
        </a>
        <LanguageSwitch language={language} path={path} />
        <nav aria-label={CHROME_TEXT[language].nav.label} className="w-full sm:w-auto">
          <ul className="flex flex-wrap gap-x-1 gap-y-1 text-sm font-medium">
            {navLinks(language, chartMonth).map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="flex min-h-9 items-center rounded px-2 text-slate-100 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-amber-300"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}

/** How long the strip takes to pass one copy of its keywords: each keyword gets as long. */
const TICKER_SECONDS_PER_KEYWORD = 3.5;

/**
 * The scrolling keyword strip: a result keyword for every live ghadi (by OrderId, in the page's
 * language) between the site's own. The second copy makes the loop seamless and is hidden from readers.
 */
export function KeywordTicker({
  language = 'en',
  ghadis,
}: {
  language?: Language;
  ghadis: readonly GhadiNames[];
}) {
  const text = CHROME_TEXT[language];
  const keywords: Array<{ key: string; words: ReactNode }> = [
    ...text.keywordsBefore.map((words) => ({ key: words, words })),
    ...ghadis.map((ghadi) => ({
      key: `ghadi-${ghadi.GID}`,
      words: (
        <>
          {text.ghadiKeyword.before}
          <NameText name={ghadiName(ghadi, language)} language={language} />
          {text.ghadiKeyword.after}
        </>
      ),
    })),
    ...text.keywordsAfter.map((words) => ({ key: words, words })),
  ];
  const items = (hidden: boolean) => (
    <ul className="ticker-copy" aria-hidden={hidden || undefined}>
      {keywords.map((keyword) => (
        <li key={keyword.key} className="px-4">
          ★ {keyword.words}
        </li>
      ))}
    </ul>
  );
  return (
    <section
      aria-label={text.keywordsLabel}
      className="ticker bg-amber-300 py-1.5 text-sm font-semibold text-slate-900"
    >
      <div
        className="ticker-track"
        style={{ animationDuration: `${keywords.length * TICKER_SECONDS_PER_KEYWORD}s` }}
      >
        {items(false)}
        {items(true)}
      </div>
    </section>
  );
}

/** HTML from a content block, which the server sanitized when it was saved. */
export function ContentHtml({ html, className = '' }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: content blocks are sanitized on save (server/lib/sanitize-html.ts).
  return <div className={`content-html ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}

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

function WhatsAppIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-6 w-6 fill-current">
      <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2Zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2Zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.2-.4.2-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.3.8 3.2.6.5-.1 1.5-.6 1.7-1.2.2-.6.2-1.1.1-1.2l-.4-.3Z" />
    </svg>
  );
}

function TelegramIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-6 w-6 fill-current">
      <path d="M21.9 4.3 18.7 19.4c-.2 1-.9 1.3-1.7.8l-4.9-3.6-2.4 2.3c-.3.3-.5.5-1 .5l.3-5 9.2-8.3c.4-.4-.1-.6-.6-.2L6.2 13.1l-4.9-1.5c-1-.3-1.1-1 .2-1.5L20.6 2.8c.9-.3 1.6.2 1.3 1.5Z" />
    </svg>
  );
}

function UpIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-6 w-6 fill-none stroke-current stroke-[2.5]">
      <path d="m6 15 6-6 6 6" />
    </svg>
  );
}

/**
 * Share links (to this page) and a way back to the top. They float at the bottom right only where the
 * page's column leaves them room (75rem and wider); on narrower screens they are a row in the footer,
 * so that they never cover a value, a link or the footer's last line.
 */
export function SocialLinks({
  siteName,
  path,
  language = 'en',
}: {
  siteName: string;
  /** The page's English address: the page's own (its language's twin) is shared. */
  path: string;
  language?: Language;
}) {
  const share = CHROME_TEXT[language].share;
  // The full address is known in the browser only; the server renders the path (same first render).
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const address = encodeURIComponent(origin + inLanguage(language, path));
  const text = encodeURIComponent(share.text(siteName));
  const button =
    'flex h-11 w-11 items-center justify-center rounded-full text-white shadow-lg ring-2 ring-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300';
  return (
    <nav
      aria-label={share.label}
      data-testid="share-links"
      className="mb-4 flex justify-center gap-3 min-[75rem]:fixed min-[75rem]:right-3 min-[75rem]:bottom-3 min-[75rem]:z-20 min-[75rem]:mb-0 min-[75rem]:flex-col min-[75rem]:gap-2"
    >
      <a
        href={`https://wa.me/?text=${text}%20${address}`}
        target="_blank"
        rel="noopener noreferrer"
        className={`${button} bg-green-700 hover:bg-green-800`}
        aria-label={share.whatsApp}
      >
        <WhatsAppIcon />
      </a>
      <a
        href={`https://t.me/share/url?url=${address}&text=${text}`}
        target="_blank"
        rel="noopener noreferrer"
        className={`${button} bg-sky-700 hover:bg-sky-800`}
        aria-label={share.telegram}
      >
        <TelegramIcon />
      </a>
      <a href="#top" className={`${button} bg-slate-600 hover:bg-slate-700`} aria-label={share.top}>
        <UpIcon />
      </a>
    </nav>
  );
}

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
  /** The page's address in English (the Hindi twin is the same under /hi): the switch and share links. */
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
