import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { type ResultSubmitInput, resultSubmitInput } from '../../../shared/schemas/results.js';
import { useSubmitResult } from '../../api/results-api.js';
import { useSiteToday } from '../../api/site-api.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { Alert } from '../ui/alert.js';
import { Button } from '../ui/button.js';
import { TextField } from '../ui/field.js';

type ResultFormValues = z.input<typeof resultSubmitInput>;

/**
 * The inline Update Result form of one ghadi row: a result and its date (today in the site's zone).
 * The Ghadi list and today's board open it under the row.
 */
export function UpdateResultForm({
  ghadi,
  onClose,
}: {
  ghadi: Pick<GhadiRecord, 'GID' | 'NameEn'>;
  onClose: () => void;
}) {
  const today = useSiteToday();
  const submit = useSubmitResult();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    resetField,
    getFieldState,
    setFocus,
    formState: { errors, isSubmitting },
  } = useAppForm<ResultFormValues, unknown, ResultSubmitInput>({
    resolver: zodResolver(resultSubmitInput),
    // ghadiId has no input: it rides along in the values, so the API's schema checks it too.
    defaultValues: { ghadiId: ghadi.GID, result: '', dateTime: today },
  });

  useEffect(() => setFocus('result'), [setFocus]);

  // The browser's own date stands in until the site's time zone is known; then, unless the admin
  // already picked a date, the site's today takes its place.
  useEffect(() => {
    if (!getFieldState('dateTime').isDirty) resetField('dateTime', { defaultValue: today });
  }, [today, getFieldState, resetField]);

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      await submit.mutateAsync(values);
      setOutcome({ tone: 'success', text: 'Result updated!' });
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
        <TextField label="Result" autoComplete="off" error={errors.result?.message} {...register('result')} />
        <TextField label="Date" type="date" error={errors.dateTime?.message} {...register('dateTime')} />
      </div>
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
