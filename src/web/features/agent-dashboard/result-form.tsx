import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { addDays } from '../../../shared/dates.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { resultValue } from '../../../shared/schemas/results.js';
import { useMyResults } from '../../api/agent-api.js';
import { useBusinessToday } from '../../api/site-api.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import type { SubmissionQueue } from './submission-queue.js';
import { dayName } from './waiting-list.js';

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

type Outcome =
  | { tone: 'success' | 'queued'; result: string; date: string }
  | { tone: 'error'; message: string };

/**
 * The spec's characters of a result (shared/schemas/results.ts) as an HTML pattern, which browsers
 * read with the v flag: there "/" and "-" in a class must be escaped. The schema still decides.
 */
const RESULT_PATTERN = String.raw`[\p{L}\p{N} *#+\-\/]+`;

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

interface ResultFormProps {
  ghadi: GhadiRecord;
  /** Where submissions go: sent at once when the network allows, kept on the phone when not. */
  queue: SubmissionQueue | null;
  onSaved?: () => void;
}

/** Declares (or replaces) the chosen ghadi's result for a date. Mount one per ghadi (key by GID). */
export function ResultForm({ ghadi, queue, onSaved }: ResultFormProps) {
  const { today } = useBusinessToday();
  const yesterday = addDays(today, -1);
  const schema = useMemo(() => resultFormSchema(today, yesterday), [today, yesterday]);
  const [submitting, setSubmitting] = useState(false);
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
    if (result) setOutcome((current) => (current?.tone === 'error' ? current : null));
  }, [result]);

  const onSubmit = handleSubmit(async (values) => {
    if (!queue) return;
    setOutcome(null);
    setSubmitting(true);
    const answer = await queue
      .submit({ ghadiId: ghadi.GID, ghadiName: ghadi.NameEn, date: values.date, result: values.result })
      .finally(() => setSubmitting(false));
    if (answer.kind === 'refused') {
      // The typed value stays in the field, to be corrected and sent again.
      setOutcome({ tone: 'error', message: answer.message });
      return;
    }
    const { submission } = answer;
    setOutcome({
      tone: answer.kind === 'saved' ? 'success' : 'queued',
      result: submission.result,
      date: submission.date,
    });
    // Saved or kept on the phone, it is entered: clearing the field guards against a second tap
    // entering it twice. The chosen date stays.
    setValue('result', '');
    if (answer.kind === 'saved') onSaved?.();
  });

  const typed = result.trim();
  const canSubmit = typed !== '' && !submitting && queue !== null;
  const day = dayName(date, today);

  return (
    <Card title={`Update result: ${ghadi.NameEn}`}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {/* Side by side only while the form spans the page; beside the history the column is too narrow for both. */}
        <div className="grid gap-4 sm:grid-cols-2 md:grid-cols-1">
          <TextField
            label="Result"
            // Results are digits nearly always: the phone's number pad, one tap per digit. The
            // schema still takes what the spec allows (letters, * # + - /) from a full keyboard.
            inputMode="numeric"
            pattern={RESULT_PATTERN}
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
        {outcome?.tone === 'queued' && (
          <Alert tone="info">
            <strong>Not sent yet.</strong> {outcome.result} for{' '}
            <span className="whitespace-nowrap">{outcome.date}</span> is kept on this phone and will be sent
            by itself when the network allows (see Waiting to send).
          </Alert>
        )}
        {outcome?.tone === 'error' && <Alert tone="error">{outcome.message}</Alert>}

        {/* Read back before the one tap that declares it: a wrong ghadi or day is caught here. */}
        <section
          aria-label="You are declaring"
          className="rounded-lg border border-slate-300 bg-slate-50 px-4 py-3"
        >
          <p className="text-sm text-slate-600">You are declaring</p>
          <p className="text-lg font-semibold break-words text-slate-900">{ghadi.NameEn}</p>
          <p className="text-lg text-slate-900">
            {day && <span className="font-semibold">{day}, </span>}
            <span className="whitespace-nowrap">{date}</span>
          </p>
          <p
            data-testid="read-back-value"
            className={`font-mono text-4xl leading-tight font-bold break-all ${typed ? 'text-slate-900' : 'text-slate-500'}`}
          >
            {typed || '–'}
          </p>
        </section>

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
