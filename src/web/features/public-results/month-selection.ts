/**
 * Which month a ghadi's results page shows: the visitor's choice of month and year, the address that
 * follows it, and whether the chosen month is loading, failed or shown.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { LiveData } from '../../lib/live-updates.js';
import { isAbort } from '../../lib/public-fetch.js';
import { fetchGhadiMonth } from './results-data.js';
import type { MonthData } from './results-live.js';
import type { ResultsText } from './results-text.js';

/** A month the visitor chose is loading, or failed (section 8's texts); otherwise the data shows. */
export type LoadState = { status: 'shown' } | { status: 'loading' } | { status: 'error'; message: string };

export interface MonthSelection {
  month: number;
  year: number;
  loadState: LoadState;
  /** Whether the script runs: until then the form needs its submit button. */
  hydrated: boolean;
  choose: (month: number, year: number) => void;
  /** For the selectors, to read a choice made before hydration. */
  monthSelect: RefObject<HTMLSelectElement | null>;
  yearSelect: RefObject<HTMLSelectElement | null>;
}

export async function loadMonth(base: MonthData, month: number, year: number, signal?: AbortSignal) {
  const results = await fetchGhadiMonth(base.name, month, year, signal);
  return { data: { ...base, month, year, results } };
}

/**
 * Changing the month refetches and puts ?month=&year= in the address (shareable; the server renders
 * that month on a full load). `load` and `text` must be stable: the choice made before hydration is
 * taken up once.
 */
export function useMonthSelection({
  initial,
  load,
  text,
}: {
  initial: { month: number; year: number };
  load: LiveData<MonthData>['load'];
  text: ResultsText;
}): MonthSelection {
  const [month, setMonth] = useState(initial.month);
  const [year, setYear] = useState(initial.year);
  const [loadState, setLoadState] = useState<LoadState>({ status: 'shown' });
  const [hydrated, setHydrated] = useState(false);
  const inFlight = useRef<AbortController | null>(null);

  const choose = useCallback(
    (nextMonth: number, nextYear: number) => {
      setMonth(nextMonth);
      setYear(nextYear);
      window.history.replaceState(
        null,
        '',
        `${window.location.pathname}?month=${nextMonth}&year=${nextYear}`,
      );
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setLoadState({ status: 'loading' });
      load((current) => loadMonth(current, nextMonth, nextYear, controller.signal)).then(
        () => {
          if (!controller.signal.aborted) setLoadState({ status: 'shown' });
        },
        (error: unknown) => {
          if (isAbort(error) || controller.signal.aborted) return;
          setLoadState({ status: 'error', message: text.failure(error) });
        },
      );
    },
    [load, text],
  );

  const monthSelect = useRef<HTMLSelectElement>(null);
  const yearSelect = useRef<HTMLSelectElement>(null);
  // On a slow phone the visitor may pick a month in the server's markup before this script runs.
  // Hydration leaves the selectors as they are but the next render would put the rendered month back,
  // silently: that choice is the visitor's, so it is shown (`choose` is stable, so this runs once).
  useEffect(() => {
    setHydrated(true);
    const chosenMonth = Number(monthSelect.current?.value ?? initial.month);
    const chosenYear = Number(yearSelect.current?.value ?? initial.year);
    if (chosenMonth !== initial.month || chosenYear !== initial.year) choose(chosenMonth, chosenYear);
  }, [choose, initial.month, initial.year]);

  return { month, year, loadState, hydrated, choose, monthSelect, yearSelect };
}
