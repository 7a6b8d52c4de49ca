import { monthOf, shortDate, yearOf } from '../../../shared/date-labels.js';
import { dateInZone, timeInZone } from '../../../shared/dates.js';
import { declarationsPagePath } from '../../../shared/declaration-log-pages.js';
import { ghadiMonthPath } from '../../../shared/ghadi-page-month.js';
import { inLanguage, type Language } from '../../../shared/page-language.js';
import type { DeclarationsPageData } from '../../../shared/public-page-data.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { languageOfName } from '../../components/public/ghadi-name.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { DECLARATIONS_TEXT, type DeclarationsText } from './declarations-text.js';

/** Columns a phone folds into another, so that the values keep their room. */
const WIDE_ONLY = 'hidden sm:table-cell';

const pagerLink =
  'rounded-md bg-white px-3 py-1.5 text-sm font-medium text-indigo-800 shadow-sm ring-1 ring-slate-200 hover:bg-indigo-50';

function EntryRow({
  entry,
  data,
  language,
  text,
}: {
  entry: DeclarationEntry;
  data: DeclarationsPageData;
  language: Language;
  text: DeclarationsText;
}) {
  const instant = new Date(entry.DeclaredAt);
  const declaredDate = Number.isNaN(instant.getTime()) ? '' : dateInZone(instant, data.timeZone);
  return (
    <tr id={`seq-${entry.seq}`} className="border-t border-slate-100 align-top">
      <td className={`${WIDE_ONLY} px-3 py-2 font-mono text-slate-600`}>{entry.seq}</td>
      <td className="px-2 py-2 sm:px-3">
        <time dateTime={entry.DeclaredAt} className="block">
          <span className="block whitespace-nowrap">{declaredDate && shortDate(declaredDate, language)}</span>
          <span className="block text-slate-600">{timeInZone(entry.DeclaredAt, data.timeZone)}</span>
        </time>
        {/* On a phone the entry's number folds in here, leaving the room to the values. */}
        <span className="block font-mono text-slate-600 sm:hidden">#{entry.seq}</span>
      </td>
      <td className="px-2 py-2 break-words sm:px-3">
        <a
          href={inLanguage(
            language,
            ghadiMonthPath(entry.Name, monthOf(entry.Date), yearOf(entry.Date), data.today),
          )}
          className="font-medium text-indigo-800 underline-offset-2 hover:underline"
          // The log keeps the English name only, which may be written in Devanagari.
          lang={languageOfName(entry.Name) === language ? undefined : languageOfName(entry.Name)}
        >
          {entry.Name}
        </a>
        <span className="block text-slate-600">
          {text.forDate}
          <time dateTime={entry.Date}>{shortDate(entry.Date, language)}</time>
        </span>
      </td>
      <td className="px-2 py-2 sm:px-3">
        <span className="text-base font-bold text-emerald-800">{entry.Result}</span>
        {entry.Previous !== null && (
          <>
            <CorrectionMark previous={entry.Previous} language={language} spoken={false} />
            <span className="block font-medium text-amber-800">{text.corrected(entry.Previous)}</span>
          </>
        )}
      </td>
    </tr>
  );
}

