import { longDate } from '../../../shared/date-labels.js';
import { timeInZone } from '../../../shared/dates.js';
import type { Language } from '../../../shared/page-language.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { GhadiCard } from './board-card.js';
import { boardCounts, nextDueGid } from './board-state.js';
import { HOME_TEXT } from './home-text.js';

export interface GhadiChartProps {
  ghadis: GhadiRecord[];
  today: string;
  /** The site's zone: every time on the board is shown in it. */
  timeZone: string;
  /** When the data was last brought up to date (ISO): "Last updated". */
  updatedAt: string;
  /** The time "Next" is reckoned from (ISO). */
  now: string;
  language: Language;
}

/** Every ghadi by OrderId, two per row, each linking to its monthly results, with the day's tally above. */
export function GhadiChart({ ghadis, today, timeZone, updatedAt, now, language }: GhadiChartProps) {
  const text = HOME_TEXT[language].board;
  const next = nextDueGid(ghadis, now, timeZone);
  const { declared, waiting, closed } = boardCounts(ghadis);
  return (
    <section id="chart" aria-labelledby="chart-title" className="scroll-mt-4">
      <h2 id="chart-title" className="text-xl font-bold text-slate-900">
        {text.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{text.todayIs(longDate(today, language))}</p>
      <div className="mt-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-sm">
        {/* Polite: a reader hears the tally move as results come in, without being interrupted. */}
        <p data-testid="board-counts" aria-live="polite" className="font-semibold text-slate-900">
          {text.counts(declared, waiting, closed)}
        </p>
        <p data-testid="last-updated" className="text-slate-700">
          {text.lastUpdated} <time dateTime={updatedAt}>{timeInZone(updatedAt, timeZone)}</time>
          <span className="text-slate-600">{text.zoneTime(timeZone)}</span>
        </p>
      </div>
      {ghadis.length === 0 ? (
        <p className="mt-3 rounded-md bg-white px-4 py-6 text-center text-slate-600">{text.none}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-2 gap-2 sm:gap-3" data-testid="ghadi-chart">
          {ghadis.map((ghadi) => (
            <GhadiCard
              key={ghadi.GID}
              ghadi={ghadi}
              isNext={ghadi.GID === next}
              timeZone={timeZone}
              text={text}
              language={language}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
