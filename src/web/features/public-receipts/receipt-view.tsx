import type { ReactNode } from 'react';
import { longDate, monthLabel, monthOf, yearOf } from '../../../shared/date-labels.js';
import { DECLARATIONS_PATH } from '../../../shared/declaration-log-pages.js';
import { ghadiMonthPath } from '../../../shared/ghadi-page-month.js';
import { ghadiName, inLanguage, type Language } from '../../../shared/page-language.js';
import type { ReceiptFound, ReceiptPageData } from '../../../shared/public-page-data.js';
import { receiptPath } from '../../../shared/receipt-codes.js';
import type { RelatedEntry, SharedReceiptEntry } from '../../../shared/schemas/receipts.js';
import { changeText, declaredAtText } from '../../components/public/receipt-facts.js';
import { RECEIPT_TEXT, type ReceiptText } from '../../components/public/receipt-text.js';
import { ShareButton } from '../../components/public/share-link.js';
import { PublicShell } from '../../components/public/site-chrome.js';
import { ReceiptProofCheck } from './receipt-proof-check.js';

const linkClass = 'font-medium text-indigo-800 underline underline-offset-2 hover:text-indigo-950';

/** A later entry of the same ghadi and date, by its receipt. */
function ReceiptLink({ entry, label, language }: { entry: RelatedEntry; label: string; language: Language }) {
  return (
    <a href={inLanguage(language, receiptPath(entry.Receipt))} className={linkClass}>
      {label}: <span className="font-mono">{entry.Receipt}</span>
    </a>
  );
}

/** Whether the entry's value is the one published, and if not, what replaced it and what stands now. */
function Standing({
  data,
  name,
  text,
  language,
}: {
  data: ReceiptFound;
  name: string;
  text: ReceiptText;
  language: Language;
}) {
  const { entry } = data;
  const { Next: next, Current: current } = entry;
  if (entry.Latest || !next || !current)
    return (
      <p
        data-testid="receipt-standing"
        className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 font-medium text-emerald-900"
      >
        {text.latest(name, longDate(entry.Date, language), entry.Result)}
      </p>
    );
  return (
    <div
      role="status"
      data-testid="receipt-standing"
      className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950"
    >
      <p className="font-semibold">{text.replaced(next)}</p>
      <p>
        <ReceiptLink entry={next} label={text.nextReceipt} language={language} />
      </p>
      {current.seq !== next.seq && (
        <>
          <p className="font-semibold">{text.changedAgain(current.Result)}</p>
          <p>
            <ReceiptLink entry={current} label={text.currentReceipt} language={language} />
          </p>
        </>
      )}
    </div>
  );
}

