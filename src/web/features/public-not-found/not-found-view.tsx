import { monthChartPath } from '../../../shared/chart-pages.js';
import { yearMonthLabel, yearOf } from '../../../shared/date-labels.js';
import { inLanguage, type Language } from '../../../shared/page-language.js';
import type { NotFoundPageData } from '../../../shared/public-page-data.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { NOT_FOUND_TEXT } from './not-found-text.js';

const linkClass =
  'inline-block rounded-md bg-white px-4 py-2 font-medium text-indigo-800 shadow-sm ring-1 ring-slate-200 hover:bg-indigo-50';

/** The site's 404 page: what went wrong in a sentence, and the two places most visitors were after. */
export function NotFoundView({ data, language }: { data: NotFoundPageData; language: Language }) {
  const t = NOT_FOUND_TEXT[language];
  const month = data.today.slice(0, 7);
  return (
    <PublicShell
      siteName={data.siteName}
      year={yearOf(data.today)}
      path="/"
      language={language}
      today={data.today}
      ghadis={data.ghadiNames}
    >
      <div className="mx-auto max-w-xl space-y-4 py-8 text-center">
        <h1 className="text-2xl font-extrabold text-slate-900">{t.title}</h1>
        <p className="text-slate-700">{t.body}</p>
        <nav aria-label={t.links}>
          <ul className="flex flex-wrap justify-center gap-3">
            <li>
              <a href={inLanguage(language, '/')} className={linkClass}>
                {t.home}
              </a>
            </li>
            <li>
              <a href={inLanguage(language, monthChartPath(month))} className={linkClass}>
                {t.monthChart(yearMonthLabel(month, language))}
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </PublicShell>
  );
}
