import type { ReactNode } from 'react';
import { correctionLabel } from '../../../shared/correction-label.js';
import { monthOf, shortDate, yearOf } from '../../../shared/date-labels.js';
import { dateInZone, timeInZone } from '../../../shared/dates.js';
import { declarationsPagePath, FEED_PATH } from '../../../shared/declaration-log-pages.js';
import { ghadiMonthPath } from '../../../shared/ghadi-page-month.js';
import type { DeclarationsPageData } from '../../../shared/public-page-data.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { CorrectionMark } from '../../components/public/correction-mark.js';
import { PublicShell } from '../../components/public/site-chrome.js';

/** Columns a phone folds into another, so that the values keep their room. */
const WIDE_ONLY = 'hidden sm:table-cell';

const pagerLink =
  'rounded-md bg-white px-3 py-1.5 text-sm font-medium text-indigo-800 shadow-sm ring-1 ring-slate-200 hover:bg-indigo-50';

function Code({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] wrap-anywhere">{children}</code>
  );
}

function EntryRow({ entry, data }: { entry: DeclarationEntry; data: DeclarationsPageData }) {
  const instant = new Date(entry.DeclaredAt);
  const declaredDate = Number.isNaN(instant.getTime()) ? '' : dateInZone(instant, data.timeZone);
  return (
    <tr id={`seq-${entry.seq}`} className="border-t border-slate-100 align-top">
      <td className={`${WIDE_ONLY} px-3 py-2 font-mono text-xs text-slate-500`}>{entry.seq}</td>
      <td className="px-2 py-2 sm:px-3">
        <time dateTime={entry.DeclaredAt} className="block">
          <span className="block whitespace-nowrap">{declaredDate && shortDate(declaredDate)}</span>
          <span className="block text-xs text-slate-500">{timeInZone(entry.DeclaredAt, data.timeZone)}</span>
        </time>
        {/* On a phone the entry's number folds in here, leaving the room to the values. */}
        <span className="block font-mono text-xs text-slate-500 sm:hidden">#{entry.seq}</span>
      </td>
      <td className="px-2 py-2 break-words sm:px-3">
        <a
          href={ghadiMonthPath(entry.Name, monthOf(entry.Date), yearOf(entry.Date), data.today)}
          className="font-medium text-indigo-800 underline-offset-2 hover:underline"
        >
          {entry.Name}
        </a>
        <span className="block text-xs text-slate-500">
          for <time dateTime={entry.Date}>{shortDate(entry.Date)}</time>
        </span>
      </td>
      <td className="px-2 py-2 sm:px-3">
        <span className="text-base font-bold text-emerald-800">{entry.Result}</span>
        {entry.Previous !== null && (
          <>
            <CorrectionMark previous={entry.Previous} spoken={false} />
            <span className="block text-xs font-medium text-amber-700">
              {correctionLabel(entry.Previous)}
            </span>
          </>
        )}
      </td>
    </tr>
  );
}

function Pager({ data }: { data: DeclarationsPageData }) {
  const { pageNumber, pageCount } = data;
  if (pageCount <= 1 || pageNumber < 1 || pageNumber > pageCount) return null;
  return (
    <nav aria-label="Log pages" className="flex flex-wrap items-center justify-between gap-2">
      {pageNumber > 1 ? (
        <a href={declarationsPagePath(pageNumber - 1)} rel="prev" className={pagerLink}>
          ← Newer entries
        </a>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-600">
        Page {pageNumber} of {pageCount}
      </span>
      {pageNumber < pageCount ? (
        <a href={declarationsPagePath(pageNumber + 1)} rel="next" className={pagerLink}>
          Older entries →
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** How anyone can check the log, with nothing but SHA-256 and the public API. */
function HowToVerify() {
  return (
    <section
      aria-labelledby="verify-title"
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm"
    >
      <h2 id="verify-title" className="text-lg font-bold text-slate-900">
        How to check the log
      </h2>
      <ol className="list-decimal space-y-2 pl-5">
        <li>
          Read every entry, oldest first, from <Code>GET /api/declarations?after=0&amp;limit=1000</Code>, then
          again with <Code>after</Code> set to the last <Code>seq</Code> you got, until none are left.
        </li>
        <li>
          For each entry compute <Code>hash</Code> = the lowercase hex SHA-256 of the UTF-8 bytes of{' '}
          <Code>prevHash + "\n" + JSON.stringify([seq, GID, Date, Result, Previous, DeclaredAt])</Code>. The
          first entry&apos;s <Code>prevHash</Code> is 64 zeros; every other entry&apos;s is the hash of the
          entry before it, and <Code>seq</Code> goes up by one each time.
        </li>
        <li>
          The last hash must be the head shown above (<Code>GET /api/declarations/head</Code>). Note the head
          you saw: any later check must reach the same hash at that <Code>seq</Code>, or an entry was changed.
        </li>
      </ol>
      <p>
        From the site&apos;s source, <Code>npm run verify -- URL</Code> does all of this against the site at{' '}
        <Code>URL</Code>. The latest entries are also an{' '}
        <a href={FEED_PATH} className="text-indigo-800 underline">
          Atom feed
        </a>
        .
      </p>
    </section>
  );
}

/**
 * The public declaration log, newest first, 50 a page: each value declared or corrected, when (in the
 * site's time zone), and the head hash that the whole log chains up to. Static: it has no live updates.
 */
export function DeclarationsView({ data }: { data: DeclarationsPageData }) {
  const { head, entries, pageNumber, pageCount } = data;
  // Past the end, or an address no pager link makes (the server sends page 0 then).
  const pastTheEnd = pageNumber < 1 || pageNumber > pageCount;
  return (
    <PublicShell siteName={data.siteName} year={yearOf(data.today)} path={declarationsPagePath(pageNumber)}>
      <div className="mx-auto max-w-3xl space-y-4">
        <div>
          <h1 className="text-2xl font-extrabold text-slate-900">Declaration Log</h1>
          <p className="mt-1 text-sm text-slate-600">
            Every result declared or corrected on this site, in order. Each entry&apos;s hash covers the entry
            before it, so no entry can be changed or left out without changing every hash after it.
          </p>
        </div>

        <section
          aria-label="Head of the log"
          className="rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-sm"
        >
          <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold text-slate-700">Latest entry</dt>
            <dd data-testid="head-seq">{head.seq}</dd>
            <dt className="font-semibold text-slate-700">Head hash</dt>
            <dd className="font-mono text-xs break-all text-slate-800" data-testid="head-hash">
              {head.hash}
            </dd>
          </dl>
        </section>

        {pastTheEnd ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            {pageNumber >= 1
              ? `There is no page ${pageNumber} of the log.`
              : 'There is no such page of the log.'}{' '}
            <a href={declarationsPagePath(1)} className="text-indigo-800 underline">
              See the latest entries
            </a>
            .
          </p>
        ) : entries.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            Nothing has been declared yet.
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="w-full text-left text-sm">
              <caption className="bg-slate-800 px-3 py-2 text-left font-semibold text-white">
                Declarations, newest first
                <span className="block text-xs font-normal text-slate-300">Times in {data.timeZone}</span>
              </caption>
              <thead>
                <tr className="bg-slate-100 text-xs text-slate-700">
                  <th scope="col" className={`${WIDE_ONLY} px-3 py-2`}>
                    #
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3">
                    Declared
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3">
                    Ghadi
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3">
                    Result
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <EntryRow key={entry.seq} entry={entry} data={data} />
                ))}
              </tbody>
            </table>
          </div>
        )}

        <Pager data={data} />
        <HowToVerify />
      </div>
    </PublicShell>
  );
}
