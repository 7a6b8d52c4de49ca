import { daysInMonth, yearChartPath } from '../../../shared/chart-pages.js';
import { MONTH_NAMES, monthLabel, monthName, twoDigits, yearOf } from '../../../shared/date-labels.js';
import { ghadiCalendarPath } from '../../../shared/ghadi-feed-paths.js';
import { ghadiMonthPath, yearChoices } from '../../../shared/ghadi-page-month.js';
import { runsOn } from '../../../shared/matka.js';
import { DAYS, resultsByDay } from '../../../shared/month-tables.js';
import { awaitedTimeOf } from '../../../shared/open-close-steps.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { ResultsPageData } from '../../../shared/public-page-data.js';
import { WithName } from '../../components/public/ghadi-name.js';
import { NotifyBell } from '../../components/public/notify-bell.js';
import { tapMonthValue } from '../../components/public/receipt-tap.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { useLiveData } from '../../lib/live-updates.js';
import { DayCells, declaredLive } from './day-cells.js';
import { EmbedSnippet } from './embed-snippet.js';
import { loadMonth, useMonthSelection } from './month-selection.js';
import { applyResultsEvent, type MonthData } from './results-live.js';
import { RESULTS_TEXT } from './results-text.js';

const selectClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600';

/** The ghadi's name in the other language, marked with it, before its result time. */
function OtherName({ ghadi, language }: { ghadi: NonNullable<MonthData['ghadi']>; language: Language }) {
  const other = language === 'en' ? ghadi.NameHn : ghadi.NameEn;
  if (other.trim() === '' || other === ghadiName(ghadi, language)) return null;
  return (
    <>
      <span lang={language === 'en' ? 'hi' : 'en'}>{other}</span>
      {' · '}
    </>
  );
}

/**
 * One ghadi's month: selectors, Back to Chart, and the 31-row table (useMonthSelection follows the
 * month chosen). Live events update the month shown without a request.
 */
