import { lazy, type ReactNode, Suspense, useId, useState } from 'react';
import { addDays } from '../../../shared/dates.js';
import type { LiveEvent } from '../../../shared/live-events.js';
import type { DailyStatsEntry, GhadiStatsEntry } from '../../../shared/schemas/site-stats.js';
import { queryKeys } from '../../api/query-keys.js';
import { useSiteToday } from '../../api/site-api.js';
import { useDailyStats, useGhadiStats } from '../../api/site-stats-api.js';
import { Button } from '../../components/ui/button.js';
import { ErrorState, Spinner } from '../../components/ui/states.js';
import { useLiveRefetch } from '../../hooks/use-live-refetch.js';
import { ChartBoundary } from './chart-boundary.js';
import {
  count,
  dayLabel,
  declarationsSummary,
  delaySummary,
  minutesText,
  onTimeSummary,
  percent,
  visitorsSummary,
} from './stats-summaries.js';

// The charting library loads with the plots, after the board and counts are on screen.
const DailyBars = lazy(() => import('./stats-charts.js').then((module) => ({ default: module.DailyBars })));
const GhadiBars = lazy(() => import('./stats-charts.js').then((module) => ({ default: module.GhadiBars })));

const LIVE_KINDS: ReadonlyArray<LiveEvent['kind']> = ['result', 'ghadi', 'day'];

/** The plots cover the last 30 days of the site's zone, today included. */
export const STATS_DAYS = 30;

const COLORS = {
  visitors: '#0f766e',
  declarations: '#4f46e5',
  corrections: '#d97706',
  onTime: '#15803d',
  delay: '#b45309',
};

const TH = 'px-2 py-1.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
const TD = 'px-2 py-1 tabular-nums text-slate-800';

