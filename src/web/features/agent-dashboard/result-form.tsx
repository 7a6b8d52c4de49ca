import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { isCalendarDate } from '../../../shared/dates.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { resultValue } from '../../../shared/schemas/results.js';
import { useMyResults } from '../../api/agent.js';
import { useSubmitResult } from '../../api/results.js';
import { useBusinessToday } from '../../api/site.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { messageOr } from '../../lib/api-client.js';
import { useAppForm } from '../../lib/use-app-form.js';

/** The server takes dates from 2000 up to tomorrow (a late-night ghadi may be entered early). */
const EARLIEST_DATE = '2000-01-01';

function resultFormSchema(latest: string) {
  return z.object({
    result: resultValue,
    date: z
      .string()
      .min(1, 'This field is required')
      .refine(isCalendarDate, 'Enter a valid date')
      .refine(
        (date) => date >= EARLIEST_DATE && date <= latest,
        `Choose a date from ${EARLIEST_DATE} to ${latest}`,
      ),
  });
}

type FormInput = z.input<ReturnType<typeof resultFormSchema>>;
type FormOutput = z.output<ReturnType<typeof resultFormSchema>>;

type Outcome = { tone: 'success'; result: string; date: string } | { tone: 'error'; message: string };

/** The value already saved for the ghadi on a date: from the history, or the ghadi's own TodayResult. */
function useSavedResult(ghadi: GhadiRecord, date: string, today: string): string | undefined {
  const history = useMyResults(ghadi.GID);
  const fromHistory = history.data?.find((row) => row.Date === date)?.Result;
  if (fromHistory !== undefined) return fromHistory;
  return date === today && ghadi.TodayResult ? ghadi.TodayResult : undefined;
}

/** Declares (or replaces) the chosen ghadi's result for a date. Mount one per ghadi (key by GID). */
export function ResultForm({ ghadi }: { ghadi: GhadiRecord }) {
  const { today, tomorrow } = useBusinessToday();
  const schema = useMemo(() => resultFormSchema(tomorrow), [tomorrow]);
  const submit = useSubmitResult();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
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
  const saved = useSavedResult(ghadi, date, today);

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
        {/* Side by side only while the form spans the page; beside the history the column is too narrow for a date. */}
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
          <TextField
            label="Date"
            type="date"
            min={EARLIEST_DATE}
            max={tomorrow}
            className="min-h-11"
            error={errors.date?.message}
            {...register('date')}
          />
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
