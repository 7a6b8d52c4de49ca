import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { isCalendarDate } from '../../../shared/dates.js';
import type { HolidayRecord } from '../../../shared/schemas/holidays.js';
import { useGhadis } from '../../api/ghadis-api.js';
import { useAddHoliday } from '../../api/holidays-api.js';
import { useSiteToday } from '../../api/site-api.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { SelectField, TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { weekdayNameOf } from '../../lib/ghadi-days-text.js';
import { type HolidayFormOutput, type HolidayFormValues, holidayForm } from './holiday-schema.js';

interface HolidayFormProps {
  /** Before each attempt: an earlier outcome shown elsewhere is no longer this one's. */
  onAttempt: () => void;
  onAdded: (holiday: HolidayRecord) => void;
}

/** Adds a holiday: a date, one ghadi or all of them, a note. The page remounts it (by key) after a save. */
export function HolidayForm({ onAttempt, onAdded }: HolidayFormProps) {
  const today = useSiteToday();
  const ghadis = useGhadis();
  const add = useAddHoliday();
  // Beside the button that failed, where the admin looks: a duplicate date is the usual reason.
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    getFieldState,
    resetField,
    formState: { errors, isSubmitting },
  } = useAppForm<HolidayFormValues, unknown, HolidayFormOutput>({
    resolver: zodResolver(holidayForm),
    defaultValues: { Date: today, GID: '', Note: '' },
  });
  const date = useWatch({ control, name: 'Date' });

  // The browser's date stands in until the site's zone is known; an untouched date then follows it.
  useEffect(() => {
    if (!getFieldState('Date').isDirty) resetField('Date', { defaultValue: today });
  }, [today, getFieldState, resetField]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    onAttempt();
    try {
      onAdded(await add.mutateAsync(values));
    } catch (error) {
      setFailure(messageOr(error, 'Failed to add holiday'));
    }
  });

  return (
    <Card title="Add Holiday">
      <form onSubmit={onSubmit} noValidate aria-label="Add Holiday" className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Date"
            type="date"
            hint={isCalendarDate(date) ? weekdayNameOf(date) : undefined}
            error={errors.Date?.message}
            {...register('Date')}
          />
          <SelectField
            label="Ghadi"
            hint={ghadis.isError ? 'The ghadi list did not load: only All ghadis can be chosen.' : undefined}
            error={errors.GID?.message}
            {...register('GID')}
          >
            <option value="">All ghadis</option>
            {ghadis.data?.map((ghadi) => (
              <option key={ghadi.GID} value={ghadi.GID}>
                {ghadi.NameEn}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Note"
            placeholder="e.g. Diwali"
            maxLength={120}
            hint="Optional; the board shows it."
            error={errors.Note?.message}
            {...register('Note')}
          />
        </div>
        {failure && <Alert tone="error">{failure}</Alert>}
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Adding…' : 'Add Holiday'}
        </Button>
      </form>
    </Card>
  );
}
