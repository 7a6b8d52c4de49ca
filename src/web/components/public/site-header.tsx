import { monthChartPath } from '../../../shared/chart-pages.js';
import { inLanguage, type Language } from '../../../shared/page-language.js';
import { CHROME_TEXT } from './chrome-text.js';
import { LanguageSwitch } from './language-switch.js';

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

export function SiteHeader({
  siteName,
  language = 'en',
  path = '/',
  chartMonth = null,
}: {
  siteName: string;
  language?: Language;
  /** The page's English address: the switch links to its other-language alternate. */
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
