import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { GHADI_KINDS, mondayFirst } from '../../../shared/matka.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { useSaveGhadi } from '../../api/ghadis-api.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { CheckboxField } from '../../components/ui/checkbox-field.js';
import { SelectField, TextField } from '../../components/ui/field.js';
import { failureNotice, type Notice } from '../../components/ui/notice.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { KIND_LABELS, WEEKDAY_NAMES, WEEKDAY_SHORT } from '../../lib/ghadi-days-text.js';
import { EVERY_DAY_TICKED, type GhadiFormOutput, type GhadiFormValues, ghadiForm } from './ghadi-schema.js';

/** The checkboxes in the matka week's order, Monday first. */
const WEEK = mondayFirst([0, 1, 2, 3, 4, 5, 6]);

interface GhadiFormProps {
  /** The ghadi being edited, or null to add one. */
  editing: GhadiRecord | null;
  onSaved: (ghadi: GhadiRecord, message: string) => void;
  onFailed: (notice: Notice) => void;
  onCancel: () => void;
}

/** Add or edit one ghadi. The page remounts it (by key) to switch modes, which also clears it. */
export function GhadiForm({ editing, onSaved, onFailed, onCancel }: GhadiFormProps) {
  const save = useSaveGhadi();
  const formRef = useRef<HTMLFormElement>(null);
  const daysErrorId = useId();
  const daysHintId = useId();
  const {
    register,
    handleSubmit,
    setFocus,
    control,
    formState: { errors, isSubmitting },
  } = useAppForm<GhadiFormValues, unknown, GhadiFormOutput>({
    resolver: zodResolver(ghadiForm),
    defaultValues: {
      NameEn: editing?.NameEn ?? '',
      NameHn: editing?.NameHn ?? '',
      RTime: editing?.RTime ?? '',
      OrderId: editing ? String(editing.OrderId) : '',
      Kind: editing?.Kind ?? 'jodi',
      OpenTime: editing?.OpenTime ?? '',
      Days: editing ? editing.Days.map(String) : EVERY_DAY_TICKED,
      Confirmations: String(editing?.Confirmations ?? 1),
    },
  });
  const market = useWatch({ control, name: 'Kind' }) === 'open-close';

  useEffect(() => {
    if (!editing) return;
    // On a phone the list is far below the form: bring the form to the admin who pressed Edit.
    formRef.current?.scrollIntoView?.({ block: 'start' });
    setFocus('NameEn');
  }, [editing, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ id: editing?._id, values });
      onSaved(saved, editing ? 'Ghadi updated.' : 'Ghadi added.');
    } catch (error) {
      onFailed(failureNotice('Failed to save ghadi', error));
    }
  });

  const title = editing ? `Edit Ghadi: ${editing.NameEn}` : 'Add Ghadi';
  return (
    <Card title={title}>
      <form
        ref={formRef}
        onSubmit={onSubmit}
        noValidate
        aria-label={title}
        className="scroll-mt-20 space-y-4"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Name (English)"
            hint="Also the address of its public page."
            error={errors.NameEn?.message}
            {...register('NameEn')}
          />
          <TextField label="Name (Hindi)" lang="hi" error={errors.NameHn?.message} {...register('NameHn')} />
          <SelectField label="Kind" error={errors.Kind?.message} {...register('Kind')}>
            {GHADI_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Order"
            inputMode="numeric"
            hint="Position in the charts: lower numbers come first."
            error={errors.OrderId?.message}
            {...register('OrderId')}
          />
          {/* Shown for markets only; for another kind the schema sends null whatever it holds. */}
          {market && (
            <TextField
              label="Open time"
              placeholder="e.g. 3:45 PM"
              hint="When the open panna is declared."
              error={errors.OpenTime?.message}
              {...register('OpenTime')}
            />
          )}
          <TextField
            label="Result Time"
            placeholder="e.g. 1:45 PM"
            hint={market ? 'The close: when the close panna completes the day.' : undefined}
            error={errors.RTime?.message}
            {...register('RTime')}
          />
          <SelectField
            label="Confirmations"
            hint="With 2, a result stays hidden until a second person (agent or admin) enters the same value; a different value alerts the admins."
            error={errors.Confirmations?.message}
            {...register('Confirmations')}
          >
            <option value="1">1: one person publishes</option>
            <option value="2">2: two people must agree</option>
          </SelectField>
        </div>
        <fieldset aria-describedby={errors.Days ? `${daysHintId} ${daysErrorId}` : daysHintId}>
          <legend className="mb-1 block text-sm font-medium text-slate-700">Days</legend>
          <p id={daysHintId} className="mb-1 text-xs text-slate-500">
            The weekdays it runs. On other days the board shows it closed and agents cannot declare.
          </p>
          <div className="grid grid-cols-4 gap-1 sm:grid-cols-7">
            {WEEK.map((day) => (
              <CheckboxField
                key={day}
                value={String(day)}
                aria-label={WEEKDAY_NAMES[day]}
                label={WEEKDAY_SHORT[day]}
                {...register('Days')}
              />
            ))}
          </div>
          {errors.Days && (
            <p id={daysErrorId} role="alert" className="mt-1 text-sm text-red-600">
              {errors.Days.message}
            </p>
          )}
        </fieldset>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : editing ? 'Update Ghadi' : 'Add Ghadi'}
          </Button>
          {editing && (
            <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