/** A receipt several entries' hashes begin with (409): each, by its own receipt. */
function SharedReceipt({
  data,
  entries,
  language,
}: {
  data: ReceiptPageData;
  entries: SharedReceiptEntry[];
  language: Language;
}) {
  const text = RECEIPT_TEXT[language];
  return (
    <PublicShell
      siteName={data.siteName}
      year={yearOf(data.today)}
      path={receiptPath(data.receipt)}
      language={language}
      today={data.today}
      ghadis={data.ghadiNames}
    >
      <div className="mx-auto max-w-2xl space-y-4">
        <h1 className="text-2xl font-extrabold text-slate-900">
          {text.receipt} <span className="font-mono tracking-wide text-indigo-900">{data.receipt}</span>
        </h1>
        <section
          className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950"
          data-testid="receipt-shared"
        >
          <p className="font-semibold">{text.shared}</p>
          <ul className="mt-2 space-y-2">
            {entries.map((other) => (
              <li key={other.seq} className="break-words">
                #{other.seq} {other.Name}, {longDate(other.Date, language)}: <strong>{other.Result}</strong>{' '}
                <a href={inLanguage(language, receiptPath(other.Receipt))} className={linkClass}>
                  <span className="font-mono">{other.Receipt}</span>
                </a>
                <br />
                <span className="font-mono text-xs break-all">{other.hash}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </PublicShell>
  );
}

/**
 * One log entry by its receipt (/r/{receipt}): the ghadi, date and value, when it was declared (in
 * the site's zone) and what it replaced, whether it still stands (else what replaced it, by receipt),
 * its place in the hash chain and the log's tree, and how to check it (checked in the browser once
 * hydrated); or, for a receipt several entries share, those entries.
 */
export function ReceiptView({ data, language }: { data: ReceiptPageData; language: Language }) {
  if (data.found.kind === 'shared')
    return <SharedReceipt data={data} entries={data.found.entries} language={language} />;
  return <FoundReceipt data={data.found} page={data} language={language} />;
}

function FoundReceipt({
  data,
  page,
  language,
}: {
  data: ReceiptFound;
  page: ReceiptPageData;
  language: Language;
}) {
  const text = RECEIPT_TEXT[language];
  const { entry } = data;
  const name = data.ghadi ? ghadiName(data.ghadi, language) : entry.Name;
  const path = receiptPath(entry.Receipt);
  const month = monthOf(entry.Date);
  const year = yearOf(entry.Date);
  const row = (label: string, value: ReactNode, testId?: string) => (
    <>
      <dt className="font-semibold text-slate-600">{label}</dt>
      <dd data-testid={testId} className="break-words">
        {value}
      </dd>
    </>
  );
  return (
    <PublicShell
      siteName={page.siteName}
      year={yearOf(page.today)}
      path={path}
      language={language}
      today={page.today}
      ghadis={page.ghadiNames}
    >
      <div className="mx-auto max-w-2xl space-y-4">
        <div>
          <h1 className="text-2xl font-extrabold text-slate-900">
            {text.receipt} <span className="font-mono tracking-wide text-indigo-900">{entry.Receipt}</span>
          </h1>
          <p className="mt-2 text-slate-700">{text.intro}</p>
        </div>

        <section
          aria-labelledby="receipt-entry"
          className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        >
          <h2 id="receipt-entry" className="sr-only">
            {text.entry}
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            {row(
              text.ghadi,
              <a
                href={inLanguage(language, ghadiMonthPath(entry.Name, month, year, page.today))}
                className={linkClass}
              >
                {name}
              </a>,
            )}
            {row(text.date, <time dateTime={entry.Date}>{longDate(entry.Date, language)}</time>)}
            {row(
              text.result,
              <span className="text-2xl font-extrabold text-emerald-800">{entry.Result}</span>,
              'receipt-result',
            )}
            {row(
              text.declared,
              <time dateTime={entry.DeclaredAt}>
                {declaredAtText(entry.DeclaredAt, page.timeZone, language)}
              </time>,
            )}
          </dl>
          <p className="mt-3 text-slate-800" data-testid="receipt-change">
            {changeText(entry, text)}
          </p>
        </section>

        <Standing data={data} name={name} text={text} language={language} />

        <ShareButton path={inLanguage(language, path)} title={text.heading(entry.Receipt)} text={text} />

        <ReceiptProofCheck found={data} language={language} />

        <section
          aria-labelledby="receipt-verify"
          className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm"
        >
          <h2 id="receipt-verify" className="text-lg font-bold text-slate-900">
            {text.verifyHeading}
          </h2>
          <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold">{text.entry}</dt>
            <dd data-testid="receipt-seq">{entry.seq}</dd>
            <dt className="font-semibold">{text.hash}</dt>
            <dd className="font-mono break-all text-slate-800" data-testid="receipt-hash">
              {entry.hash}
            </dd>
          </dl>
          <p>{text.verify(entry.seq)}</p>
          <p>
            <a href={`/api/declarations?after=${entry.seq - 1}&limit=1`} className={linkClass}>
              {text.verifyEntry}
            </a>{' '}
            <code className="rounded bg-slate-100 px-1 py-0.5 font-mono wrap-anywhere">
              {`GET /api/declarations?after=${entry.seq - 1}&limit=1`}
            </code>
          </p>
          <p>
            <a href={`${inLanguage(language, DECLARATIONS_PATH)}#verify-title`} className={linkClass}>
              {text.verifyLink}
            </a>
          </p>
          <p>
            <a
              href={inLanguage(language, ghadiMonthPath(entry.Name, month, year, page.today))}
              className={linkClass}
            >
              {text.monthResults(name, monthLabel(month, year, language))}
            </a>
          </p>
        </section>
      </div>
    </PublicShell>
  );
}
