import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { isCalendarDate } from '../../../shared/dates.js';
import type { GhadiKind } from '../../../shared/matka.js';
import { resolveSubmission } from '../../../shared/matka-submissions.js';
import { marketStepOf } from '../../../shared/open-close-steps.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { type ResultSubmitInput, resultSubmitInput } from '../../../shared/schemas/results.js';
import { type SubmitOutcome, useResultHistory, useSubmitResult } from '../../api/results-api.js';
import { useSiteToday } from '../../api/site-api.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { entryHint, readEntry, stepDueText } from '../../lib/market-entry.js';
import { EntryHint, EntryReadout } from '../results/entry-readout.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { TextField } from '../ui/field.js';

type ResultFormValues = z.input<typeof resultSubmitInput>;

/**
 * The value a panna or open/close ghadi stores on a date, which a submission is read against: the
 * latest of the result's declarations, or today's value as the row shows it while they load. A jodi
 * ghadi's value is sent as typed, so nothing is asked for it.
 */
function useDayValue(gid: number, kind: GhadiKind, date: string, today: string, todayValue: string | null) {
  const history = useResultHistory(kind !== 'jodi' && isCalendarDate(date) ? { gid, date } : null);
  const latest = history.data?.at(-1)?.Result;
  if (latest !== undefined) return latest;
  return history.data === undefined && date === today ? todayValue : null;
}

/**
 * What the admin is told of a submission. On a ghadi that needs two people an admin's value is one
 * confirmation like anyone's: it publishes only when it matches another person's entry.
 */
function outcomeText(outcome: SubmitOutcome): { tone: 'success' | 'error' | 'info'; text: string } {
  if (outcome.kind === 'published') return { tone: 'success', text: 'Result updated!' };
  if (outcome.kind === 'pending') {
    return {
      tone: 'info',
      text: `${outcome.message}: this ghadi needs two people to enter the same value. Nothing is published yet.`,
    };
  }
  return { tone: 'error', text: `Not published. ${outcome.message}. See Pending results.` };
}

/**
 * The inline Update Result form of one ghadi row: a result and its date (today in the site's zone).
 * The Ghadi list and today's board open it under the row. On a panna or open/close ghadi it reads
 * the value as the server will (the agent's form does the same) and sends it as it will be stored.
 */
export function UpdateResultForm({
  ghadi,
  todayValue = null,
  onClose,
}: {
  ghadi: Pick<GhadiRecord, 'GID' | 'NameEn'> & { Kind?: GhadiKind };
  /** Today's value as the row shows it (null or "" when none). */
  todayValue?: string | null;
  onClose: () => void;
}) {
  const kind = ghadi.Kind ?? 'jodi';
  const today = useSiteToday();
  const submit = useSubmitResult();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error' | 'info'; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    resetField,
    getFieldState,
    setFocus,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useAppForm<ResultFormValues, unknown, ResultSubmitInput>({
    resolver: zodResolver(resultSubmitInput),
    // ghadiId has no input: it rides along in the values, so the API's schema checks it too.
    defaultValues: { ghadiId: ghadi.GID, result: '', dateTime: today },
  });

  useEffect(() => setFocus('result'), [setFocus]);
  const typed = useWatch({ control, name: 'result' }) ?? '';
  const date = useWatch({ control, name: 'dateTime' }) ?? '';
  const current = useDayValue(ghadi.GID, kind, date, today, todayValue || null);
  const step = marketStepOf(kind, current);

  // The browser's own date stands in until the site's time zone is known; then, unless the admin
  // already picked a date, the site's today takes its place.
  useEffect(() => {
    if (!getFieldState('dateTime').isDirty) resetField('dateTime', { defaultValue: today });
  }, [today, getFieldState, resetField]);

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(null);
    const resolved = resolveSubmission(kind, values.result, current);
    if (!resolved.ok) {
      setError('result', { message: resolved.message });
      setFocus('result');
      return;
    }
    try {
      const sent = await submit.mutateAsync({ ...values, result: resolved.value });
      setOutcome(outcomeText(sent));
    } catch (error) {
      setOutcome({ tone: 'error', text: messageOr(error, 'Failed to update result') });
    }
  });

  const title = `Update Result: ${ghadi.NameEn}`;
  return (
    <form onSubmit={onSubmit} noValidate aria-label={title} className="space-y-3">
      <p className="font-semibold text-slate-900">{title}</p>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <TextField
            label="Result"
            autoComplete="off"
            inputMode={kind === 'jodi' ? undefined : 'numeric'}
            hint={kind === 'jodi' ? undefined : <EntryHint text={entryHint(kind, step) ?? ''} />}
            error={errors.result?.message}
            {...register('result')}
          />
          {kind !== 'jodi' && <EntryReadout reading={readEntry(kind, typed, current)} />}
        </div>
        <TextField label="Date" type="date" error={errors.dateTime?.message} {...register('dateTime')} />
      </div>
      {step && (
        <p className="text-sm font-semibold text-indigo-900">
          {stepDueText(step)}
          {current && <span className="font-normal text-slate-700"> (saved: {current})</span>}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save Result'}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </form>
  );
}
