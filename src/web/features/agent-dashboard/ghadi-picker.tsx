import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { timesText } from '../../lib/ghadi-days-text.js';

interface GhadiPickerProps {
  ghadis: GhadiRecord[];
  selectedGid: number;
  onSelect: (gid: number) => void;
}

/**
 * The assigned ghadis as large radio cards: one tap chooses, and each card already shows
 * what an agent checks at result time (when it is due and whether today's result is in).
 */
export function GhadiPicker({ ghadis, selectedGid, onSelect }: GhadiPickerProps) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-slate-700">Choose a ghadi</legend>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {ghadis.map((ghadi) => (
          <label
            key={ghadi.GID}
            className="flex min-h-16 cursor-pointer items-start gap-3 rounded-lg border border-slate-300 bg-white p-3 shadow-sm transition-colors hover:border-indigo-400 has-checked:border-indigo-600 has-checked:bg-indigo-50 has-checked:ring-1 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
          >
            <input
              type="radio"
              name="ghadi"
              value={ghadi.GID}
              checked={ghadi.GID === selectedGid}
              onChange={() => onSelect(ghadi.GID)}
              className="mt-1 size-4 shrink-0 accent-indigo-600 focus-visible:outline-none"
            />
            <span className="min-w-0 flex-1">
              <span className="flex flex-wrap items-baseline justify-between gap-x-2">
                <span className="font-semibold break-words text-slate-900">{ghadi.NameEn}</span>
                <span className="text-sm whitespace-nowrap text-slate-600">{timesText(ghadi)}</span>
              </span>
              {ghadi.NameHn && (
                <span lang="hi" className="block text-sm break-words text-slate-600">
                  {ghadi.NameHn}
                </span>
              )}
              {ghadi.Closed && (
                <span className="mt-1 block text-sm font-medium text-amber-900">
                  {ghadi.Closed === 'holiday' ? 'Closed today: holiday' : 'Closed today: not one of its days'}
                </span>
              )}
              <span className="mt-1 block text-sm text-slate-700">
                Today:{' '}
                {ghadi.TodayResult ? (
                  <strong className="font-mono text-base text-slate-900">{ghadi.TodayResult}</strong>
                ) : (
                  <span className="text-slate-600">not declared</span>
                )}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
