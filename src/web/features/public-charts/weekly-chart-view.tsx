import { useEffect } from 'react';
import { yearChartPath } from '../../../shared/chart-pages.js';
import { yearOf } from '../../../shared/date-labels.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { WeeklyChartPageData } from '../../../shared/public-page-data.js';
import { weeklyChartPath } from '../../../shared/weekly-chart-pages.js';
import { dateInWeek } from '../../../shared/weekly-charts.js';
import { WithName } from '../../components/public/ghadi-name.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { useLiveData } from '../../lib/live-updates.js';
import {
  CHART_TITLE_ID,
  ChartScroll,
  CommonLegendItems,
  linkClass,
  PageLinks,
  PillLink,
} from './chart-parts.js';
import { CHART_TEXT } from './chart-text.js';
import { DayCell } from './weekly-chart-cells.js';
import { WeeklyChartLinks } from './weekly-chart-links.js';
import { applyWeeklyChartEvent, reloadWeeklyChart, type WeeklyChartState } from './weekly-chart-live.js';
import { weeklyTitle } from './weekly-chart-text.js';
import { WEEKLY_TABLE_TEXT } from './weekly-table-text.js';
import './weekly-chart-styles.css';

/** "2026-11-24" as "24 Nov" ("24 नव॰"): a week row's dates. */
function dayAndMonth(date: string, language: Language): string {
  return `${Number(date.slice(8, 10))} ${CHART_TEXT[language].shortMonths[Number(date.slice(5, 7)) - 1]}`;
}

/**
 * A panna or open/close ghadi's year, a row per week (Monday first, labelled with its dates) and a
 * column per weekday it runs: its jodis or its panels (open panna, jodi, close panna, stacked).
 * Rendered on the server (it reads completely without JavaScript); live events fill in each open
 * and close step as it is declared.
 */
export function WeeklyChartView({ initial, language }: { initial: WeeklyChartPageData; language: Language }) {
  const { data, load } = useLiveData<WeeklyChartState>({
    initial,
    version: initial.version,
    apply: applyWeeklyChartEvent,
    reload: reloadWeeklyChart,
  });
  // An event the page could not apply by itself (a removed result, new days or kind): the chart afresh.
  useEffect(() => {
    if (!data.stale) return;
    load(reloadWeeklyChart).catch((error: unknown) => console.error('Failed to reload the chart', error));
  }, [data.stale, load]);

  const { chart, today, view } = data;
  const t = CHART_TEXT[language];
  const w = WEEKLY_TABLE_TEXT[language];
  const name = ghadiName(chart, language);
  const to = (path: string) => inLanguage(language, path);
  // The years with results, and this one (its page is open).
  const years = [...new Set([...chart.years, chart.year])].sort((a, b) => a - b);
  const previousYear = years.filter((year) => year < chart.year).at(-1);
  const nextYear = years.find((year) => year > chart.year);
  const first = chart.weeks[0]?.from ?? '';
  const last = chart.weeks.at(-1)?.to ?? '';
  const otherYears = !first.startsWith(`${chart.year}-`) || !last.startsWith(`${chart.year}-`);

  return (
    <PublicShell
      siteName={data.siteName}
      year={yearOf(today)}
      path={weeklyChartPath(view, chart.NameEn, chart.year)}
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
          <a href={to(yearChartPath(chart.NameEn, chart.year))} className={linkClass}>
            <WithName text={t.yearTitle(name, chart.year)} name={name} language={language} />
          </a>
        </PageLinks>

        <h1 id={CHART_TITLE_ID} className="text-2xl font-extrabold break-words text-slate-900">
          <WithName text={weeklyTitle(language, view, name, chart.year)} name={name} language={language} />
        </h1>
        {data.removed && (
          <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
            {t.removed}
          </p>
        )}

        <WeeklyChartLinks
          nameEn={chart.NameEn}
          name={name}
          year={chart.year}
          language={language}
          current={view}
        />
        <PageLinks label={t.yearLinks}>
          {previousYear !== undefined ? (
            <PillLink href={to(weeklyChartPath(view, chart.NameEn, previousYear))} rel="prev">
              {`← ${t.previousYear} (${previousYear})`}
            </PillLink>
          ) : (
            <span />
          )}
          {nextYear !== undefined && (
            <PillLink href={to(weeklyChartPath(view, chart.NameEn, nextYear))} rel="next">
              {`${t.nextYear} (${nextYear}) →`}
            </PillLink>
          )}
        </PageLinks>

        <ChartScroll language={language}>
          <table className={`chart-table weekly-table ${view}`} aria-labelledby={CHART_TITLE_ID}>
            <thead>
              <tr>
                <th scope="col">{w.week}</th>
                {chart.days.map((day) => (
                  <th key={day} scope="col">
                    {w.weekdays[day]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {chart.weeks.map((week) => (
                <tr key={week.from}>
                  <th scope="row">{`${dayAndMonth(week.from, language)} – ${dayAndMonth(week.to, language)}`}</th>
                  {chart.days.map((day, index) => (
                    <DayCell
                      key={day}
                      cell={week.cells[index] ?? null}
                      date={dateInWeek(week.from, day)}
                      chart={chart}
                      view={view}
                      today={today}
                      language={language}
                    />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ChartScroll>
        <WeeklyLegend
          language={language}
          pending={chart.Kind === 'open-close'}
          otherYears={otherYears ? chart.year : null}
          today={chart.year === yearOf(today)}
        />
      </div>
    </PublicShell>
  );
}

/** What the marks mean (a tooltip cannot be read on a phone): only the marks this chart can show. */
function WeeklyLegend({
  language,
  pending,
  otherYears,
  today,
}: {
  language: Language;
  pending: boolean;
  /** The chart's year, when its first or last week holds dates of another. */
  otherYears: number | null;
  today: boolean;
}) {
  const t = CHART_TEXT[language];
  const w = WEEKLY_TABLE_TEXT[language];
  return (
    <ul className="chart-legend">
      <CommonLegendItems language={language} />
      {pending && (
        <li>
          <span aria-hidden="true" className="chart-legend-n">
            *
          </span>{' '}
          {w.closeToCome}
        </li>
      )}
      <li>
        <span aria-hidden="true" className="chart-legend-h" /> {w.holiday}
      </li>
      {otherYears !== null && (
        <li>
          <span aria-hidden="true" className="chart-legend-x" /> {w.notInYear(otherYears)}
        </li>
      )}
      {today && (
        <li>
          <span aria-hidden="true" className="chart-legend-t" /> {t.today}
        </li>
      )}
    </ul>
  );
}
