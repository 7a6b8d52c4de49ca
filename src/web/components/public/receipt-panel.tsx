import { useEffect, useRef, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { longDate } from '../../../shared/date-labels.js';
import { inLanguage } from '../../../shared/page-language.js';
import { receiptPath } from '../../../shared/receipt-codes.js';
import type { DeclarationEntry } from '../../../shared/schemas/declarations.js';
import { getJson, isAbort } from '../../lib/public-fetch.js';
import { changeText, declaredAtText } from './receipt-facts.js';
import type { ReceiptAsked } from './receipt-tap.js';
import { RECEIPT_TEXT } from './receipt-text.js';
import { ShareButton } from './share-link.js';

/*
 * The receipt of a tapped value (a ghadi's month, a year chart), loaded on the first tap
 * (receipt-tap.ts): a modal dialog with the latest log entry of that ghadi and date, its receipt, a
 * link to the receipt's page and a way to share that link.
 */

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'shown'; latest: Latest | null };

interface Latest {
  entry: DeclarationEntry;
  /** The shortest start of its hash no other entry shares, which only the server can tell. */
  receipt: string;
}

/**
 * The latest log entry of a ghadi and date (every entry of one result fits one window of the log),
 * then its receipt, asked by the full hash (which no two entries share).
 */
async function latestEntry(gid: number, date: string, signal: AbortSignal): Promise<Latest | null> {
  const page = await getJson<{ data: DeclarationEntry[] }>(
    `/api/declarations?gid=${gid}&date=${date}&limit=1000`,
    signal,
  );
  const entry = page.data.at(-1);
  if (!entry) return null;
  const found = await getJson<{ data: { Receipt: string } }>(
    `/api/declarations/receipt/${entry.hash}`,
    signal,
  );
  return { entry, receipt: found.data.Receipt };
}

const linkClass =
  'inline-flex min-h-11 items-center justify-center rounded-md bg-white px-4 py-2 text-sm font-semibold text-indigo-800 ring-1 ring-slate-300 hover:bg-indigo-50';

export function ReceiptDialog({ asked, onClosed }: { asked: ReceiptAsked; onClosed: () => void }) {
  const text = RECEIPT_TEXT[asked.language];
  const dialog = useRef<HTMLDialogElement>(null);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  useEffect(() => {
    void attempt;
    const abort = new AbortController();
    setLoaded({ status: 'loading' });
    latestEntry(asked.gid, asked.date, abort.signal).then(
      (latest) => setLoaded({ status: 'shown', latest }),
      (error: unknown) => {
        if (!isAbort(error)) setLoaded({ status: 'failed' });
      },
    );
    return () => abort.abort();
  }, [asked.gid, asked.date, attempt]);

  const close = () => dialog.current?.close();
  const latest = loaded.status === 'shown' ? loaded.latest : null;
  const entry = latest?.entry ?? null;
  const receipt = latest?.receipt ?? null;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a tap on the backdrop closes it; the keyboard has Escape and the Close button.
    <dialog
      ref={dialog}
      aria-labelledby="receipt-panel-title"
      data-testid="receipt-panel"
      className="m-auto w-[min(26rem,calc(100%-1.5rem))] rounded-lg bg-white p-4 text-slate-800 shadow-xl backdrop:bg-slate-900/60"
      onClose={() => {
        onClosed();
        asked.opener.focus();
      }}
      // A tap on the backdrop (the dialog itself, outside its content) closes it.
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="space-y-3">
        <h2 id="receipt-panel-title" className="text-lg font-bold text-slate-900">
          {text.receipt}
          {receipt && (
            <>
              {' '}
              <span className="font-mono tracking-wide text-indigo-900" data-testid="receipt-code">
                {receipt}
              </span>
            </>
          )}
        </h2>
        <p>
          {asked.name} · {longDate(asked.date, asked.language)}
          {entry && (
            <>
              {': '}
              <strong className="text-lg text-emerald-800">{entry.Result}</strong>
            </>
          )}
        </p>
        {loaded.status === 'loading' && <p role="status">{text.panel.loading}</p>}
        {loaded.status === 'failed' && (
          <p role="alert" className="text-red-800">
            {text.panel.failed}{' '}
            <button type="button" className="underline" onClick={() => setAttempt((count) => count + 1)}>
              {text.panel.retry}
            </button>
          </p>
        )}
        {loaded.status === 'shown' && !entry && <p>{text.panel.none}</p>}
        {entry && receipt && (
          <>
            <p className="text-sm text-slate-700">
              {text.declared}: {declaredAtText(entry.DeclaredAt, asked.timeZone, asked.language)}
            </p>
            <p className="text-sm">{changeText(entry, text)}</p>
            {entry.Result !== asked.shown && (
              <p role="alert" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">
                {text.panel.changed(entry.Result)}
              </p>
            )}
            <div className="flex flex-wrap items-start gap-2">
              <a href={inLanguage(asked.language, receiptPath(receipt))} className={linkClass}>
                {text.panel.open}
              </a>
              <ShareButton
                path={inLanguage(asked.language, receiptPath(receipt))}
                title={text.heading(receipt)}
                text={text}
              />
            </div>
          </>
        )}
        <div className="flex justify-end">
          <button
            type="button"
            onClick={close}
            className="min-h-11 rounded-md px-4 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
          >
            {text.panel.close}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** The one panel of the page, in a root of its own beside the page's (it is no part of the page's markup). */
let root: Root | null = null;
let opened = 0;

export function showReceipt(asked: ReceiptAsked): void {
  if (!root) {
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  }
  const own = root;
  opened += 1;
  // A new key each time: the dialog opens (and reads) afresh, even for the same value.
  own.render(<ReceiptDialog key={opened} asked={asked} onClosed={() => own.render(null)} />);
}
