import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { z } from 'zod';
import { ownPasswordInput } from '../../../shared/schemas/account.js';
import { Alert } from '../../components/ui/alert.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/field.js';
import { useAppForm } from '../../hooks/use-app-form.js';
import { messageOr } from '../../lib/api-client.js';
import { markSession } from '../../lib/session.js';
import { useChangeOwnPassword } from './account-api.js';

/** The server's input, with the confirmation typed twice that only the screen asks for. */
const passwordForm = ownPasswordInput
  .and(z.object({ ConfirmPassword: z.string('This field is required').min(1, 'This field is required') }))
  .refine((values) => values.ConfirmPassword === values.NewPassword, {
    path: ['ConfirmPassword'],
    message: 'The passwords do not match',
  });
type PasswordForm = z.input<typeof passwordForm>;

export const PASSWORD_CHANGED_TEXT =
  'Your password was changed. Every other session of this account was signed out; this one goes on.';

/** Changes one's own password; on success the server ends the account's other sessions. */
export function AccountPasswordForm({ autoFocus = false }: { autoFocus?: boolean }) {
  const change = useChangeOwnPassword();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useAppForm<PasswordForm>({
    resolver: zodResolver(passwordForm),
    defaultValues: { CurrentPassword: '', NewPassword: '', ConfirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ CurrentPassword, NewPassword }) => {
    setOutcome(null);
    try {
      await change.mutateAsync({ CurrentPassword, NewPassword });
      reset();
      // The generated first password is gone: the rest of the app opens again.
      markSession({ passwordChangeRequired: undefined });
      setOutcome({ tone: 'success', text: PASSWORD_CHANGED_TEXT });
    } catch (error) {
      setOutcome({ tone: 'error', text: messageOr(error, 'Failed to change the password') });
    }
  });

  return (
    <Card title="Password">
      <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
        {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          // Set when the page opened for this form: the password must change before anything else.
          autoFocus={autoFocus}
          error={errors.CurrentPassword?.message}
          {...register('CurrentPassword')}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          error={errors.NewPassword?.message}
          {...register('NewPassword')}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={errors.ConfirmPassword?.message}
          {...register('ConfirmPassword')}
        />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Changing…' : 'Change password'}
        </Button>
      </form>
    </Card>
  );
}
