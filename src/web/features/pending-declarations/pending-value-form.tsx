import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { type PendingValueOutput, type PendingValueValues, pendingValueForm } from './pending-schema.js';

interface PendingValueFormProps {
  /** Names the form for screen readers: "Declare a value for Gali on 10 Dec 2026". */
  label: string;
  busy: boolean;
  /** Sends the value; resolves true when the form may be cleared (the value was accepted or held). */
  onPublish: (value: string) => Promise<boolean>;
}

/**
 * A value the admin types instead of picking an entry: when both people mistyped, say. It publishes
 * only when it equals another person's entry; otherwise it waits as the admin's own entry (the page's
 * introduction says so once, rather than every card).
 */
export function PendingValueForm({ label, busy, onPublish }: PendingValueFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useAppForm<PendingValueValues, unknown, PendingValueOutput>({
    resolver: zodResolver(pendingValueForm),
    defaultValues: { result: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    if (await onPublish(values.result)) reset();
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={label} className="flex flex-wrap items-start gap-x-2">
      <div className="min-w-0 flex-1 basis-40">
        <TextField
          label="Declare a value"
          autoComplete="off"
          error={errors.result?.message}
          {...register('result')}
        />
      </div>
      {/* Level with the input, below its label; an error under the input leaves it there. */}
      <Button type="submit" variant="secondary" className="mt-6" disabled={busy || isSubmitting}>
        Publish value
      </Button>
    </form>
  );
}