function NumbersTable({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="sticky top-0 bg-slate-50">
        <tr>
          {head.map((label, index) => (
            <th key={label} scope="col" className={`${TH} ${index > 0 ? 'text-right' : ''}`}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((cells, row) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are a fixed list, redrawn whole
          <tr key={row}>
            {cells.map((cell, index) =>
              index === 0 ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells keep their column
                <th key={index} scope="row" className={`${TD} text-left font-medium`}>
                  {cell}
                </th>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells keep their column
                <td key={index} className={`${TD} text-right`}>
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A plot with its text alternative: a one-line summary under its title, and the same numbers as a
 * table, which screen readers always get (visually hidden) and anyone can show instead of the plot.
 */
function StatsFigure({
  title,
  summary,
  table,
  chartHeight,
  chart,
}: {
  title: string;
  summary: string;
  table: ReactNode;
  chartHeight: number;
  /** Null when there is nothing to draw. */
  chart: ReactNode;
}) {
  const id = useId();
  const [asTable, setAsTable] = useState(false);
  const [chartFailed, setChartFailed] = useState(false);
  const tableShown = asTable || chartFailed;
  return (
    <figure className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <figcaption>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 className="font-semibold text-slate-900">{title}</h3>
          {!chartFailed && (
            <Button
              size="sm"
              variant="secondary"
              aria-expanded={asTable}
              aria-controls={`${id}-table`}
              onClick={() => setAsTable((shown) => !shown)}
            >
              {asTable ? 'Show as plot' : 'Show as table'}
            </Button>
          )}
        </div>
        <p className="mt-1 text-sm text-slate-600">{summary}</p>
      </figcaption>
      {!tableShown && chart === null && (
        <p className="mt-3 rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">
          Nothing to plot yet.
        </p>
      )}
      {!tableShown && chart !== null && (
        <div aria-hidden="true" className="mt-3" style={{ height: chartHeight }}>
          <ChartBoundary onError={() => setChartFailed(true)}>
            <Suspense fallback={<div className="h-full animate-pulse rounded bg-slate-50" />}>
              {chart}
            </Suspense>
          </ChartBoundary>
        </div>
      )}
      {chartFailed && (
        <p className="mt-3 text-sm text-slate-600">The plot could not be drawn; here are its numbers.</p>
      )}
      <div id={`${id}-table`} className={tableShown ? 'mt-3 max-h-80 overflow-auto' : 'sr-only'}>
        {table}
      </div>
    </figure>
  );
}

function DailyFigures({ days }: { days: DailyStatsEntry[] }) {
  const data = days.map((day) => ({ label: dayLabel(day.date), ...day }));
  const dates = days.map((day) => (
    <time key={day.date} dateTime={day.date}>
      {dayLabel(day.date)}
    </time>
  ));
  return (
    <>
      <StatsFigure
        title="Visitors per day"
        summary={visitorsSummary(days)}
        chartHeight={220}
        chart={
          <DailyBars data={data} series={[{ key: 'visitors', name: 'Visitors', color: COLORS.visitors }]} />
        }
        table={
          <NumbersTable
            caption="Visitors per day, last 30 days"
            head={['Date', 'Visitors']}
            rows={days.map((day, index) => [dates[index], count(day.visitors)])}
          />
        }
      />
      <StatsFigure
        title="Declarations per day"
        summary={declarationsSummary(days)}
        chartHeight={220}
        chart={
          <DailyBars
            data={data}
            series={[
              { key: 'declarations', name: 'Declared', color: COLORS.declarations, stack: 'results' },
              { key: 'corrections', name: 'Corrected', color: COLORS.corrections, stack: 'results' },
            ]}
          />
        }
        table={
          <NumbersTable
            caption="Results declared and corrected per day, last 30 days"
            head={['Date', 'Declared', 'Corrected']}
            rows={days.map((day, index) => [dates[index], count(day.declarations), count(day.corrections)])}
          />
        }
      />
    </>
  );
}

function GhadiFigures({ ghadis }: { ghadis: GhadiStatsEntry[] }) {
  const rated = ghadis.filter((ghadi) => ghadi.onTimeRate !== null);
  const timed = ghadis.filter((ghadi) => ghadi.medianDelayMinutes !== null);
  // A bar and its gap per ghadi drawn, and the axis.
  const barsHeight = (bars: number) => Math.max(96, bars * 30 + 36);
  const none = <span className="text-slate-600">–</span>;
  return (
    <>
      <StatsFigure
        title="On time, per ghadi"
        summary={onTimeSummary(ghadis, STATS_DAYS)}
        chartHeight={barsHeight(rated.length)}
        chart={
          rated.length === 0 ? null : (
            <GhadiBars
              data={rated.map((ghadi) => ({
                name: ghadi.NameEn,
                value: Math.round((ghadi.onTimeRate ?? 0) * 100),
              }))}
              name="On time"
              color={COLORS.onTime}
              unit="%"
              max={100}
            />
          )
        }
        table={
          <NumbersTable
            caption="Results on time per ghadi, last 30 days"
            // Imported days have no declaration time: counted apart, in neither Days owed nor Rate.
            head={['Ghadi', 'Days owed', 'Declared', 'On time', 'Rate', 'Imported']}
            rows={ghadis.map((ghadi) => [
              ghadi.NameEn,
              count(ghadi.days),
              count(ghadi.declared),
              count(ghadi.onTime),
              ghadi.onTimeRate === null ? none : percent(ghadi.onTimeRate),
              count(ghadi.imported),
            ])}
          />
        }
      />
      <StatsFigure
        title="Median delay after the result time"
        summary={delaySummary(ghadis, STATS_DAYS)}
        chartHeight={barsHeight(timed.length)}
        chart={
          timed.length === 0 ? null : (
            <GhadiBars
              data={timed.map((ghadi) => ({ name: ghadi.NameEn, value: ghadi.medianDelayMinutes ?? 0 }))}
              name="Median delay"
              color={COLORS.delay}
              unit=" min"
            />
          )
        }
        table={
          <NumbersTable
            caption="Median delay after the result time per ghadi, last 30 days"
            head={['Ghadi', 'Declared', 'Median delay']}
            rows={ghadis.map((ghadi) => [
              ghadi.NameEn,
              count(ghadi.declared),
              ghadi.medianDelayMinutes === null ? none : minutesText(ghadi.medianDelayMinutes),
            ])}
          />
        }
      />
    </>
  );
}

/** The site's last 30 days as plots: visitors and declarations per day, and each ghadi's punctuality. */
export function SiteStatsPanel() {
  const today = useSiteToday();
  const range = { from: addDays(today, -(STATS_DAYS - 1)), to: today };
  const daily = useDailyStats(range);
  const ghadis = useGhadiStats(range);
  // A declaration adds to today's numbers and to its ghadi's; the board beside them shows it at once.
  useLiveRefetch(queryKeys.stats, LIVE_KINDS);

  const part = (query: typeof daily | typeof ghadis, what: string, show: () => ReactNode) => {
    if (query.isPending || (query.isError && query.isFetching)) return <Spinner label={`Loading ${what}…`} />;
    if (query.isError)
      return <ErrorState message={`Failed to load ${what}`} onRetry={() => query.refetch()} />;
    return show();
  };

  return (
    <section aria-labelledby="site-stats-title" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4">
        <h2 id="site-stats-title" className="text-lg font-semibold text-slate-900">
          The last {STATS_DAYS} days
        </h2>
        <p className="text-sm text-slate-600">
          {dayLabel(range.from)} to {dayLabel(range.to)}
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {part(daily, 'the daily numbers', () => daily.data && <DailyFigures days={daily.data} />)}
        {part(ghadis, "the ghadis' punctuality", () => ghadis.data && <GhadiFigures ghadis={ghadis.data} />)}
      </div>
    </section>
  );
}
