import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import { useSaveGhadi } from '../../api/ghadis-api.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { failureNotice, type Notice } from '../../components/ui/notice.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { type GhadiFormOutput, type GhadiFormValues, ghadiForm } from './ghadi-schema.js';

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
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useAppForm<GhadiFormValues, unknown, GhadiFormOutput>({
    resolver: zodResolver(ghadiForm),
    defaultValues: {
      NameEn: editing?.NameEn ?? '',
      NameHn: editing?.NameHn ?? '',
      RTime: editing?.RTime ?? '',
      OrderId: editing ? String(editing.OrderId) : '',
    },
  });

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
          <TextField
            label="Result Time"
            placeholder="e.g. 1:45 PM"
            error={errors.RTime?.message}
            {...register('RTime')}
          />
          <TextField
            label="Order"
            inputMode="numeric"
            hint="Position in the charts: lower numbers come first."
            error={errors.OrderId?.message}
            {...register('OrderId')}
          />
        </div>
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
