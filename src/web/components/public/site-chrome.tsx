import { type ReactNode, useEffect, useState } from 'react';
import { TIME_TABLE } from '../../../shared/promo-tables.js';
import { trackVisitOnce } from '../../lib/visitor.js';
import './public-styles.css';

/** Section anchors of the home page; from another page they are full loads of the home page. */
const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/#chart', label: 'Live Chart' },
  { href: '/#record', label: 'Record Chart' },
  { href: '/#time-table', label: 'Time Table' },
  { href: '/#blog', label: 'Blog' },
] as const;

export function SiteHeader({ siteName }: { siteName: string }) {
  return (
    <header className="bg-slate-900 text-white shadow">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
        <a href="/" className="text-xl font-extrabold tracking-tight text-amber-300">
          {siteName}
        </a>
        <nav aria-label="Main">
          <ul className="flex flex-wrap gap-x-1 gap-y-1 text-sm font-medium">
            {NAV_LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="block rounded px-2 py-1 text-slate-100 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-amber-300"
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

const KEYWORDS = [
  'Satta King Live Result',
  ...TIME_TABLE.map((slot) => `${slot.name} Result`),
  'Satta Chart',
  'Monthly Record Chart',
  'Fast Result',
];

/** The scrolling keyword strip; the second copy makes the loop seamless and is hidden from readers. */
export function KeywordTicker() {
  const items = (hidden: boolean) => (
    <ul className="ticker-copy" aria-hidden={hidden || undefined}>
      {KEYWORDS.map((keyword) => (
        <li key={keyword} className="px-4">
          ★ {keyword}
        </li>
      ))}
    </ul>
  );
  return (
    <section
      aria-label="Keywords"
      className="ticker bg-amber-300 py-1.5 text-sm font-semibold text-slate-900"
    >
      <div className="ticker-track">
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

export function SiteFooter({ siteName, year }: { siteName: string; year: number }) {
  return (
    <footer className="mt-10 bg-slate-900 px-4 py-6 text-center text-sm text-slate-300">
      <p>
        © {year} {siteName}. All rights reserved.
      </p>
      <p className="mt-1 text-xs text-slate-400">
        Results are published for information only. We do not accept or place bets.
      </p>
      <p className="mt-2 space-x-3">
        <a href="/" className="underline hover:text-white">
          Home
        </a>
        <a href="/#chart" className="underline hover:text-white">
          Live Chart
        </a>
        <a href="/declarations" className="underline hover:text-white">
          Declaration log
        </a>
        <a href="/sitemap.xml" className="underline hover:text-white">
          Sitemap
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

/** Floating share links (to this page) and a way back to the top. */
export function SocialLinks({ siteName, path }: { siteName: string; path: string }) {
  // The full address is known in the browser only; the server renders the path (same first render).
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const address = encodeURIComponent(origin + path);
  const text = encodeURIComponent(`${siteName} – live results`);
  const button =
    'flex h-11 w-11 items-center justify-center rounded-full text-white shadow-lg ring-2 ring-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900';
  return (
    <nav aria-label="Share" className="fixed right-3 bottom-3 z-20 flex flex-col gap-2">
      <a
        href={`https://wa.me/?text=${text}%20${address}`}
        target="_blank"
        rel="noopener noreferrer"
        className={`${button} bg-green-600 hover:bg-green-700`}
        aria-label="Share on WhatsApp"
      >
        <WhatsAppIcon />
      </a>
      <a
        href={`https://t.me/share/url?url=${address}&text=${text}`}
        target="_blank"
        rel="noopener noreferrer"
        className={`${button} bg-sky-500 hover:bg-sky-600`}
        aria-label="Share on Telegram"
      >
        <TelegramIcon />
      </a>
      <a href="#top" className={`${button} bg-slate-700 hover:bg-slate-800`} aria-label="Back to top">
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
  children,
}: {
  siteName: string;
  year: number;
  path: string;
  children: ReactNode;
}) {
  useEffect(() => {
    void trackVisitOnce();
    // A marker for tests and tools: the page is interactive from here on.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <div id="top" className="flex min-h-dvh flex-col bg-slate-100 text-slate-900">
      <SiteHeader siteName={siteName} />
      <KeywordTicker />
      <main className="mx-auto w-full max-w-5xl flex-1 px-3 py-5 sm:px-4">{children}</main>
      <SiteFooter siteName={siteName} year={year} />
      <SocialLinks siteName={siteName} path={path} />
    </div>
  );
}