export function PublicResultsView({ initial, language }: { initial: ResultsPageData; language: Language }) {
  const text = RESULTS_TEXT[language];
  const { data, load } = useLiveData<MonthData>({
    initial,
    version: initial.version,
    apply: applyResultsEvent,
    reload: (current) => loadMonth(current, current.month, current.year),
  });
  const { month, year, loadState, hydrated, choose, monthSelect, yearSelect } = useMonthSelection({
    initial,
    load,
    text,
  });
  const displayName = data.ghadi ? ghadiName(data.ghadi, language) : initial.name;

  const byDay =
    loadState.status === 'shown' && data.results
      ? resultsByDay(data.results, `${data.year}-${twoDigits(data.month)}`)
      : null;
  const monthPrefix = `${data.year}-${twoDigits(data.month)}`;
  const monthLength = daysInMonth(data.year, data.month);
  // Values without a time are explained once, under the table.
  const addedLater = byDay
    ? [...byDay.values()].some((result) => !declaredLive(result, initial.timeZone))
    : false;
  const todayDay =
    yearOf(data.today) === data.year && Number(data.today.slice(5, 7)) === data.month
      ? Number(data.today.slice(8, 10))
      : 0;

  return (
    <PublicShell
      siteName={initial.siteName}
      year={yearOf(data.today)}
      // The month chosen: the other language's page and a shared link open on it.
      path={ghadiMonthPath(initial.name, month, year, data.today)}
      language={language}
      today={data.today}
      ghadis={initial.ghadiNames}
    >
      <div className="mx-auto max-w-2xl space-y-4">
        <a
          href={inLanguage(language, '/')}
          className="inline-flex items-center gap-1 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-indigo-800 shadow-sm ring-1 ring-slate-200 hover:bg-indigo-50"
        >
          {text.back}
        </a>
        <div>
          <h1 className="text-2xl font-extrabold break-words text-slate-900">
            <WithName text={text.heading(displayName)} name={displayName} language={language} />
          </h1>
          {data.ghadi && (
            <>
              <p className="text-sm text-slate-600">
                <OtherName ghadi={data.ghadi} language={language} />
                {data.ghadi.Kind === 'open-close' && data.ghadi.OpenTime
                  ? text.marketTimes(data.ghadi.OpenTime, data.ghadi.RTime)
                  : text.resultTime(data.ghadi.RTime)}
              </p>
              <p className="mt-1 text-sm">
                <a
                  href={inLanguage(language, yearChartPath(data.ghadi.NameEn, data.year))}
                  className="inline-flex min-h-6 items-center font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950"
                >
                  {text.yearChart(displayName, data.year)}
                </a>
              </p>
              <p className="mt-1 text-sm">
                {/* The file, not a page: a phone hands it to its calendar app (docs/api.md, "Feeds and calendars"). */}
                <a
                  href={ghadiCalendarPath(data.ghadi.NameEn)}
                  type="text/calendar"
                  className="inline-flex min-h-6 items-center font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950"
                >
                  {text.calendar}
                </a>
              </p>
              <div className="mt-2">
                <NotifyBell gid={data.ghadi.GID} name={displayName} language={language} />
              </div>
              {/* Made on the server in the page's language (punctuality-line.ts). */}
              {initial.punctuality && <p className="mt-1 text-sm text-slate-700">{initial.punctuality}</p>}
            </>
          )}
        </div>

        <form
          method="get"
          className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
          onSubmit={(event) => {
            event.preventDefault();
            choose(month, year);
          }}
        >
          <label className="min-w-[8rem] flex-1 text-sm font-medium text-slate-700">
            {text.month}
            <select
              ref={monthSelect}
              name="month"
              className={selectClass}
              value={month}
              onChange={(event) => choose(Number(event.target.value), year)}
            >
              {MONTH_NAMES.map((name, index) => (
                <option key={name} value={index + 1}>
                  {monthName(index + 1, language)}
                </option>
              ))}
            </select>
          </label>
          <label className="min-w-[6rem] flex-1 text-sm font-medium text-slate-700">
            {text.year}
            <select
              ref={yearSelect}
              name="year"
              className={selectClass}
              value={year}
              onChange={(event) => choose(month, Number(event.target.value))}
            >
              {yearChoices(data.today, year).map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </label>
          {/* Without JavaScript the form submits; with it, choosing is enough. */}
          <button
            type="submit"
            hidden={hydrated}
            className="rounded-md bg-indigo-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
          >
            {text.show}
          </button>
        </form>

        {loadState.status === 'loading' && (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg bg-white p-4 text-slate-600 shadow-sm"
          >
            <span
              aria-hidden="true"
              className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600"
            />
            {text.loading}
          </p>
        )}
        {loadState.status === 'error' && (
          <div
            role="alert"
            className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800"
          >
            <span>{loadState.message}</span>
            <button
              type="button"
              onClick={() => window.location.reload()}
              className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-100"
            >
              {text.retry}
            </button>
          </div>
        )}
        {loadState.status === 'shown' && !data.results && (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            {/* The spec's English text names the page's address; a Hindi reader knows the ghadi by NameHn. */}
            {text.noData(language === 'hi' ? displayName : initial.name)}
          </p>
        )}
        {byDay && (
          <>
            <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
              {/* biome-ignore lint/a11y/useKeyWithClickEvents: value buttons' clicks (day-cells.tsx), keyboard's too */}
              <table
                className="day-table results-table w-full text-center"
                onClick={(event) =>
                  tapMonthValue(
                    event,
                    data.ghadi && {
                      gid: data.ghadi.GID,
                      name: displayName,
                      language,
                      timeZone: initial.timeZone,
                    },
                  )
                }
              >
                <caption className="bg-slate-800 px-3 py-2 text-left font-semibold text-white">
                  <WithName
                    text={text.caption(displayName, monthLabel(data.month, data.year, language))}
                    name={displayName}
                    language={language}
                  />
                </caption>
                <thead>
                  <tr className="bg-slate-100 text-sm text-slate-700">
                    <th scope="col" className="w-16 px-2 py-2">
                      {text.day}
                    </th>
                    <th scope="col" className="px-2 py-2">
                      {text.result}
                    </th>
                    <th scope="col" className="px-2 py-2">
                      {text.declared}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {DAYS.map((day) => {
                    const date = `${monthPrefix}-${twoDigits(day)}`;
                    const { ghadi } = data;
                    return (
                      <tr key={day} aria-current={day === todayDay ? 'date' : undefined}>
                        <th scope="row">{twoDigits(day)}</th>
                        <DayCells
                          result={byDay.get(day)}
                          state={
                            date === data.today
                              ? 'today'
                              : date < data.today && day <= monthLength
                                ? 'past'
                                : 'later'
                          }
                          due={ghadi ? awaitedTimeOf(ghadi, '') : null}
                          offDay={ghadi !== null && day <= monthLength && !runsOn(ghadi.Days, date)}
                          timeZone={initial.timeZone}
                          language={language}
                          text={text}
                        />
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {addedLater && <p className="text-sm text-slate-700">{text.addedLater}</p>}
          </>
        )}
        {data.ghadi && <EmbedSnippet ghadi={data.ghadi} siteUrl={initial.siteUrl} language={language} />}
      </div>
    </PublicShell>
  );
}
