import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { addDays } from '../../../shared/dates.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { resultValue } from '../../../shared/schemas/results.js';
import { useMyResults } from '../../api/agent-api.js';
import { useSubmitResult } from '../../api/results-api.js';
import { useBusinessToday } from '../../api/site-api.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';

/**
 * Agents may enter only today's and yesterday's results, in the site's time zone (decision 0006):
 * the form offers just those two days, so the rule is met before the server enforces it.
 */
function resultFormSchema(today: string, yesterday: string) {
  return z.object({
    result: resultValue,
    date: z.string().refine((date) => date === today || date === yesterday, 'Choose today or yesterday'),
  });
}

type FormInput = z.input<ReturnType<typeof resultFormSchema>>;
type FormOutput = z.output<ReturnType<typeof resultFormSchema>>;

type Outcome = { tone: 'success'; result: string; date: string } | { tone: 'error'; message: string };

/**
 * The value already saved for the ghadi on a date: from the newest page of its history (which holds
 * today and yesterday, and is the page the history shows first, so one request serves both), or
 * the ghadi's own TodayResult and YesterdayResult.
 */
function useSavedResult(ghadi: GhadiRecord, date: string, today: string, yesterday: string) {
  const newest = useMyResults(ghadi.GID, { q: '', page: 1 });
  const fromHistory = newest.data?.data.find((row) => row.Date === date)?.Result;
  if (fromHistory !== undefined) return fromHistory;
  if (date === today) return ghadi.TodayResult || undefined;
  if (date === yesterday) return ghadi.YesterdayResult || undefined;
  return undefined;
}

/** Declares (or replaces) the chosen ghadi's result for a date. Mount one per ghadi (key by GID). */
export function ResultForm({ ghadi, onSaved }: { ghadi: GhadiRecord; onSaved?: () => void }) {
  const { today } = useBusinessToday();
  const yesterday = addDays(today, -1);
  const schema = useMemo(() => resultFormSchema(today, yesterday), [today, yesterday]);
  const submit = useSubmitResult();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const dateErrorId = useId();
  const {
    register,
    handleSubmit,
    control,
    setValue,
    getFieldState,
    formState: { errors },
  } = useAppForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { result: '', date: today },
  });
  const result = useWatch({ control, name: 'result' });
  const date = useWatch({ control, name: 'date' });
  const saved = useSavedResult(ghadi, date, today, yesterday);

  // An untouched date follows the business day: the site's zone may arrive late, or midnight may pass.
  useEffect(() => {
    if (!getFieldState('date').isDirty) setValue('date', today);
  }, [today, getFieldState, setValue]);

  // A stale "Result updated!" next to a newly typed value would read as if that value were saved.
  useEffect(() => {
    if (result) setOutcome((current) => (current?.tone === 'success' ? null : current));
  }, [result]);

  const onSubmit = handleSubmit((values) => {
    setOutcome(null);
    submit.mutate(
      { ghadiId: ghadi.GID, result: values.result, dateTime: values.date },
      {
        onSuccess: (record) => {
          setOutcome({ tone: 'success', result: record.Result, date: record.Date });
          // Clearing the result guards against a second tap saving it twice; the chosen date stays.
          setValue('result', '');
          onSaved?.();
        },
        // The typed value stays in the field, so a flaky network costs only another tap.
        onError: (error) =>
          setOutcome({ tone: 'error', message: messageOr(error, 'Failed to update result') }),
      },
    );
  });

  const submitting = submit.isPending;
  const canSubmit = result.trim() !== '' && !submitting;

  return (
    <Card title={`Update result: ${ghadi.NameEn}`}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {/* Side by side only while the form spans the page; beside the history the column is too narrow for both. */}
        <div className="grid gap-4 sm:grid-cols-2 md:grid-cols-1">
          <TextField
            label="Result"
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="characters"
            spellCheck={false}
            enterKeyHint="send"
            maxLength={20}
            className="min-h-11 font-mono"
            error={errors.result?.message}
            {...register('result')}
          />
          <fieldset aria-describedby={errors.date ? dateErrorId : undefined}>
            <legend className="mb-1 block text-sm font-medium text-slate-700">Date</legend>
            <div className="grid grid-cols-2 gap-2">
              {[
                { label: 'Today', value: today },
                { label: 'Yesterday', value: yesterday },
              ].map((option) => (
                <label
                  key={option.label}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm has-checked:border-indigo-600 has-checked:bg-indigo-50 has-checked:ring-1 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600"
                >
                  <input
                    type="radio"
                    value={option.value}
                    className="size-4 shrink-0 accent-indigo-600 focus-visible:outline-none"
                    {...register('date')}
                  />
                  <span className="min-w-0">
                    <span className="block font-medium text-slate-900">{option.label}</span>{' '}
                    <span className="block text-xs whitespace-nowrap text-slate-600">{option.value}</span>
                  </span>
                </label>
              ))}
            </div>
            {errors.date && (
              <p id={dateErrorId} className="mt-1 text-sm text-red-600">
                {errors.date.message}
              </p>
            )}
          </fieldset>
        </div>

        <p className="text-sm text-slate-700">
          {saved === undefined ? (
            <>
              No result saved for <span className="whitespace-nowrap">{date || 'this date'}</span> yet.
            </>
          ) : (
            <>
              Saved result for <span className="whitespace-nowrap">{date}</span>:{' '}
              <strong className="font-mono text-base text-slate-900">{saved}</strong>. Updating replaces it.
            </>
          )}
        </p>

        {outcome?.tone === 'success' && (
          <Alert tone="success">
            <strong>Result updated!</strong> {outcome.result} saved for{' '}
            <span className="whitespace-nowrap">{outcome.date}</span>.
          </Alert>
        )}
        {outcome?.tone === 'error' && <Alert tone="error">{outcome.message}</Alert>}

        <Button
          type="submit"
          disabled={!canSubmit}
          className="min-h-11 w-full text-base sm:w-auto sm:min-w-40"
        >
          {submitting ? 'Updating...' : 'Update'}
        </Button>
      </form>
    </Card>
  );
}
