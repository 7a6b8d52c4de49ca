import { timeInZone } from '../../../shared/dates.js';
import { ghadiPagePath } from '../../../shared/ghadi-page-month.js';
import { awaitedTimeOf } from '../../../shared/open-close-steps.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { NameText } from '../../components/public/ghadi-name.js';
import { NotifyBell } from '../../components/public/notify-bell.js';
import { isComplete } from './board-state.js';
import type { HomeText } from './home-text.js';

type BoardText = HomeText['board'];

function HourglassIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-5 w-5 fill-none stroke-current stroke-2">
      <path d="M6 3h12M6 21h12M7 3c0 5 5 6 5 9s-5 4-5 9M17 3c0 5-5 6-5 9s5 4 5 9" />
    </svg>
  );
}

/**
 * A value's type size: a jodi (or a panna's `128-1`) large, a whole open/close day (`123-68-459`,
 * ten characters) smaller on a phone, where a card is half the screen (about 136 px inside).
 */
const todaySize = (value: string) =>
  value.length > 5 ? 'text-xl whitespace-nowrap sm:text-3xl' : 'text-3xl';
const yesterdaySize = (value: string) => (value.length > 5 ? 'text-lg whitespace-nowrap' : 'text-xl');

/**
 * Today's value in its kind's stored form, or the waiting mark while there is none; a correction shows
 * what it replaced; an open half says when its close is due. A ghadi closed today has no value to wait for.
 */
function TodayResult({ ghadi, text, language }: { ghadi: GhadiRecord; text: BoardText; language: Language }) {
  const value = ghadi.TodayResult;
  if (!value) {
    if (ghadi.Closed) return <span className="text-xl font-semibold text-slate-600">--</span>;
    return (
      <span className="inline-flex items-center gap-1 text-lg font-bold text-amber-800" data-testid="waiting">
        <HourglassIcon />
        {text.wait}
      </span>
    );
  }
  const closeDue = !ghadi.Closed && !isComplete(ghadi);
  return (
    <>
      <span className={`${todaySize(value)} font-extrabold text-emerald-700`}>{value}</span>
      {ghadi.Corrected && <CorrectionMark previous={ghadi.Previous} language={language} />}
      {/* Visible too, for touch screens that show no tooltip; the mark already says it to readers. */}
      {ghadi.Corrected && ghadi.Previous !== null && (
        <span aria-hidden="true" className="block text-sm font-medium text-amber-800">
          {text.was(ghadi.Previous)}
        </span>
      )}
      {closeDue && (
        <span data-testid="close-due" className="block text-sm font-semibold text-amber-900">
          {text.close(ghadi.RTime)}
        </span>
      )}
    </>
  );
}

/** "Declared at 13:52" (or an open half's "Open declared at 11:47"), the time in the site's zone. */
function DeclaredWords({
  ghadi,
  words,
  timeZone,
  text,
}: {
  ghadi: GhadiRecord;
  words: string;
  timeZone: string;
  text: BoardText;
}) {
  const at = ghadi.DeclaredAt ? timeInZone(ghadi.DeclaredAt, timeZone) : '';
  return (
    <>
      {words}
      {at && ghadi.DeclaredAt && (
        <>
          {' '}
          {text.at}
          <time dateTime={ghadi.DeclaredAt}>{at}</time>
          {text.afterTime}
        </>
      )}
    </>
  );
}

function NextMark({ text }: { text: BoardText }) {
  return (
    <>
      <span data-testid="next" className="rounded bg-indigo-700 px-1.5 py-0.5 font-bold text-white">
        {text.next}
      </span>{' '}
    </>
  );
}

