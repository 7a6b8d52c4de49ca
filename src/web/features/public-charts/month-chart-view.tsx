import { Fragment, useEffect } from 'react';
import { daysInMonth, monthChartPath, yearChartPath } from '../../../shared/chart-pages.js';
import { twoDigits, yearMonthLabel, yearOf } from '../../../shared/date-labels.js';
import { DAYS } from '../../../shared/month-tables.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { MonthChartPageData } from '../../../shared/public-page-data.js';
import { NameText, WithName } from '../../components/public/ghadi-name.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { TappedCells } from '../../components/public/tapped-cell.js';
import { useLiveData } from '../../lib/live-updates.js';
import { applyMonthChartEvent, type MonthChartState, reloadMonthChart } from './chart-live.js';
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

/** Past this many ghadis the chart is wider than a wide screen's page: its scroll hint stays. */
const WIDE_COLUMNS = 8;

/**
 * Every listed ghadi's month: 31 day rows × one column per ghadi (by OrderId), each ghadi linking to
 * its year chart. Rendered on the server; live events fill in results as they come.
 */
export function MonthChartView({ initial, language }: { initial: MonthChartPageData; language: Language }) {
  const { data, load } = useLiveData<MonthChartState>({
    initial,
    version: initial.version,
    apply: applyMonthChartEvent,
    reload: reloadMonthChart,
  });
  // An event the columns could not take (a new ghadi, one moved in the order): the chart afresh.
  useEffect(() => {
    if (!data.stale) return;
    load(reloadMonthChart).catch((error: unknown) => console.error('Failed to reload the chart', error));
  }, [data.stale, load]);

  const { chart, today } = data;
  const t = CHART_TEXT[language];
  const to = (path: string) => inLanguage(language, path);
  const year = Number(chart.month.slice(0, 4));
  const length = daysInMonth(year, Number(chart.month.slice(5, 7)));
  const { previousMonth: previous, nextMonth: next } = data;
  // An open/close market's cells show its jodi: a tap shows the whole value (jodi charts are as they were).
  const openClose = chart.ghadis.some((ghadi) => ghadi.Kind === 'open-close');
  const Cells = openClose ? TappedCells : Fragment;

  return (
    <PublicShell
      siteName={data.siteName}
      year={yearOf(today)}
      path={monthChartPath(chart.month)}
      language={language}
      today={today}
      ghadis={chart.ghadis}
    >
      <div className="mx-auto max-w-4xl space-y-4">
        <PageLinks label={t.breadcrumb}>
          <a href={to('/')} className={linkClass}>
            {`← ${t.home}`}
          </a>
        </PageLinks>

        <h1 id={CHART_TITLE_ID} className="text-2xl font-extrabold break-words text-slate-900">
          {t.monthTitle(yearMonthLabel(chart.month, language))}
        </h1>

        <PageLinks label={t.monthLinks}>
          {previous ? (
            <PillLink href={to(monthChartPath(previous))} rel="prev">
              {`← ${t.previousMonth} (${yearMonthLabel(previous, language)})`}
            </PillLink>
          ) : (
            <span />
          )}
          {next && (
            <PillLink href={to(monthChartPath(next))} rel="next">
              {`${t.nextMonth} (${yearMonthLabel(next, language)}) →`}
            </PillLink>
          )}
        </PageLinks>

        {chart.ghadis.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            {t.noGhadis}
          </p>
        ) : (
          <>
            <Cells>
              <ChartScroll language={language} wide={chart.ghadis.length > WIDE_COLUMNS}>
                <table className="chart-table" aria-labelledby={CHART_TITLE_ID}>
                  <thead>
                    <tr>
                      <th scope="col">{t.day}</th>
                      {chart.ghadis.map((ghadi) => (
                        <th key={ghadi.GID} scope="col">
                          <a href={to(yearChartPath(ghadi.NameEn, year))}>
                            <NameText name={ghadiName(ghadi, language)} language={language} />
                          </a>
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {DAYS.map((day) => {
                      if (day > length)
                        return (
                          <tr key={day}>
                            <th scope="row">{twoDigits(day)}</th>
                            <MissingDay language={language} span={chart.ghadis.length} />
                          </tr>
                        );
                      const date = `${chart.month}-${twoDigits(day)}`;
                      const cells = chart.days[day - 1] ?? [];
                      return (
                        <tr key={day} aria-current={date === today ? 'date' : undefined}>
                          <th scope="row">{twoDigits(day)}</th>
                          {chart.ghadis.map((ghadi, index) => (
                            <ResultCell
                              key={ghadi.GID}
                              cell={cells[index] ?? null}
                              past={date < today}
                              kind={ghadi.Kind}
                              language={language}
                            />
                          ))}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </ChartScroll>
            </Cells>
            <ChartLegend
              language={language}
              missingDays={length < 31}
              today={today.startsWith(chart.month)}
              openHalf={openClose}
            />
            <nav aria-labelledby="year-charts-title" className="rounded-lg bg-white p-3 shadow-sm">
              <h2 id="year-charts-title" className="text-lg font-bold text-slate-900">
                {t.yearCharts(year)}
              </h2>
              <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-2 text-sm">
                {chart.ghadis.map((ghadi) => (
                  <li key={ghadi.GID}>
                    <a href={to(yearChartPath(ghadi.NameEn, year))} className={linkClass}>
                      <WithName
                        text={t.yearTitle(ghadiName(ghadi, language), year)}
                        name={ghadiName(ghadi, language)}
                        language={language}
                      />
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          </>
        )}
      </div>
    </PublicShell>
  );
}
