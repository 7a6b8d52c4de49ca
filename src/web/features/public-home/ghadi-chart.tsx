import { longDate } from '../../../shared/date-labels.js';
import { timeInZone } from '../../../shared/dates.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { NameText } from '../../components/public/ghadi-name.js';
import { boardCounts, nextDueGid } from './board-state.js';
import { HOME_TEXT, type HomeText } from './home-text.js';

type BoardText = HomeText['board'];

function HourglassIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-5 w-5 fill-none stroke-current stroke-2">
      <path d="M6 3h12M6 21h12M7 3c0 5 5 6 5 9s-5 4-5 9M17 3c0 5-5 6-5 9s5 4 5 9" />
    </svg>
  );
}

/** Today's result, or the waiting mark while it is not declared yet; a correction shows what it replaced. */
function TodayResult({ ghadi, text, language }: { ghadi: GhadiRecord; text: BoardText; language: Language }) {
  const value = ghadi.TodayResult;
  if (!value) {
    return (
      <span className="inline-flex items-center gap-1 text-lg font-bold text-amber-800" data-testid="waiting">
        <HourglassIcon />
        {text.wait}
      </span>
    );
  }
  if (!ghadi.Corrected) return <span className="text-3xl font-extrabold text-emerald-700">{value}</span>;
  return (
    <>
      <span className="text-3xl font-extrabold text-emerald-700">{value}</span>
      <CorrectionMark previous={ghadi.Previous} language={language} />
      {/* Visible too, for touch screens that show no tooltip; the mark already says it to readers. */}
      {ghadi.Previous !== null && (
        <span aria-hidden="true" className="block text-sm font-medium text-amber-800">
          {text.was(ghadi.Previous)}
        </span>
      )}
    </>
  );
}

/**
 * Where the ghadi stands today, in words (not only colour): declared, with the time in the site's
 * zone when the data has it, or waiting, with its due time; the next one due says "Next".
 */
function TodayState({
  ghadi,
  isNext,
  timeZone,
  text,
}: {
  ghadi: GhadiRecord;
  isNext: boolean;
  timeZone: string;
  text: BoardText;
}) {
  if (ghadi.TodayResult) {
    const at = ghadi.DeclaredAt ? timeInZone(ghadi.DeclaredAt, timeZone) : '';
    return (
      <p data-testid="state" className="mt-1 text-sm font-semibold text-emerald-800">
        {text.declared}
        {at && ghadi.DeclaredAt && (
          <>
            {' '}
            {text.at}
            <time dateTime={ghadi.DeclaredAt}>{at}</time>
            {text.afterTime}
          </>
        )}
      </p>
    );
  }
  return (
    <p data-testid="state" className="mt-1 flex flex-wrap items-center justify-center gap-x-1 text-sm">
      {isNext && (
        <>
          <span data-testid="next" className="rounded bg-indigo-700 px-1.5 py-0.5 font-bold text-white">
            {text.next}
          </span>{' '}
        </>
      )}
      <span className="font-semibold text-amber-900">{text.waiting}</span>{' '}
      <span className="text-slate-700">{text.due(ghadi.RTime)}</span>
    </p>
  );
}

/** Under the name the page reads in, the ghadi's other name, marked with its language. */
function OtherName({ ghadi, language }: { ghadi: GhadiRecord; language: Language }) {
  if (language === 'en') {
    return (
      <p lang="hi" className="text-sm text-slate-600">
        {ghadi.NameHn}
      </p>
    );
  }
  const shown = ghadiName(ghadi, language);
  return (
    <p lang="en" className="text-sm text-slate-600">
      {shown === ghadi.NameEn ? '' : ghadi.NameEn}
    </p>
  );
}

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
  const { declared, waiting } = boardCounts(ghadis);
  return (
    <section id="chart" aria-labelledby="chart-title" className="scroll-mt-4">
      <h2 id="chart-title" className="text-xl font-bold text-slate-900">
        {text.heading}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{text.todayIs(longDate(today, language))}</p>
      <div className="mt-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-sm">
        {/* Polite: a reader hears the tally move as results come in, without being interrupted. */}
        <p data-testid="board-counts" aria-live="polite" className="font-semibold text-slate-900">
          {text.counts(declared, waiting)}
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
            <li
              key={ghadi.GID}
              data-gid={ghadi.GID}
              className={`ghadi-card relative flex min-w-0 flex-col items-center rounded-lg border bg-white p-3 text-center shadow-sm hover:border-indigo-400 focus-within:ring-2 focus-within:ring-indigo-500 ${
                ghadi.GID === next ? 'border-indigo-600 ring-1 ring-indigo-600' : 'border-slate-200'
              }`}
            >
              <h3 className="w-full text-base font-bold break-words text-indigo-900 sm:text-lg">
                {/* The whole card is the link (the ::after covers it), named by the ghadi. */}
                <a
                  href={inLanguage(language, ghadiPagePath(ghadi.NameEn))}
                  className="after:absolute after:inset-0 focus:outline-none"
                >
                  <NameText name={ghadiName(ghadi, language)} language={language} />
                </a>
              </h3>
              <OtherName ghadi={ghadi} language={language} />
              <TodayState ghadi={ghadi} isNext={ghadi.GID === next} timeZone={timeZone} text={text} />
              <dl className="mt-2 grid w-full grid-cols-2 items-end gap-1">
                <div>
                  <dt className="text-sm text-slate-600">{text.yesterday}</dt>
                  <dd className="text-xl font-semibold text-slate-700" data-testid="yesterday">
                    {ghadi.YesterdayResult || '--'}
                  </dd>
                </div>
                <div>
                  <dt className="text-sm text-slate-600">{text.today}</dt>
                  <dd data-testid="today">
                    <TodayResult ghadi={ghadi} text={text} language={language} />
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