/**
 * Where the ghadi stands today, in words (not only colour): declared, with the time in the site's
 * zone when the data has it; waiting, with the time of what it waits for (an open/close market's open,
 * then its close); or, on a holiday or a weekday it does not run, that it is closed. The next one due
 * says "Next".
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
  if (isComplete(ghadi)) {
    return (
      <p data-testid="state" className="mt-1 text-sm font-semibold text-emerald-800">
        <DeclaredWords ghadi={ghadi} words={text.declared} timeZone={timeZone} text={text} />
      </p>
    );
  }
  if (ghadi.Closed) {
    return (
      <p data-testid="state" className="mt-1 text-sm font-semibold text-slate-700">
        {ghadi.Closed === 'holiday' ? text.holiday : text.offDay}
      </p>
    );
  }
  const time = awaitedTimeOf(ghadi, ghadi.TodayResult) ?? ghadi.RTime;
  return (
    <p data-testid="state" className="mt-1 flex flex-wrap items-center justify-center gap-x-1 text-sm">
      {isNext && <NextMark text={text} />}
      {ghadi.TodayResult ? (
        <span className="font-semibold text-emerald-800">
          <DeclaredWords ghadi={ghadi} words={text.openDeclared} timeZone={timeZone} text={text} />
        </span>
      ) : (
        <>
          <span className="font-semibold text-amber-900">{text.waiting}</span>{' '}
          <span className="text-slate-700">{text.due(time)}</span>
        </>
      )}
    </p>
  );
}

/** An open/close market's two times, each kept whole: on a phone they take a line each. */
function MarketTimes({ ghadi, text }: { ghadi: GhadiRecord; text: BoardText }) {
  if (ghadi.Kind !== 'open-close') return null;
  return (
    <p data-testid="times" className="flex flex-wrap justify-center gap-x-2 text-sm text-slate-700">
      {ghadi.OpenTime && <span className="whitespace-nowrap">{text.open(ghadi.OpenTime)}</span>}{' '}
      <span className="whitespace-nowrap">{text.close(ghadi.RTime)}</span>
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

/**
 * One ghadi's card, linking to its monthly results. A jodi card has yesterday and today side by side;
 * a panna or open/close card, whose values are longer, stacks them on a phone.
 */
export function GhadiCard({
  ghadi,
  isNext,
  timeZone,
  text,
  language,
}: {
  ghadi: GhadiRecord;
  isNext: boolean;
  timeZone: string;
  text: BoardText;
  language: Language;
}) {
  const yesterday = ghadi.YesterdayResult;
  return (
    <li
      data-gid={ghadi.GID}
      className={`ghadi-card relative flex min-w-0 flex-col items-center rounded-lg border bg-white p-3 text-center shadow-sm hover:border-indigo-400 focus-within:ring-2 focus-within:ring-indigo-500 ${
        isNext ? 'border-indigo-600 ring-1 ring-indigo-600' : 'border-slate-200'
      }`}
    >
      {/* Above the card's link, in its corner. On a phone's narrow card the name starts below it, whole
          words on its full width; wider, it keeps clear of it on both sides, centred. */}
      <NotifyBell gid={ghadi.GID} name={ghadiName(ghadi, language)} language={language} onCard />
      <h3 className="mt-6 w-full text-base font-bold break-words text-indigo-900 sm:mt-0 sm:px-8 sm:text-lg">
        {/* The whole card is the link (the ::after covers it), named by the ghadi. */}
        <a
          href={inLanguage(language, ghadiPagePath(ghadi.NameEn))}
          className="after:absolute after:inset-0 focus:outline-none"
        >
          <NameText name={ghadiName(ghadi, language)} language={language} />
        </a>
      </h3>
      <OtherName ghadi={ghadi} language={language} />
      <MarketTimes ghadi={ghadi} text={text} />
      <TodayState ghadi={ghadi} isNext={isNext} timeZone={timeZone} text={text} />
      <dl
        className={`mt-2 grid w-full items-end gap-1 ${ghadi.Kind === 'jodi' ? 'grid-cols-2' : 'grid-cols-1 sm:grid-cols-2'}`}
      >
        <div>
          <dt className="text-sm text-slate-600">{text.yesterday}</dt>
          <dd className={`${yesterdaySize(yesterday)} font-semibold text-slate-700`} data-testid="yesterday">
            {yesterday || '--'}
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
  );
}
