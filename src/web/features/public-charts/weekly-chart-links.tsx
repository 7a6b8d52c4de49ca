import { inLanguage, type Language } from '../../../shared/page-language.js';
import { WEEKLY_VIEWS, type WeeklyView, weeklyChartPath } from '../../../shared/weekly-chart-pages.js';
import { WithName } from '../../components/public/ghadi-name.js';
import { WEEKLY_CHART_TEXT, weeklyTitle } from './weekly-chart-text.js';

const linkClass =
  'inline-block rounded-md bg-white px-3 py-1.5 text-sm font-medium text-indigo-800 shadow-sm ring-1 ring-slate-200 hover:bg-indigo-50 aria-[current=page]:bg-indigo-700 aria-[current=page]:text-white';

/**
 * A ghadi's weekly charts of a year (jodi, panel): under its year chart, and on each weekly chart,
 * where the one shown is marked. Only for a year that has them (a panna or open/close ghadi's
 * year with results).
 */
export function WeeklyChartLinks({
  nameEn,
  name,
  year,
  language,
  current,
}: {
  nameEn: string;
  /** The name as the page shows it (NameHn in Hindi). */
  name: string;
  year: number;
  language: Language;
  current?: WeeklyView;
}) {
  return (
    <nav aria-label={WEEKLY_CHART_TEXT[language].weeklyCharts}>
      <ul className="flex flex-wrap gap-2">
        {WEEKLY_VIEWS.map((view) => (
          <li key={view}>
            <a
              href={inLanguage(language, weeklyChartPath(view, nameEn, year))}
              aria-current={view === current ? 'page' : undefined}
              className={linkClass}
            >
              <WithName text={weeklyTitle(language, view, name, year)} name={name} language={language} />
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