function Pager({
  data,
  language,
  text,
}: {
  data: DeclarationsPageData;
  language: Language;
  text: DeclarationsText['pager'];
}) {
  const { pageNumber, pageCount } = data;
  if (pageCount <= 1 || pageNumber < 1 || pageNumber > pageCount) return null;
  return (
    <nav aria-label={text.label} className="flex flex-wrap items-center justify-between gap-2">
      {pageNumber > 1 ? (
        <a href={inLanguage(language, declarationsPagePath(pageNumber - 1))} rel="prev" className={pagerLink}>
          {text.newer}
        </a>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-600">{text.page(pageNumber, pageCount)}</span>
      {pageNumber < pageCount ? (
        <a href={inLanguage(language, declarationsPagePath(pageNumber + 1))} rel="next" className={pagerLink}>
          {text.older}
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** How to tell a genuine screenshot of a result from a made-up one, in plain words. */
function CheckAScreenshot({ text }: { text: DeclarationsText['screenshot'] }) {
  return (
    <section
      aria-labelledby="screenshot-title"
      className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-slate-800 shadow-sm"
    >
      <h2 id="screenshot-title" className="text-lg font-bold text-slate-900">
        {text.heading}
      </h2>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        {text.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="mt-2">{text.corrections}</p>
    </section>
  );
}

/** How anyone can check the log, with nothing but SHA-256 and the public API. */
function HowToVerify({ text }: { text: DeclarationsText['verify'] }) {
  return (
    <section aria-labelledby="verify-title" className="space-y-2">
      <h3 id="verify-title" className="text-base font-bold text-slate-900">
        {text.heading}
      </h3>
      <ol className="list-decimal space-y-2 pl-5">{text.steps}</ol>
      <p>{text.tool}</p>
    </section>
  );
}

/** The log for those who check it by program: the hash chain, its head, and how to recompute it. */
function TechnicalDetails({ data, text }: { data: DeclarationsPageData; text: DeclarationsText }) {
  const { head } = data;
  return (
    <section
      aria-labelledby="technical-title"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm"
    >
      <h2 id="technical-title" className="text-lg font-bold text-slate-900">
        {text.technical.heading}
      </h2>
      <p>{text.technical.chain}</p>
      <section aria-label={text.headLabel} className="rounded-md bg-slate-50 p-3">
        <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold text-slate-700">{text.latestEntry}</dt>
          <dd data-testid="head-seq">{head.seq}</dd>
          <dt className="font-semibold text-slate-700">{text.headHash}</dt>
          <dd className="font-mono break-all text-slate-800" data-testid="head-hash">
            {head.hash}
          </dd>
        </dl>
      </section>
      <HowToVerify text={text.verify} />
    </section>
  );
}

/**
 * The public declaration log, newest first, 50 a page: each value declared or corrected and when (in
 * the site's time zone). For people first: what the page proves and how to check a screenshot against
 * it; then the log; then, for those who check it by program, the hash chain and its head. Static: it
 * has no live updates.
 */
export function DeclarationsView({ data, language }: { data: DeclarationsPageData; language: Language }) {
  const text = DECLARATIONS_TEXT[language];
  const { entries, pageNumber, pageCount } = data;
  // Past the end, or an address no pager link makes (the server sends page 0 then).
  const pastTheEnd = pageNumber < 1 || pageNumber > pageCount;
  return (
    <PublicShell
      siteName={data.siteName}
      year={yearOf(data.today)}
      path={declarationsPagePath(pageNumber)}
      language={language}
      today={data.today}
      ghadis={data.ghadiNames}
    >
      <div className="mx-auto max-w-3xl space-y-4">
        <div>
          <h1 className="text-2xl font-extrabold text-slate-900">{text.heading}</h1>
          {text.intro.map((paragraph) => (
            <p key={paragraph} className="mt-2 text-slate-700">
              {paragraph}
            </p>
          ))}
        </div>
        <CheckAScreenshot text={text.screenshot} />

        {pastTheEnd ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            {text.noSuchPage(pageNumber)}{' '}
            <a href={inLanguage(language, declarationsPagePath(1))} className="text-indigo-800 underline">
              {text.seeLatest}
            </a>
            {language === 'hi' ? '।' : '.'}
          </p>
        ) : entries.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            {text.nothingYet}
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="w-full text-left text-sm">
              <caption className="bg-slate-800 px-3 py-2 text-left font-semibold text-white">
                {text.caption}
                <span className="block text-sm font-normal text-slate-300">
                  {text.timesIn(data.timeZone)}
                </span>
              </caption>
              <thead>
                <tr className="bg-slate-100 text-slate-700">
                  <th scope="col" className={`${WIDE_ONLY} px-3 py-2`}>
                    #
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3">
                    {text.columns.declared}
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3">
                    {text.columns.ghadi}
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3">
                    {text.columns.result}
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <EntryRow key={entry.seq} entry={entry} data={data} language={language} text={text} />
                ))}
              </tbody>
            </table>
          </div>
        )}

        <Pager data={data} language={language} text={text.pager} />
        <TechnicalDetails data={data} text={text} />
      </div>
    </PublicShell>
  );
}
