import { Fragment } from 'react';
import { daysInMonth, yearChartPath } from '../../../shared/chart-pages.js';
import { monthLabel, twoDigits, yearOf } from '../../../shared/date-labels.js';
import { ghadiMonthPath, ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { DAYS } from '../../../shared/month-tables.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { YearChartPageData } from '../../../shared/public-page-data.js';
import { WithName } from '../../components/public/ghadi-name.js';
import { tapYearCell } from '../../components/public/receipt-tap.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { TappedCells } from '../../components/public/tapped-cell.js';
import { useLiveData } from '../../lib/live-updates.js';
import { applyYearChartEvent, reloadYearChart, type YearChartState } from './chart-live.js';
import {
  CHART_TITLE_ID,
  ChartLegend,
  ChartScroll,
  linkClass,
  MissingDay,
  PageLinks,
  PillLink,
  ResultCell,
} from './chart-parts.js';
import { CHART_TEXT } from './chart-text.js';
import { WeeklyChartLinks } from './weekly-chart-links.js';

const MONTHS = Array.from({ length: 12 }, (_, index) => index + 1);

/** Every year with a result, and the current year: the "other years" links, oldest first. */
function listedYears(years: readonly number[], currentYear: number): number[] {
  return [...new Set([...years, currentYear])].sort((a, b) => a - b);
}

/**
 * A ghadi's year: 31 day rows × 12 month columns, each month linking to its results page. Rendered
 * on the server (it reads completely without JavaScript); live events fill in results as they come.
 */
export function YearChartView({ initial, language }: { initial: YearChartPageData; language: Language }) {
  const { data } = useLiveData<YearChartState>({
    initial,
    version: initial.version,
    apply: applyYearChartEvent,
    reload: reloadYearChart,
  });
  const { chart, today } = data;
  const t = CHART_TEXT[language];
  const name = ghadiName(chart, language);
  const currentYear = yearOf(today);
  const to = (path: string) => inLanguage(language, path);
  const lengths = MONTHS.map((month) => daysInMonth(chart.year, month));
  // The years around this one that have a chart: a year without results has none.
  const listed = listedYears(chart.years, currentYear);
  const previousYear = listed.filter((year) => year < chart.year).at(-1);
  const nextYear = listed.find((year) => year > chart.year);
  const datePrefix = `${chart.year}-`;
  // An open/close market's cells show its jodi: a tap shows the whole value (a jodi chart is as it was).
  const openClose = chart.Kind === 'open-close';
  const Cells = openClose ? TappedCells : Fragment;

  return (
    <PublicShell
      siteName={data.siteName}
      year={currentYear}
      path={yearChartPath(chart.NameEn, chart.year)}
      language={language}
      today={today}
      ghadis={data.ghadiNames}
    >
      <div className="mx-auto max-w-4xl space-y-4">
        <PageLinks label={t.breadcrumb}>
          <a href={to('/')} className={linkClass}>
            {`← ${t.home}`}
          </a>
          <a href={to(ghadiPagePath(chart.NameEn))} className={linkClass}>
            <WithName text={t.results(name)} name={name} language={language} />
          </a>
        </PageLinks>

        <h1 id={CHART_TITLE_ID} className="text-2xl font-extrabold break-words text-slate-900">
          <WithName text={t.yearTitle(name, chart.year)} name={name} language={language} />
        </h1>
        {data.removed && (
          <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
            {t.removed}
          </p>
        )}

        <PageLinks label={t.yearLinks}>
          {previousYear !== undefined ? (
            <PillLink href={to(yearChartPath(chart.NameEn, previousYear))} rel="prev">
              {`← ${t.previousYear} (${previousYear})`}
            </PillLink>
          ) : (
            <span />
          )}
          {nextYear !== undefined && (
            <PillLink href={to(yearChartPath(chart.NameEn, nextYear))} rel="next">
              {`${t.nextYear} (${nextYear}) →`}
            </PillLink>
          )}
        </PageLinks>

        {/* Its weekly charts exist once the year has a result (the current year's chart may have none). */}
        {data.weekly && chart.months.some((days) => days.some((cell) => cell !== null)) && (
          <WeeklyChartLinks nameEn={chart.NameEn} name={name} year={chart.year} language={language} />
        )}
        <Cells>
          <ChartScroll language={language}>
            {/* biome-ignore lint/a11y/useKeyWithClickEvents: a tap shows a value's receipt; by keyboard, its month's page has each value's button */}
            <table
              className="chart-table chart-receipts"
              aria-labelledby={CHART_TITLE_ID}
              onClick={(event) => tapYearCell(event, { name, language, timeZone: data.timeZone }, chart)}
            >
              <thead>
                <tr>
                  <th scope="col">{t.day}</th>
                  {MONTHS.map((month) => (
                    <th key={month} scope="col">
                      {/* A month still to come has no results page worth a visit. */}
                      {chart.year < currentYear ||
                      (chart.year === currentYear && month <= Number(today.slice(5, 7))) ? (
                        <a
                          href={to(ghadiMonthPath(chart.NameEn, month, chart.year, today))}
                          title={t.monthResults(name, monthLabel(month, chart.year, language))}
                        >
                          {t.shortMonths[month - 1]}
                        </a>
                      ) : (
                        t.shortMonths[month - 1]
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {DAYS.map((day) => (
                  <tr key={day}>
                    <th scope="row">{twoDigits(day)}</th>
                    {MONTHS.map((month, index) => {
                      if (day > (lengths[index] ?? 31)) return <MissingDay key={month} language={language} />;
                      const date = `${datePrefix}${twoDigits(month)}-${twoDigits(day)}`;
                      return (
                        <ResultCell
                          key={month}
                          cell={chart.months[index]?.[day - 1] ?? null}
                          past={date < today}
                          current={date === today}
                          kind={chart.Kind}
                          language={language}
                        />
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </ChartScroll>
        </Cells>
        <ChartLegend
          language={language}
          missingDays
          today={chart.year === currentYear}
          openHalf={openClose}
        />

        <nav aria-labelledby="other-years-title" className="rounded-lg bg-white p-3 shadow-sm">
          <h2 id="other-years-title" className="text-lg font-bold text-slate-900">
            {t.otherYears}
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2">
            {listedYears(chart.years, currentYear).map((year) => (
              <li key={year}>
                <a
                  href={to(yearChartPath(chart.NameEn, year))}
                  aria-current={year === chart.year ? 'page' : undefined}
                  className="inline-block rounded-md px-3 py-1.5 text-sm font-medium text-indigo-800 ring-1 ring-slate-200 hover:bg-indigo-50 aria-[current=page]:bg-indigo-700 aria-[current=page]:text-white"
                >
                  {year}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </PublicShell>
  );
}
