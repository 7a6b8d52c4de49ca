import type { ResultsImportAnswer } from '../../../shared/schemas/results.js';
import { Alert } from '../../components/ui/alert.js';

/** Errors shown in the dialog; the rest are counted. */
export const ERRORS_SHOWN = 20;

const COUNTS = [
  ['created', 'New'],
  ['corrected', 'Corrected'],
  ['unchanged', 'Unchanged'],
] as const;

const count = (value: number) => value.toLocaleString('en-IN');

/** What a check (or an import that failed) found: the counts, then the first errors by line. */
export function ImportSummary({ answer }: { answer: ResultsImportAnswer }) {
  const more = answer.errorCount - Math.min(answer.errors.length, ERRORS_SHOWN);
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-3 gap-2 text-center" aria-label="Results in the file">
        {COUNTS.map(([key, label]) => (
          <div key={key} className="rounded-md border border-slate-200 bg-slate-50 px-2 py-2">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900">{count(answer[key])}</dd>
          </div>
        ))}
      </dl>
      {answer.errorCount > 0 ? (
        <div className="space-y-2">
          <Alert tone="error">
            {answer.errorCount === 1
              ? '1 line has an error'
              : `${count(answer.errorCount)} lines have errors`}
            . Nothing was imported: fix the file and check it again.
          </Alert>
          {/* Its own scroll box, so that the dialog's buttons stay in view on a phone; focusable so
              that a keyboard can scroll it. */}
          <ul
            aria-label="Errors by line"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable box must take focus to be scrolled by keyboard
            tabIndex={0}
            className="max-h-[28dvh] divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200 text-sm sm:max-h-[40dvh] focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {answer.errors.slice(0, ERRORS_SHOWN).map((error) => (
              <li key={`${error.line}-${error.message}`} className="flex gap-3 px-3 py-1.5">
                <span className="min-w-16 shrink-0 whitespace-nowrap font-medium tabular-nums text-slate-700">
                  Line {error.line}
                </span>
                <span className="min-w-0 break-words text-slate-800">{error.message}</span>
              </li>
            ))}
          </ul>
          {more > 0 && (
            <p className="text-sm text-slate-600">
              …and {count(more)} more {more === 1 ? 'error' : 'errors'}.
            </p>
          )}
        </div>
      ) : (
        <p className="text-sm text-slate-700">
          {answer.created + answer.corrected === 0
            ? 'Every result in the file is already stored: importing it would change nothing.'
            : 'The file is ready to import. Corrected results keep their old values in the history.'}
        </p>
      )}
    </div>
  );
}
